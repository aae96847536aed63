// A trigger's delay (client.trigger({delay}) → Upstash-Delay on the trigger message) holds back the run's first
// delivery only. The SDK re-applies the trigger's flow control, retries, retry delay and failure URL to later
// steps (WF_TriggerOnConfig), never its delay: a run started "in an hour" runs its steps one after another once
// the hour is over, as at the real service. The stack clock stands in for the hour.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, settle, type TestStack } from '../messages/test-support';
import { runWhen, startStackWithApp, type WorkflowApp } from './test-support';

let stack: TestStack;
let app: WorkflowApp;
let healthy = false;

beforeAll(async () => {
  ({ stack, app } = await startStackWithApp({
    '/steps': {
      fn: async (context) => {
        const a = await context.run('a', () => 1);
        const b = await context.run('b', () => a + 1);
        const [c, d] = await Promise.all([context.run('c', () => b + 1), context.run('d', () => b + 2)]);
        return c + d;
      },
    },
    '/waits': {
      fn: async (context) => {
        const { eventData } = await context.waitForEvent('approval', `go-${context.workflowRunId}`, {
          timeout: '1d',
        });
        return context.run('after', () => eventData);
      },
    },
    '/flaky': {
      fn: async (context) => {
        await context.run('first', () => 'one');
        return context.run('second', () => {
          if (!healthy) throw new Error('not yet');
          return 'two';
        });
      },
    },
  }));
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

async function advance(by: string): Promise<void> {
  const response = await stack.api('POST', '/local/clock/advance', { body: JSON.stringify({ by }) });
  expect(response.status, response.text).toBe(200);
}

const inState = (runId: string, state: string) =>
  runWhen(stack, runId, (log) => log.workflowState === state, `run ${runId} in ${state}`);

it('holds back only the first delivery: once the delay is over every step follows at once', async () => {
  const { workflowRunId } = await app.client.trigger({ url: `${app.url}/steps`, delay: '1h' });
  await settle(200);
  expect(app.hits.get('/steps') ?? 0).toBe(0);
  await advance('1h');
  // Before the fix every later step (and each parallel plan and result) waited another hour: the run never ended.
  const run = await inState(workflowRunId, 'RUN_SUCCESS');
  expect(JSON.parse(run.workflowRunResponse)).toBe(7);
  const steps = run.steps.flatMap((group: any) => group.steps);
  const created = steps.map((step: any) => step.createdAt as number);
  expect(Math.max(...created) - created[1]).toBeLessThan(60_000);
});

it('a notify result is delivered at once in a run triggered with a delay', async () => {
  const { workflowRunId } = await app.client.trigger({ url: `${app.url}/waits`, delay: '1h', body: {} });
  await advance('1h');
  const eventId = `go-${workflowRunId}`;
  await eventually(async () => (await app.client.getWaiters({ eventId })).length > 0, 'the run waits');
  await app.client.notify({ eventId, eventData: 'approved' });
  const run = await inState(workflowRunId, 'RUN_SUCCESS');
  expect(JSON.parse(run.workflowRunResponse)).toBe('approved');
});

it('a run triggered with a delay and resumed from the DLQ goes on at once (no delay given to the resume)', async () => {
  healthy = false;
  const { workflowRunId } = await app.client.trigger({ url: `${app.url}/flaky`, delay: '1h', retries: 0 });
  await advance('1h');
  const failed = await inState(workflowRunId, 'RUN_FAILED');
  healthy = true;
  const resumed = await app.client.dlq.resume({ dlqId: failed.dlqId });
  const run = await inState(resumed.workflowRunId, 'RUN_SUCCESS');
  expect(JSON.parse(run.workflowRunResponse)).toBe('two');
  // A restart's Upstash-Delay still holds back its first delivery, and only that.
  healthy = false;
  const again = (await app.client.trigger({ url: `${app.url}/flaky`, retries: 0 })).workflowRunId;
  const dead = await inState(again, 'RUN_FAILED');
  healthy = true;
  const restarted = await stack.api('POST', `/v2/workflows/dlq/restart?dlqIds=${dead.dlqId}`, {
    headers: { 'Upstash-Delay': '2h' },
  });
  expect(restarted.status, restarted.text).toBe(200);
  const [{ workflowRunId: newRun }] = restarted.json.workflowRuns;
  const hits = app.hits.get('/flaky');
  await advance('1h');
  await settle(200);
  expect(app.hits.get('/flaky')).toBe(hits);
  await advance('1h');
  expect(JSON.parse((await inState(newRun, 'RUN_SUCCESS')).workflowRunResponse)).toBe('two');
});
