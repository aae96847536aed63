// The workflow DLQ's job against the real local stack: failed runs made the way the SDK triggers them
// (their delivery answered 500, no retries, so they land in the workflow DLQ), then a restart in chunks that
// is stopped after its first chunk, cut short by a "console restart" (the journal read back: interrupted),
// and resumed to finish exactly the rest; a delete by filter acts by id on what the preview listed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_CHUNK } from '../../../../shared/bridge/job';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { doneByLostAnswers, runJob, testJobRunner } from '../../testing/jobs';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import { ServiceApi } from '../../http/service-api';
import { messageEndpoint } from '../messages/client';
import {
  publishBatch,
  type RealStack,
  startDestination,
  startRealStack,
  startRecordingProxy,
  workflowStart,
} from '../test-stack/real-stack';
import { routerWith } from '../test-stack/router';
import { WorkflowClient } from './client';
import { scanDlq } from './dlq-triage';
import { workflowHandlers } from './index';

const RUNS = JOB_CHUNK + 10;

let stack: RealStack;
let destination: Awaited<ReturnType<typeof startDestination>>;
let client: WorkflowClient;

function profile(url: string, token: string): ResolvedProfile {
  return {
    id: 'local',
    settings: {
      name: 'Local',
      env: 'local',
      messagesUrl: url,
      kvUrl: '',
      readOnly: false,
      confirmDangerous: false,
    },
    secret: (name) => (name === 'messageToken' ? token : undefined),
  } as ResolvedProfile;
}

async function triggerFailingRuns(count: number, label: string): Promise<void> {
  const items = Array.from({ length: count }, (_, i) =>
    workflowStart(
      `wfr_${label}_${i}`,
      `${destination.url}/wf`,
      { 'Upstash-Retries': '0', 'Upstash-Label': label },
      JSON.stringify({ i }),
    ),
  );
  await publishBatch(stack, items);
}

async function dlqCount(label: string): Promise<number> {
  return (await scanDlq(client, { label: [label] })).entries.length;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  stack = await startRealStack();
  destination = await startDestination(() => 500);
  client = new WorkflowClient(new ServiceApi(messageEndpoint(profile(stack.url, stack.token))));
});

afterAll(async () => {
  await destination?.close();
  await stack?.stop();
});

describe('the workflow DLQ job on the real stack', () => {
  const tempDir = useTempDirs();
  const routerOver = (dir: string, url = stack.url) => {
    const jobs = testJobRunner(join(dir, 'jobs'));
    return routerWith({
      ...workflowHandlers({
        profiles: { resolve: () => profile(url, stack.token) },
        dataDir: dir,
        jobs,
      }),
      'jobs.resume': jobs.resume,
    });
  };

  it('restarts in chunks; stopped after a chunk, interrupted by a restart, resumed to finish the rest', async () => {
    const label = `bulk${Date.now()}`;
    await triggerFailingRuns(RUNS, label);
    await until(async () => (await dlqCount(label)) === RUNS, `${RUNS} DLQ entries`);
    const dir = tempDir();
    const input = { profileId: 'local', action: 'restart', target: { filters: { label: [label] } } };
    const first = await runJob(routerOver(dir), 'workflows.dlq.job', input, {
      start: { overrides: { retries: 0, label: `${label}-again` } },
      stopWhen: (event) => event.type === 'progress' && event.processed > 0,
    });
    expect(first.found).toBe(RUNS);
    expect(first.events).toContainEqual({ type: 'started', jobId: first.summary!.jobId, total: RUNS });
    expect(first.summary).toMatchObject({ status: 'cancelled', succeeded: JOB_CHUNK, failed: 0 });
    expect(await dlqCount(label)).toBe(RUNS - JOB_CHUNK);

    // A console that died mid-job leaves no end line: read back, the job is interrupted.
    const jobId = first.summary!.jobId;
    const file = join(dir, 'jobs', `${jobId}.jsonl`);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, `${lines.slice(0, -1).join('\n')}\n`);
    const router = routerOver(dir);
    const resumed = await runJob(router, 'jobs.resume', { profileId: 'local', jobId });
    expect(resumed.found).toBe(RUNS - JOB_CHUNK);
    expect(resumed.summary).toMatchObject({ status: 'done', total: RUNS, succeeded: RUNS, failed: 0 });
    expect(new Set(resumed.summary!.created.map((run) => run.id)).size).toBe(RUNS);

    // The restarts carried the overrides: the new runs have the new label (and failed again into the DLQ).
    await until(async () => (await dlqCount(`${label}-again`)) === RUNS, 'the restarted runs');
    expect(await dlqCount(label)).toBe(0);
  });

  it('resume instead of restart is picked at the start; delete by filter acts by id on what was listed', async () => {
    const label = `del${Date.now()}`;
    await triggerFailingRuns(5, label);
    await until(async () => (await dlqCount(label)) === 5, '5 DLQ entries');
    const router = routerOver(tempDir());
    const preview = await runJob(
      router,
      'workflows.dlq.job',
      { profileId: 'local', action: 'restart', target: { filters: { label: [label] } } },
      { start: false },
    );
    expect(preview.found).toBe(5);
    const deleted = await runJob(router, 'workflows.dlq.job', {
      profileId: 'local',
      action: 'delete',
      target: { filters: { label: [label] } },
    });
    expect(deleted.summary).toMatchObject({ action: 'delete', succeeded: 5, failed: 0 });
    expect(await dlqCount(label)).toBe(0);
    await expect(
      runJob(router, 'workflows.dlq.job', { profileId: 'local', action: 'delete', target: { filters: {} } }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
  it('re-sends the failure callbacks of runs whose failure function failed, and lists only those', async () => {
    // The service sends no other callback again (400), so the job's preview must not count them either.
    const label = `cb${Date.now()}`;
    const app = await startDestination((path) => (path === '/ok-failure' ? 200 : 500));
    try {
      const run = (name: string, failureUrl?: string) =>
        workflowStart(`wfr_${label}_${name}`, `${app.url}/wf`, {
          'Upstash-Retries': '0',
          'Upstash-Label': label,
          ...(failureUrl ? { 'Upstash-Failure-Callback': `${app.url}${failureUrl}` } : {}),
        });
      await publishBatch(stack, [
        run('a', '/failure'),
        run('b', '/failure'),
        run('c', '/failure'),
        run('handled', '/ok-failure'),
        run('none'),
      ]);
      const inState = async (state: 'CALLBACK_FAIL' | 'CALLBACK_SUCCESS') =>
        (await scanDlq(client, { label: [label], failureFunctionState: [state] })).entries.length;
      await until(
        async () =>
          (await dlqCount(label)) === 5 &&
          (await inState('CALLBACK_FAIL')) === 3 &&
          (await inState('CALLBACK_SUCCESS')) === 1,
        'five failed runs, three failure callbacks failed and one handled',
      );
      const calls = () => app.received.filter((r) => r.url === '/failure').length;
      expect(calls()).toBe(3);

      const router = routerOver(tempDir());
      const input = { profileId: 'local', action: 'callback', target: { filters: { label: [label] } } };
      const job = await runJob(router, 'workflows.dlq.job', input);
      expect(job.found).toBe(3);
      expect(job.summary).toMatchObject({ action: 'callback', succeeded: 3, failed: 0 });
      await until(async () => calls() === 6, 'each failed callback sent once more');
      expect(app.received.filter((r) => r.url === '/ok-failure')).toHaveLength(1);

      // A filter that leaves failed callbacks out lists nothing.
      const none = await runJob(
        router,
        'workflows.dlq.job',
        { ...input, target: { filters: { label: [label], failureFunctionState: ['CALLBACK_SUCCESS'] } } },
        { start: false },
      );
      expect(none.found).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('a restart whose connection is reset after the stack restarted: asked again, the runs count as restarted, not failed', async () => {
    const label = `lost${Date.now()}`;
    await triggerFailingRuns(3, label);
    await until(async () => (await dlqCount(label)) === 3, '3 DLQ entries');
    const proxy = await startRecordingProxy(stack.url);
    try {
      let lost = 1;
      proxy.fault = (request) =>
        request.url.startsWith('/v2/workflows/dlq/restart') && lost-- > 0 ? 'reset' : undefined;
      const run = await runJob(routerOver(tempDir(), proxy.url), 'workflows.dlq.job', {
        profileId: 'local',
        action: 'restart',
        target: { filters: { label: [label] } },
      });
      expect(run.summary).toMatchObject(doneByLostAnswers(3));
      expect(run.events.filter((event) => event.type === 'waiting')).toEqual([
        expect.objectContaining({ reason: expect.stringMatching(/closed unexpectedly/) }),
      ]);
      // Restarted once each: three new runs failed again into the DLQ under the same label, not six.
      await until(async () => (await dlqCount(label)) === 3, 'the restarted runs');
    } finally {
      await proxy.close();
    }
  });
});
