// Bulk jobs against the real local stack: failed runs made the way the SDK triggers them (their delivery
// answered 500, no retries, so they land in the workflow DLQ), then a chunked restart that is stopped
// after its first chunk, survives a "console restart" (the journal re-read from disk: interrupted), and
// resumes from its cursor to finish exactly the rest.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkEvent } from '../../../../shared/bridge/procedures/workflows/dlq';
import type { JobRecord } from '../../../../shared/bridge/procedures/workflows/jobs';
import { DLQ_ACTION_CHUNK } from '../../../../shared/workflows/types';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { useTempDirs } from '../../testing/temp-dir';
import { ServiceApi } from '../../http/service-api';
import { messageEndpoint } from '../messages/client';
import { type RealStack, startDestination, startRealStack } from '../test-stack/real-stack';
import { WorkflowBulkJob } from './bulk';
import { WorkflowClient } from './client';
import { scanDlq } from './handlers';
import { WorkflowsStore } from './store';

const RUNS = DLQ_ACTION_CHUNK + 10;

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
  const items = Array.from({ length: count }, (_, i) => ({
    destination: `${destination.url}/wf`,
    headers: {
      'Content-Type': 'application/json',
      'Upstash-Workflow-Init': 'true',
      'Upstash-Workflow-RunId': `wfr_${label}_${i}`,
      'Upstash-Workflow-Url': `${destination.url}/wf`,
      'Upstash-Workflow-Sdk-Version': '1',
      'Upstash-Retries': '0',
      'Upstash-Label': label,
    },
    body: JSON.stringify({ i }),
  }));
  const response = await fetch(`${stack.url}/v2/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(items),
  });
  expect(response.status).toBe(200);
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

describe('workflow bulk jobs on the real stack', () => {
  const tempDir = useTempDirs();

  it('restarts in chunks; stopped after a chunk, interrupted by a restart, resumed from its cursor', async () => {
    const label = `bulk${Date.now()}`;
    await triggerFailingRuns(RUNS, label);
    await until(async () => (await dlqCount(label)) === RUNS, `${RUNS} DLQ entries`);
    const { entries } = await scanDlq(client, { label: [label] });
    const file = join(tempDir(), 'workflows.json');
    const store = new WorkflowsStore(file);
    const job: JobRecord = {
      id: 'job-1',
      profileId: 'local',
      action: 'restart',
      target: { dlqIds: entries.map((entry) => entry.dlqId) },
      description: `${RUNS} entries`,
      overrides: { retries: 0, label: `${label}-again` },
      startedAt: Date.now(),
      status: 'running',
      total: RUNS,
      processed: 0,
      succeeded: 0,
      failures: [],
      runs: [],
    };
    const events: BulkEvent[] = [];
    const first = new WorkflowBulkJob(client, store, job, (event) => {
      events.push(event);
      // The console closes the stream once the first chunk is reported.
      if (event.type === 'progress' && event.processed > 0) first.stop();
    });
    const stopped = await first.run();
    expect(stopped).toMatchObject({ cancelled: true, succeeded: DLQ_ACTION_CHUNK, failures: [] });
    expect(events[0]).toEqual({ type: 'started', jobId: 'job-1', total: RUNS });
    expect(store.job('local', 'job-1')).toMatchObject({
      status: 'cancelled',
      cursor: String(DLQ_ACTION_CHUNK),
    });
    expect(await dlqCount(label)).toBe(RUNS - DLQ_ACTION_CHUNK);

    // A console that died mid-job: the entry was left "running"; reading the journal marks it interrupted.
    store.putJob({ ...store.job('local', 'job-1')!, status: 'running' });
    const reopened = new WorkflowsStore(file);
    const interrupted = reopened.job('local', 'job-1')!;
    expect(interrupted).toMatchObject({
      status: 'interrupted',
      cursor: String(DLQ_ACTION_CHUNK),
      processed: DLQ_ACTION_CHUNK,
    });

    const resumed = await new WorkflowBulkJob(client, reopened, interrupted, () => {}).run();
    expect(resumed).toMatchObject({ cancelled: false, total: RUNS, succeeded: RUNS, failures: [] });
    expect(new Set(resumed.runs.map((run) => run.workflowRunId)).size).toBe(RUNS);
    expect(reopened.job('local', 'job-1')).toMatchObject({ status: 'done', processed: RUNS });
    expect(reopened.job('local', 'job-1')!.cursor).toBeUndefined();

    // The restarts carried the overrides: the new runs have the new label (and failed again into the DLQ).
    await until(async () => (await dlqCount(`${label}-again`)) === RUNS, 'the restarted runs');
    expect(await dlqCount(label)).toBe(0);
  });

  it('deletes by filter with the service cursor, never with an empty filter', async () => {
    const label = `del${Date.now()}`;
    await triggerFailingRuns(5, label);
    await until(async () => (await dlqCount(label)) === 5, '5 DLQ entries');
    const store = new WorkflowsStore(join(tempDir(), 'workflows.json'));
    const job: JobRecord = {
      id: 'job-2',
      profileId: 'local',
      action: 'delete',
      target: { filters: { label: [label] } },
      description: `label ${label}`,
      overrides: {},
      startedAt: Date.now(),
      status: 'running',
      total: 5,
      processed: 0,
      succeeded: 0,
      failures: [],
      runs: [],
    };
    const summary = await new WorkflowBulkJob(client, store, job, () => {}).run();
    expect(summary).toMatchObject({ succeeded: 5, failures: [] });
    expect(await dlqCount(label)).toBe(0);
    await expect(client.dlqDelete({ filters: {}, count: 50 })).rejects.toThrow(/every entry of the DLQ/);
  });
});
