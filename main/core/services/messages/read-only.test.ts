// The console core as the app builds it: every procedure of the message operations that writes is refused
// for a read-only profile in main — no request reaches the service — while reads go through.
import { describe, expect, it } from 'vitest';
import { procedures } from '../../../../shared/bridge/procedures';
import { createTestConsoleCore } from '../../testing/console-core';
import { useTempDirs } from '../../testing/temp-dir';
import { useStackBehindProxy } from '../test-stack/real-stack';

const WRITE_SAMPLES: Record<string, object> = {
  'messages.urlGroups.addEndpoints': { name: 'g', endpoints: [{ url: 'http://127.0.0.1:9/x' }] },
  'messages.urlGroups.removeEndpoints': { name: 'g', endpoints: [{ url: 'http://127.0.0.1:9/x' }] },
  'messages.urlGroups.delete': { name: 'g' },
  'messages.urlGroups.setHeaders': { name: 'g', headers: { 'Upstash-Retries': ['1'] } },
  'messages.logs.cancel': { target: { messageIds: ['msg_1'] } },
  'messages.queues.upsert': { name: 'q', parallelism: 1, paused: false },
  'messages.queues.setPaused': { name: 'q', paused: true },
  'messages.queues.delete': { name: 'q' },
  'messages.dlq.retry': { dlqId: '1-0' },
  'messages.dlq.delete': { dlqId: '1-0' },
  'messages.keys.rotate': {},
};

describe('read-only profiles, enforced in main', () => {
  const tempDir = useTempDirs();
  const env = useStackBehindProxy();

  it('covers every write procedure of the message operations', () => {
    const writes = Object.entries(procedures)
      .filter(
        ([name, def]) => def.effect === 'write' && /^messages\.(urlGroups|logs|queues|dlq|keys)\./.test(name),
      )
      .map(([name]) => name)
      .sort();
    expect(writes).toEqual([...Object.keys(WRITE_SAMPLES), 'messages.dlq.bulk'].sort());
  });

  it('refuses them without sending anything, and still reads', async () => {
    const dir = tempDir();
    const core = createTestConsoleCore(dir);
    try {
      const profile = core.profiles.create(
        {
          name: 'Prod RO',
          env: 'prod',
          messagesUrl: env.proxy.url,
          kvUrl: '',
          readOnly: true,
          confirmDangerous: true,
        },
        { messageToken: env.stack.token },
      );
      for (const [name, sample] of Object.entries(WRITE_SAMPLES)) {
        const result = await core.router.call(name, { profileId: profile.id, ...sample });
        expect(result, name).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
      }
      await expect(
        core.router.open(
          'messages.dlq.bulk',
          { profileId: profile.id, action: 'retry', target: { dlqIds: ['1-0'] } },
          { push: () => {}, end: () => {} },
        ),
      ).rejects.toMatchObject({ code: 'READ_ONLY' });
      expect(env.proxy.requests).toEqual([]);

      for (const name of [
        'messages.urlGroups.list',
        'messages.queues.list',
        'messages.dlq.list',
        'messages.logs.list',
        'messages.keys.get',
      ]) {
        expect((await core.router.call(name, { profileId: profile.id })).ok, name).toBe(true);
      }
      expect(env.proxy.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'GET', 'GET']);
    } finally {
      await core.close();
    }
  });
});
