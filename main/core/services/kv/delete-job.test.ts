// KV delete by pattern when the service fails for a moment while the job lists its keys: a SCAN answered
// 503 (a gateway in front of the KV service) is waited through and asked again from the same cursor, so the
// preview still lists every matching key once, and the job deletes them all. The real local stack's KV
// service behind a proxy that loses one SCAN's answer.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { runJob, testJobRunner } from '../../testing/jobs';
import { type RecordingProxy, startRecordingProxy } from '../test-stack/real-stack';
import { routerWith } from '../test-stack/router';
import { KvClient } from './client';
import { kvHandlers } from './index';
import { kvProfile, useKvStack } from './kv-test-stack';
import { exportsFolderSaver } from '../../saving/exports-folder';

const env = useKvStack();
const dataDir = useSuiteTempDir('kv-delete-job-');
let proxy: RecordingProxy;
beforeAll(async () => {
  proxy = await startRecordingProxy(env.kv.url);
});
afterAll(async () => {
  await proxy?.close();
});

/** The SCAN cursor of a recorded request, when it is one. */
const scanCursor = (body: string): string | undefined => {
  const args = JSON.parse(body || 'null') as unknown;
  return Array.isArray(args) && args[0] === 'SCAN' ? String(args[1]) : undefined;
};

describe('KV delete by pattern through a failing SCAN', () => {
  it('a SCAN that fails for a moment while listing is waited through, then the listing goes on from its cursor', async () => {
    const profile = kvProfile(env.kv);
    const viaProxy = { ...profile, settings: { ...profile.settings, kvUrl: proxy.url } };
    const client = new KvClient(profile);
    const rows = Array.from({ length: 3000 }, (_, i) => ['SET', `outage:${i}`, 'v']);
    for (let i = 0; i < rows.length; i += 1000) await client.pipelineEntries(rows.slice(i, i + 1000));
    const jobs = testJobRunner(join(dataDir, 'jobs'));
    const router = routerWith(
      kvHandlers({
        profiles: { resolve: () => viaProxy },
        dataDir,
        jobs,
        saver: exportsFolderSaver({ folder: join(dataDir, 'exports'), servedFolders: [] }),
      }),
    );
    // The first SCAN past the first page: the service did it, the gateway lost the answer.
    let lost = 1;
    proxy.fault = (request) => {
      const cursor = scanCursor(request.body);
      return cursor !== undefined && cursor !== '0' && lost-- > 0 ? 'answer-503' : undefined;
    };
    const before = proxy.requests.length;
    const run = await runJob(router, 'kv.keys.job', {
      profileId: 'p',
      target: { filters: { pattern: 'outage:*' } },
    }).finally(() => (proxy.fault = undefined));
    expect(run.error).toBeUndefined();
    expect(run.found).toBe(3000);
    expect(run.events.filter((event) => event.type === 'waiting')).toEqual([
      expect.objectContaining({ attempt: 2, reason: expect.stringMatching(/^HTTP 503: gateway failed/) }),
    ]);
    // The SCAN that failed was asked again with the same cursor, not from the start.
    const cursors = proxy.requests
      .slice(before)
      .flatMap((request) => scanCursor(request.body) ?? [])
      .filter((cursor) => cursor !== '0');
    expect(cursors[0]).toBe(cursors[1]);
    expect(run.summary).toMatchObject({ status: 'done', total: 3000, succeeded: 3000, failed: 0 });
    expect(await client.call(['EXISTS', 'outage:0', 'outage:2999'])).toBe(0);
  });
});
