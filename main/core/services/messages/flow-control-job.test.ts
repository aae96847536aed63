// Pausing, resuming and resetting many flow-control keys as a job, against the real local stack behind a
// recording proxy: the preview is the keys the Flow control list would show (its search, its "waiting
// only"), listed once; the job acts on exactly those, one request per key, in chunks with progress; a
// closed job stops before its next chunk; a key the service does not know counts as already gone; an
// empty filter is refused.
import type { Client } from '@upstash/qstash';
import { beforeAll, describe, expect, it } from 'vitest';
import { JOB_CHUNK } from '../../../../shared/bridge/job';
import { runJob, testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { eventually, publishBatch, sdkFor, useStackBehindProxy } from '../test-stack/real-stack';
import { routerWith } from '../test-stack/router';
import { flowControlHandlers } from './flow-control';

describe('flow-control keys as a job, against the local stack', () => {
  const env = useStackBehindProxy();
  const jobs = testJobRunner(useSuiteTempDir());
  const router = () => routerWith(flowControlHandlers({ profiles: env.profiles, jobs }));
  let sdk: Client;
  beforeAll(() => {
    sdk = sdkFor(env.stack);
  });
  const posts = (since: number) =>
    env.proxy.requests.slice(since).filter((r) => r.method === 'POST' && r.url.startsWith('/v2/flowControl'));
  const requestsSince = (since: number) => env.proxy.requests.slice(since);

  /** Every key the stack knows (the SDK has no list call). */
  async function knownKeys(): Promise<string[]> {
    const response = await fetch(`${env.stack.url}/v2/flowControl`, {
      headers: { authorization: `Bearer ${env.stack.token}` },
    });
    return ((await response.json()) as { flowControlKey: string }[]).map((item) => item.flowControlKey);
  }

  /** Makes the keys exist: one message each, due in an hour (nothing is delivered). */
  async function makeKeys(keys: string[]): Promise<void> {
    await publishBatch(
      env.stack,
      keys.map((key) => ({
        destination: 'http://127.0.0.1:9/never',
        headers: {
          'Upstash-Delay': '1h',
          'Upstash-Flow-Control-Key': key,
          'Upstash-Flow-Control-Value': 'parallelism=1',
        },
        body: key,
      })),
    );
    await eventually(async () => {
      const names = new Set(await knownKeys());
      return keys.every((key) => names.has(key)) ? true : undefined;
    });
  }

  it('pauses the keys a search matches, one request per key, after the preview; the others stay', async () => {
    await makeKeys(['tenant-a-1', 'tenant-a-2', 'tenant-a-3', 'tenant-b-1']);
    let before = env.proxy.requests.length;
    const preview = await runJob(
      router(),
      'messages.flowControl.job',
      { profileId: 'p', action: 'pause', target: { filters: { search: 'TENANT-A' } } },
      { start: false },
    );
    expect(preview.found).toBe(3);
    expect(requestsSince(before).every((r) => r.method === 'GET')).toBe(true);

    before = env.proxy.requests.length;
    const run = await runJob(router(), 'messages.flowControl.job', {
      profileId: 'p',
      action: 'pause',
      target: { filters: { search: 'tenant-a' } },
    });
    expect(run.summary).toMatchObject({ action: 'pause', status: 'done', total: 3, succeeded: 3, failed: 0 });
    // Listed once, with the service's search; then one pause per key.
    const lists = requestsSince(before).filter((r) => r.method === 'GET');
    expect(lists.map((r) => r.url)).toEqual(['/v2/flowControl?search=tenant-a']);
    expect(posts(before).map((r) => r.url)).toEqual([
      '/v2/flowControl/tenant-a-1/pause',
      '/v2/flowControl/tenant-a-2/pause',
      '/v2/flowControl/tenant-a-3/pause',
    ]);
    for (const key of ['tenant-a-1', 'tenant-a-2', 'tenant-a-3']) {
      expect((await sdk.flowControl.get(key)).isPaused).toBe(true);
    }
    expect((await sdk.flowControl.get('tenant-b-1')).isPaused).toBe(false);
    expect(jobs.journal.get(run.summary!.jobId)).toMatchObject({
      procedure: 'messages.flowControl.job',
      service: 'messages',
      action: 'pause',
      status: 'done',
      description: 'flow-control keys matching search tenant-a',
    });
  });

  it('"waiting only" takes the keys with waiting messages; resume releases them', async () => {
    await makeKeys(['held-1', 'held-2']);
    const paused = await runJob(router(), 'messages.flowControl.job', {
      profileId: 'p',
      action: 'pause',
      target: { filters: { search: 'held-' } },
    });
    expect(paused.summary).toMatchObject({ succeeded: 2 });
    // A message due now on a paused key waits.
    await sdk.publish({
      url: 'http://127.0.0.1:9/now',
      body: 'now',
      flowControl: { key: 'held-1', parallelism: 1 },
    });
    await eventually(async () => ((await sdk.flowControl.get('held-1')).waitListSize > 0 ? true : undefined));
    const resumed = await runJob(router(), 'messages.flowControl.job', {
      profileId: 'p',
      action: 'resume',
      target: { filters: { search: 'held-', waitingOnly: true } },
    });
    expect(resumed.summary).toMatchObject({ action: 'resume', status: 'done', total: 1, succeeded: 1 });
    expect((await sdk.flowControl.get('held-1')).isPaused).toBe(false);
    expect((await sdk.flowControl.get('held-2')).isPaused).toBe(true);
  });

  it('resets the rate of listed keys; a key the service does not know counts as already gone', async () => {
    await makeKeys(['rated-1']);
    const run = await runJob(router(), 'messages.flowControl.job', {
      profileId: 'p',
      action: 'resetRate',
      target: { ids: ['rated-1', 'no-such-key'] },
    });
    expect(run.summary).toMatchObject({ status: 'done', total: 2, succeeded: 1, skipped: 1, failed: 0 });
  });

  it('closing the job stops before the next chunk', async () => {
    const many = Array.from({ length: 2 * JOB_CHUNK + 5 }, (_, i) => `many-${String(i).padStart(3, '0')}`);
    await makeKeys(many);
    const before = env.proxy.requests.length;
    const run = await runJob(
      router(),
      'messages.flowControl.job',
      { profileId: 'p', action: 'pause', target: { filters: { search: 'many-' } } },
      { stopWhen: (event) => event.type === 'progress' && event.processed >= JOB_CHUNK },
    );
    expect(run.summary).toMatchObject({ status: 'cancelled', total: many.length, succeeded: JOB_CHUNK });
    expect(posts(before)).toHaveLength(JOB_CHUNK);
  });

  it('an empty filter is refused before any request; "all" is explicit', async () => {
    const before = env.proxy.requests.length;
    for (const target of [
      { filters: {} },
      { filters: { search: '  ' } },
      { filters: { waitingOnly: false } },
      { ids: [] },
    ]) {
      await expect(
        runJob(router(), 'messages.flowControl.job', { profileId: 'p', action: 'pause', target }),
      ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    expect(env.proxy.requests.length).toBe(before);
    const all = await runJob(
      router(),
      'messages.flowControl.job',
      { profileId: 'p', action: 'resume', target: { all: true } },
      { start: false },
    );
    expect(all.found).toBe((await knownKeys()).length);
  });
});
