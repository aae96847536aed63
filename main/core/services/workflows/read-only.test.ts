// Every `workflows.*` procedure that changes something at the service is refused in main for a read-only
// profile — no request leaves main — while the journal and saved views (console-local) still work.
import { describe, expect, it } from 'vitest';
import { procedures } from '../../../../shared/bridge/procedures';
import { createTestConsoleCore } from '../../testing/console-core';
import { useTempDirs } from '../../testing/temp-dir';
import { useStackBehindProxy } from '../test-stack/real-stack';

const CALL_SAMPLES: Record<string, object> = {
  'workflows.runs.cancel': { workflowRunIds: ['wfr_1'] },
  'workflows.runs.notify': { eventId: 'evt', eventData: '{}' },
  'workflows.runs.trigger': { workflowUrl: 'http://127.0.0.1:9/wf', body: '{}' },
};
const STREAM_SAMPLES: Record<string, object> = {
  'workflows.dlq.bulk': { action: 'restart', target: { dlqIds: ['d1'] }, description: 'one' },
  'workflows.jobs.resume': { jobId: 'job-1' },
};

describe('read-only profiles and the Workflows area, enforced in main', () => {
  const tempDir = useTempDirs();
  const env = useStackBehindProxy();

  it('covers every write procedure of workflows.*', () => {
    const writes = Object.entries(procedures)
      .filter(([name, def]) => def.effect === 'write' && name.startsWith('workflows.'))
      .map(([name]) => name)
      .sort();
    expect(writes).toEqual([...Object.keys(CALL_SAMPLES), ...Object.keys(STREAM_SAMPLES)].sort());
  });

  it('refuses them without sending anything; local procedures still work', async () => {
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
      for (const [name, sample] of Object.entries(CALL_SAMPLES)) {
        const result = await core.router.call(name, { profileId: profile.id, ...sample });
        expect(result, name).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
      }
      for (const [name, sample] of Object.entries(STREAM_SAMPLES)) {
        await expect(
          core.router.open(name, { profileId: profile.id, ...sample }, { push: () => {}, end: () => {} }),
          name,
        ).rejects.toMatchObject({ code: 'READ_ONLY' });
      }
      expect(env.proxy.requests).toEqual([]);

      const saved = await core.router.call('workflows.views.save', {
        profileId: profile.id,
        name: 'Failed',
        filters: { state: 'RUN_FAILED' },
      });
      expect(saved.ok).toBe(true);
      expect(await core.router.call('workflows.jobs.list', { profileId: profile.id })).toEqual({
        ok: true,
        value: [],
      });
      expect(env.proxy.requests).toEqual([]);
    } finally {
      await core.close();
    }
  });
});
