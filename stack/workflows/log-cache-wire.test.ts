// A step's delivery carries its run's log up to its own entry, served from the run log cache (log-cache.ts)
// while the run is active. Whatever happened to the run — a retried step, parallel steps, a context.call, a
// failure and a DLQ resume, a DLQ restart, a cancel — every body the app received is byte for byte the log
// encoded afresh from SQLite, and an ended run is not kept in the cache. The active runs that step publishes are
// planned against (active-runs.ts) are kept too: a resumed run's next step has the resumed settings.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, type TestStack } from '../messages/test-support';
import { rawSteps } from './records';
import type { WorkflowRuntime } from './runtime';
import { runWhen, startStackWithApp, type WorkflowApp } from './test-support';

let stack: TestStack;
let app: WorkflowApp;
let runtime: WorkflowRuntime;
/** Every body a workflow route received that is a run log (a step delivery). */
const delivered: Buffer[] = [];
const attempts = new Map<string, number>();
let healthy = false;

const state = (runId: string, wanted: string): Promise<Record<string, any>> =>
  runWhen(stack, runId, (log) => log.workflowState === wanted, `run ${runId} in ${wanted}`);

/** A run's log as encoding its rows gives it, up to the entry of `messageId`. */
const fresh = (messageId: string): string => JSON.stringify(rawSteps(runtime.store.logPrefix(messageId)));

/** The message ids of a run's log entries. */
const messageIds = (runId: string): string[] => {
  const run = runtime.store.latestRun(runId);
  return run ? runtime.store.log(run.seq).map((entry) => entry.messageId) : [];
};

beforeAll(async () => {
  ({ stack, app } = await startStackWithApp(
    {
      '/steps': {
        fn: async (context) => {
          const a = await context.run('a', () => {
            const seen = (attempts.get(context.workflowRunId) ?? 0) + 1;
            attempts.set(context.workflowRunId, seen);
            if (seen === 1) throw new Error('first attempt fails');
            return 'a';
          });
          const [b, c] = await Promise.all([context.run('b', () => 'b'), context.run('c', () => 'ç')]);
          const called = await context.call('call', { url: `${app.url}/echo`, method: 'POST', body: 'hi' });
          return context.run('d', () => `${a}${b}${c}:${String(called.body)}`);
        },
      },
      '/fails': {
        fn: async (context) => {
          await context.run('first', () => 'one');
          const second = await context.run('second', () => {
            if (!healthy) throw new Error('kaboom');
            return 'two';
          });
          return context.run('third', () => second);
        },
      },
      '/sleeper': {
        fn: async (context) => {
          await context.run('before', () => 'awake');
          await context.sleep('long', 3600);
        },
      },
    },
    { '/echo': (_req, body) => ({ status: 200, body: `echo ${body.toString()}` }) },
    {
      onRequest: (path, body) => {
        if (path === '/echo') return;
        try {
          if (Array.isArray(JSON.parse(body.toString('utf8')))) delivered.push(body);
        } catch {
          // Not a run log (a callback's or a failure's payload).
        }
      },
    },
  ));
  runtime = stack.stack.workflows.running() as WorkflowRuntime;
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

it('every step delivery is the freshly encoded log, through retry, failure, resume, restart and cancel', async () => {
  const steps = (await app.client.trigger({ url: `${app.url}/steps`, retries: 3 })).workflowRunId;
  const failed = (await app.client.trigger({ url: `${app.url}/fails`, retries: 0 })).workflowRunId;
  const restarted = (await app.client.trigger({ url: `${app.url}/fails`, retries: 0 })).workflowRunId;
  const sleeper = (await app.client.trigger({ url: `${app.url}/sleeper` })).workflowRunId;

  // The sleeping run is active: its log is served from the cache, and it is the encoding of its rows.
  await eventually(async () => messageIds(sleeper).length >= 3 || undefined, 'the sleeper sleeping');
  for (const id of messageIds(sleeper)) expect(runtime.logs.prefix(id)?.toString()).toBe(fresh(id));

  const runOfFailed = await state(failed, 'RUN_FAILED');
  const runOfRestarted = await state(restarted, 'RUN_FAILED');
  healthy = true;
  const resume = await app.client.dlq.resume({ dlqId: runOfFailed.dlqId, retries: 1 });
  const restart = await app.client.dlq.restart({ dlqId: runOfRestarted.dlqId, retries: 1 });
  expect(await app.client.cancel({ ids: sleeper })).toEqual({ cancelled: 1 });

  const done = await state(steps, 'RUN_SUCCESS');
  expect(JSON.parse(done.workflowRunResponse)).toBe('abç:echo hi');
  const resumed = await state(resume.workflowRunId, 'RUN_SUCCESS');
  expect(JSON.parse(resumed.workflowRunResponse)).toBe('two');
  // The steps of the resuming run have the settings the resume gave, not those of the failed run.
  const log = runtime.store.log(runtime.store.latestRun(resume.workflowRunId)?.seq as number);
  const last = runtime.stackStore.messages.get(log[log.length - 1]?.messageSeq as number);
  expect(last?.spec.maxRetries).toBe(1);
  await state(restart.workflowRunId, 'RUN_SUCCESS');

  // The retried step was delivered twice, the resumed step again after the failure: 20 step deliveries at least.
  expect(attempts.get(steps)).toBe(2);
  expect(delivered.length).toBeGreaterThanOrEqual(20);
  for (const body of delivered) {
    const log = JSON.parse(body.toString('utf8')) as { messageId: string }[];
    expect(body.toString('utf8')).toBe(fresh(log[log.length - 1]?.messageId as string));
  }
  // Ended runs are not kept; their logs are read from SQLite again (e.g. a DLQ entry's body), and match.
  for (const runId of [steps, failed, resume.workflowRunId, restarted, restart.workflowRunId, sleeper]) {
    for (const id of messageIds(runId)) {
      expect(runtime.logs.prefix(id)).toBeUndefined();
      expect(runtime.stepBody(id).toString()).toBe(fresh(id));
    }
  }
  expect(runtime.logs.size).toBe(0);
  expect(runtime.activeRuns.size).toBe(0);
});
