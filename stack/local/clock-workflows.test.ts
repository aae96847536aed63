// Workflow timers follow the stack clock: an unmodified serve() app (the vendor SDK) sleeps for 7 days, sleeps
// until a time, and waits for an event with a timeout — and each completes once the clock is advanced.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle, type TestStack } from '../messages/test-support';
import { runLog, runWhen, startStackWithApp, type WorkflowApp } from '../workflows/test-support';

const DAY = 86_400_000;

let stack: TestStack;
let app: WorkflowApp;
/** How many times each route's last step ran (a step running twice would show here). */
const ran = new Map<string, number>();
const count = (name: string) => ran.set(name, (ran.get(name) ?? 0) + 1);

beforeAll(async () => {
  ({ stack, app } = await startStackWithApp({
    '/week': {
      fn: async (context) => {
        await context.run('before', () => 'slept soon');
        await context.sleep('a-week', '7d');
        return context.run('after', () => {
          count('week');
          return 'woke up';
        });
      },
    },
    '/until': {
      fn: async (context) => {
        const until = context.requestPayload as number;
        await context.sleepUntil('until', until);
        return context.run('after', () => {
          count('until');
          return 'morning';
        });
      },
    },
    '/wait': {
      fn: async (context) => {
        const { timeout } = await context.waitForEvent('approval', `never-${context.workflowRunId}`, {
          timeout: '1d',
        });
        return context.run('after', () => {
          count('wait');
          return { timedOut: timeout };
        });
      },
    },
  }));
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

async function advance(by: string): Promise<{ now: number; offsetMs: number }> {
  const response = await stack.api('POST', '/local/clock/advance', { body: JSON.stringify({ by }) });
  expect(response.status, response.text).toBe(200);
  return response.json;
}

function steps(log: Record<string, any>): Record<string, any>[] {
  return log.steps.flatMap((group: { steps: unknown[] }) => group.steps);
}

/** Waits until the run's pending delivery is the named step's message (a sleep waiting for its time). */
function pendingStep(runId: string, stepName: string): Promise<Record<string, any>> {
  return runWhen(stack, runId, (log) => {
    const step = steps(log).find((candidate) => candidate.stepName === stepName);
    const next = log.steps.find((group: any) => group.type === 'next');
    return step !== undefined && next?.steps.some((pending: any) => pending.messageId === step.messageId);
  });
}

const done = (runId: string) => runWhen(stack, runId, (log) => log.workflowState === 'RUN_SUCCESS');

/** The run still waits after the clock moves `early`, and finishes once it moves `rest` more; its log. */
async function finishesOnlyAfter(runId: string, early: string, rest: string) {
  await advance(early);
  await settle(200);
  expect((await runLog(stack, runId)).workflowState).toBe('RUN_STARTED');
  await advance(rest);
  return done(runId);
}

describe('workflow timers on the stack clock', () => {
  it('completes a run that sleeps 7 days once the clock moves 7 days, and its log shows the 7 days', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/week` });
    const sleeping = await pendingStep(workflowRunId, 'a-week');
    expect(sleeping.workflowState).toBe('RUN_STARTED');
    const log = await finishesOnlyAfter(workflowRunId, '6d23h', '1h');
    expect(log.workflowRunCompletedAt - log.workflowRunCreatedAt).toBeGreaterThanOrEqual(7 * DAY);
    expect(log.workflowRunCompletedAt - log.workflowRunCreatedAt).toBeLessThan(7 * DAY + 60_000);
    const byName = new Map<string, any>(steps(log).map((step) => [step.stepName, step]));
    expect(byName.get('a-week')).toMatchObject({ stepType: 'SleepFor', state: 'STEP_SUCCESS' });
    expect(byName.get('after').createdAt - byName.get('before').createdAt).toBeGreaterThanOrEqual(7 * DAY);
    await advance('7d');
    await settle(200);
    expect(ran.get('week')).toBe(1);
  });

  it('wakes a sleepUntil at its time on the stack clock', async () => {
    const clock = (await stack.api('GET', '/local/clock')).json;
    const until = Math.ceil((clock.now + 2 * DAY) / 1000);
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/until`, body: until });
    await pendingStep(workflowRunId, 'until');
    const log = await finishesOnlyAfter(workflowRunId, '1d', '1d1s');
    expect(log.workflowRunCompletedAt).toBeGreaterThanOrEqual(until * 1000);
    expect(ran.get('until')).toBe(1);
  });

  it('times a waitForEvent out when the clock passes its timeout', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/wait` });
    const waiting = await runWhen(stack, workflowRunId, (log) =>
      steps(log).some((step) => step.stepType === 'Wait' && step.waitTimeoutDeadline !== undefined),
    );
    expect(waiting.workflowState).toBe('RUN_STARTED');
    const log = await finishesOnlyAfter(workflowRunId, '23h', '1h');
    expect(JSON.parse(log.workflowRunResponse)).toEqual({ timedOut: true });
    const wait = steps(log).find((step) => step.stepType === 'Wait');
    expect(wait).toMatchObject({ waitTimeout: true });
    expect(ran.get('wait')).toBe(1);
  });
});
