// The live monitor, pub/sub and export, against the real local stack's KV service (redis-server behind
// the REST bridge), with traffic from the vendor's own client and from main's KvClient.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';
import type {
  KvMonitorEvent,
  KvMonitorLine,
  KvPubSubEvent,
} from '../../../../shared/bridge/procedures/kv/live';
import type { ProfilesService, ResolvedProfile } from '../../profiles/profiles-service';
import { KvClient } from './client';
import { exportsFolderSaver } from '../../saving/exports-folder';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { kvProfile, useKvStack } from './kv-test-stack';
import { monitorHandlers } from './monitor';
import { pubSubEvent, pubsubHandlers } from './pubsub';
import { Recorder } from './stream-recorder';

const env = useKvStack();
const exportDir = join(useSuiteTempDir('kv-live-export-'), 'exports');
const saver = exportsFolderSaver({ folder: exportDir, servedFolders: [] });

function profilesOf(profile: ResolvedProfile): ProfilesService {
  return { resolve: () => profile } as unknown as ProfilesService;
}

const lines = (r: Recorder<KvMonitorEvent>): KvMonitorLine[] =>
  r.events.filter((e): e is KvMonitorLine => e.kind === 'line');

describe('kv.monitor', () => {
  it('streams parsed lines and tags exactly the commands main sent', async () => {
    const profile = kvProfile(env.kv);
    const handlers = monitorHandlers({ profiles: profilesOf(profile), saver });
    const sink = new Recorder<KvMonitorEvent>();
    const stop = await handlers['kv.monitor']({ profileId: 'kv-test' }, sink);
    try {
      await sink.until((e) => e.kind === 'open');
      const sdk = new Redis({
        url: env.kv.url,
        token: env.kv.token,
        enableTelemetry: false,
        enableAutoPipelining: false,
      });
      const main = new KvClient(profile);
      await sdk.set('mon:other', 'from the sdk');
      await main.call(['SET', 'mon:own', 'héllo "q"']);
      await main.pipeline([
        ['GET', 'mon:own'],
        ['INCR', 'mon:n'],
      ]);
      await main.multiExec([['INCR', 'mon:n']]);
      // The same command from both sides: exactly one of the two lines is main's.
      await main.call(['GET', 'mon:same']);
      await sdk.get('mon:same');
      await sdk.set('mon:done', '1');
      await sink.until((e) => e.kind === 'line' && e.args[1] === 'mon:done');

      const seen = lines(sink).map((l) => [l.args.join(' '), l.own]);
      expect(seen).toContainEqual(['set mon:other from the sdk', false]);
      expect(seen).toContainEqual(['SET mon:own héllo "q"', true]);
      expect(seen).toContainEqual(['GET mon:own', true]);
      expect(seen).toContainEqual(['INCR mon:n', true]);
      expect(seen).toContainEqual(['MULTI', true]);
      expect(seen).toContainEqual(['EXEC', true]);
      const same = lines(sink).filter((l) => l.args[1] === 'mon:same');
      expect(same).toHaveLength(2);
      expect(same.filter((l) => l.own)).toHaveLength(1);
      const own = lines(sink).find((l) => l.args[1] === 'mon:own')!;
      // The local stack names the REST caller: this process's IP and the standard token's user.
      expect(own.raw).toMatch(
        /^\d+\.\d+ \[0 127\.0\.0\.1 default\] "SET" "mon:own" "h\\xc3\\xa9llo \\"q\\""$/,
      );
      expect(own.client).toBe('127.0.0.1 default');
      expect(Math.abs(own.at - Date.now())).toBeLessThan(24 * 3600_000);
    } finally {
      stop();
    }
  });

  it('ends the stream when stopped and tags nothing once closed', async () => {
    const profile = kvProfile(env.kv);
    const handlers = monitorHandlers({ profiles: profilesOf(profile), saver });
    const sink = new Recorder<KvMonitorEvent>();
    const stop = await handlers['kv.monitor']({ profileId: 'kv-test' }, sink);
    stop();
    await new KvClient(profile).call(['SET', 'mon:after', '1']);
    expect(sink.ended).toBeUndefined();
    // A new monitor does not inherit notes from before it opened.
    const later = new Recorder<KvMonitorEvent>();
    const stop2 = await handlers['kv.monitor']({ profileId: 'kv-test' }, later);
    try {
      await new Redis({
        url: env.kv.url,
        token: env.kv.token,
        enableTelemetry: false,
        enableAutoPipelining: false,
      }).set('mon:after', '1');
      const line = await later.until((e) => e.kind === 'line' && e.args[1] === 'mon:after');
      expect(line).toMatchObject({ own: false });
    } finally {
      stop2();
    }
  });

  it('fails the open with the service text for a read-only token (MONITOR is refused to it)', async () => {
    const handlers = monitorHandlers({
      profiles: profilesOf(kvProfile(env.kv, { readOnly: true })),
      saver,
    });
    await expect(handlers['kv.monitor']({ profileId: 'kv-test' }, new Recorder())).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
      message: expect.stringMatching(/NOPERM/),
    });
  });
});

describe('kv.monitor.export', () => {
  const handlers = (): ReturnType<typeof monitorHandlers> =>
    monitorHandlers({ profiles: profilesOf(kvProfile(env.kv)), saver });

  it('writes the lines to a new file in the place main picks, never overwriting', async () => {
    const chosen = (await handlers()['kv.monitor.export']({ lines: ['a', 'b'], format: 'text' })) as {
      path: string;
      lines: number;
      bytes: number;
    };
    expect(dirname(chosen.path)).toBe(realpathSync(exportDir));
    expect(chosen.path).toMatch(/kv-monitor-.*\.log$/);
    expect(readFileSync(chosen.path, 'utf8')).toBe('a\nb\n');
    expect(chosen).toMatchObject({ lines: 2, bytes: 4 });

    const first = await handlers()['kv.monitor.export']({
      lines: ['{"a":1}'],
      format: 'jsonl',
      suggestedName: 'mine.jsonl',
    });
    const second = await handlers()['kv.monitor.export']({
      lines: ['x'],
      format: 'jsonl',
      suggestedName: 'mine.jsonl',
    });
    expect(first).toMatchObject({ path: join(realpathSync(exportDir), 'mine.jsonl') });
    expect(second).toMatchObject({ path: join(realpathSync(exportDir), 'mine-2.jsonl') });
    expect(readFileSync(join(exportDir, 'mine.jsonl'), 'utf8')).toBe('{"a":1}\n');
  });
});

describe('kv.subscribe and kv.publish', () => {
  it('round-trips messages on channels and patterns, commas and JSON included', async () => {
    const handlers = pubsubHandlers({ profiles: profilesOf(kvProfile(env.kv)) });
    const sink = new Recorder<KvPubSubEvent>();
    const stop = await handlers['kv.subscribe'](
      { profileId: 'kv-test', channels: ['news', 'a,b'], patterns: ['orders:*'] },
      sink,
    );
    try {
      await sink.until((e) => e.kind === 'subscribed' && e.target === 'news');
      await sink.until((e) => e.kind === 'subscribed' && e.target === 'a,b');
      await sink.until((e) => e.kind === 'subscribed' && e.pattern && e.target === 'orders:*');
      expect(
        await handlers['kv.publish']({ profileId: 'kv-test', channel: 'news', message: 'hello, world' }),
      ).toEqual({
        receivers: 1,
      });
      await handlers['kv.publish']({ profileId: 'kv-test', channel: 'a,b', message: 'x' });
      await handlers['kv.publish']({ profileId: 'kv-test', channel: 'orders:42', message: '{"id":42}' });
      expect(await sink.until((e) => e.kind === 'message' && e.channel === 'news')).toMatchObject({
        payload: 'hello, world',
      });
      expect(await sink.until((e) => e.kind === 'message' && e.channel === 'a,b')).toMatchObject({
        payload: 'x',
      });
      expect(await sink.until((e) => e.kind === 'message' && e.channel === 'orders:42')).toMatchObject({
        pattern: 'orders:*',
        payload: '{"id":42}',
      });
    } finally {
      stop();
    }
    // Closed: the service drops the subscriptions (it notices the aborted requests asynchronously).
    for (;;) {
      const { receivers } = await handlers['kv.publish']({
        profileId: 'kv-test',
        channel: 'news',
        message: 'late',
      });
      if (receivers === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(sink.events.some((e) => e.kind === 'message' && e.payload === 'late')).toBe(false);
  });

  it('refuses a read-only token with the service text', async () => {
    const handlers = pubsubHandlers({ profiles: profilesOf(kvProfile(env.kv, { readOnly: true })) });
    await expect(
      handlers['kv.subscribe']({ profileId: 'kv-test', channels: ['news'], patterns: [] }, new Recorder()),
    ).rejects.toMatchObject({ code: 'SERVICE_ERROR', message: expect.stringMatching(/NOPERM/) });
  });

  it('parses pattern messages whose payload has commas', () => {
    expect(pubSubEvent('pmessage,u:*,u:1,a,b', 'u:*', true, () => 5)).toEqual({
      kind: 'message',
      channel: 'u:1',
      pattern: 'u:*',
      payload: 'a,b',
      at: 5,
    });
    expect(pubSubEvent('"DROPPED 7 lines: the client reads too slowly"', 'x', false)).toEqual({
      kind: 'serverDropped',
      count: 7,
    });
  });
});
