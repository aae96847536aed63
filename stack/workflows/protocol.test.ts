// Compatibility: an unmodified serve() app (the vendor SDK, verifying every signature) runs every step type
// end to end against the stack, and the vendor's Client reads the result.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TestStack } from '../messages/test-support';
import { failingStep, runLog, runWhen, startStackWithApp, type WorkflowApp } from './test-support';

let stack: TestStack;
let app: WorkflowApp;
const thirdParty: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
let flaky = 0;
/** A child workflow that always fails (invoked by /parent-of-failing). */
const failingChild = failingStep('explode', () => new Error('child broke'));

/** Waits until the run is in `state`; a run that ends in another state fails the wait at once. */
function finished(runId: string, state = 'RUN_SUCCESS'): Promise<Record<string, any>> {
  return runWhen(
    stack,
    runId,
    (log) => {
      if (log.workflowState !== 'RUN_STARTED' && log.workflowState !== state) {
        throw new Error(`run ended in ${log.workflowState}: ${JSON.stringify(log)}`);
      }
      return log.workflowState === state;
    },
    `run ${runId} in ${state}`,
  );
}

/** Starts a run of /wait under a fresh id and answers the id once the run waits for its event. */
async function waitingRun(name: string): Promise<string> {
  const runId = `wfr_${name}-${Date.now()}`;
  await app.client.trigger({ url: `${app.url}/wait`, workflowRunId: runId.slice(4) });
  await eventually(
    async () => (await app.client.getWaiters({ eventId: `evt-${runId}` })).length > 0,
    'waiter',
  );
  return runId;
}

function flat(log: Record<string, any>): Record<string, any>[] {
  return log.steps.flatMap((group: { steps: unknown[] }) => group.steps);
}

beforeAll(async () => {
  ({ stack, app } = await startStackWithApp(
    {
      '/steps': {
        fn: async (context) => {
          const a = await context.run('a', () => 1);
          const [b, c] = await Promise.all([context.run('b', () => 2), context.run('c', () => 3)]);
          // A duration string: the logs give it in seconds, a number, as the vendors type the field.
          await context.sleep('nap', '1s');
          await context.sleepUntil('until', Math.floor(Date.now() / 1000));
          return { a, b, c, payload: context.requestPayload, header: context.headers.get('x-user') };
        },
      },
      '/call': {
        fn: async (context) => {
          const response = await context.call('external', {
            url: `${app.url}/third-party`,
            method: 'POST',
            body: JSON.stringify({ q: 1 }),
            headers: { 'x-call': 'yes' },
            retries: 2,
          });
          return { status: response.status, body: response.body };
        },
      },
      '/wait': {
        fn: async (context) => {
          const event = await context.waitForEvent('wait-event', `evt-${context.workflowRunId}`, {
            timeout: '30s',
          });
          const late = await context.waitForEvent('short', `never-${context.workflowRunId}`, { timeout: 1 });
          return { data: event.eventData, timeout: event.timeout, lateTimeout: late.timeout };
        },
      },
      '/parent': {
        fn: async (context) => {
          const result = await context.invoke('call-child', {
            workflow: { routeFunction: childFn, options: {}, workflowId: 'child' },
            body: { n: 20 },
          });
          return { child: result.body, isFailed: result.isFailed, isCanceled: result.isCanceled };
        },
      },
      '/child': { fn: childFn },
      '/parent-of-failing': {
        fn: async (context) => {
          const result = await context.invoke('call-failing-child', {
            workflow: { routeFunction: failingChild, options: {}, workflowId: 'failing-child' },
            body: {},
            retries: 0,
          });
          return { isFailed: result.isFailed, isCanceled: result.isCanceled };
        },
      },
      '/failing-child': { fn: failingChild },
      '/notifier': {
        fn: async (context) => {
          const { eventId } = context.requestPayload as { eventId: string };
          const result = await context.notify('tell', eventId, { from: 'notifier' });
          return { notified: Array.isArray(result.notifyResponse) ? result.notifyResponse.length : -1 };
        },
      },
      '/hook': {
        fn: async (context) => {
          const hook = await context.createWebhook('make-hook');
          await context.run('use-hook', async () => {
            await fetch(hook.webhookUrl, { method: 'POST', body: 'hooked!', headers: { 'x-hook': 'h' } });
          });
          const hit = await context.waitForWebhook('wait-hook', hook, '30s');
          return { timeout: hit.timeout, body: hit.request ? await hit.request.text() : null };
        },
      },
      '/cancel-inside': {
        fn: async (context) => {
          await context.run('before', () => 'x');
          await context.cancel();
          await context.run('never', () => 'y');
        },
      },
      '/retry-after': {
        fn: async (context) => {
          await context.run('flaky', () => {
            flaky++;
            if (flaky === 1) {
              // eslint-disable-next-line @typescript-eslint/no-require-imports
              const { WorkflowRetryAfterError } = require('@upstash/workflow');
              throw new WorkflowRetryAfterError('later', 1);
            }
            return flaky;
          });
        },
      },
    },
    {
      '/third-party': (req, body) => {
        thirdParty.push({ headers: req.headers, body: body.toString() });
        // The first attempt fails: the call retries on its own settings, the run does not fail.
        if (thirdParty.length === 1) return { status: 503, body: 'busy' };
        return { status: 201, headers: { 'x-answer': '42' }, body: 'called back' };
      },
    },
  ));
});

async function childFn(context: any): Promise<unknown> {
  const doubled = await context.run('double', () => (context.requestPayload as { n: number }).n * 2);
  return { doubled };
}

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

describe('step types', () => {
  it('Run, parallel, SleepFor and SleepUntil: right result, trigger settings on every step, grouped log', async () => {
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/steps`,
      body: { hello: 'world' },
      headers: { 'x-user': 'ada' },
      retries: 2,
      label: 'first',
    });
    const run = await finished(workflowRunId);
    expect(JSON.parse(run.workflowRunResponse)).toEqual({
      a: 1,
      b: 2,
      c: 3,
      payload: { hello: 'world' },
      header: 'ada',
    });
    expect(run.steps.map((group: { type: string }) => group.type)).toEqual([
      'sequential',
      'sequential',
      'parallel',
      'sequential',
      'sequential',
    ]);
    expect(
      run.steps[2].steps.map((step: { stepName: string; out: string }) => [step.stepName, step.out]),
    ).toEqual([
      ['b', '2'],
      ['c', '3'],
    ]);
    expect(run.steps[3].steps[0]).toMatchObject({ stepType: 'SleepFor', sleepFor: 1, state: 'STEP_SUCCESS' });
    expect(run.steps[4].steps[0]).toMatchObject({ stepType: 'SleepUntil', state: 'STEP_SUCCESS' });
    expect(run).toMatchObject({ labels: ['first'], label: 'first', workflowUrl: `${app.url}/steps` });
    expect(run.steps[0].steps[0]).toMatchObject({
      stepType: 'Initial',
      out: '{"hello":"world"}',
      retries: 2,
    });
    expect(run.workflowRunCompletedAt).toBeGreaterThanOrEqual(run.workflowRunCreatedAt);
  });

  it('Call: third-party delivery with its own retries, no trigger headers, result folded into the Call step', async () => {
    thirdParty.length = 0;
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/call`,
      headers: { 'x-user': 'not-for-third-party' },
    });
    const run = await finished(workflowRunId);
    expect(JSON.parse(run.workflowRunResponse)).toEqual({ status: 201, body: 'called back' });
    expect(thirdParty).toHaveLength(2);
    expect(thirdParty[1]?.body).toBe('{"q":1}');
    expect(thirdParty[1]?.headers['x-call']).toBe('yes');
    expect(thirdParty[1]?.headers['x-user']).toBeUndefined();
    expect(thirdParty[1]?.headers['upstash-workflow-sdk-version']).toBeUndefined();
    const call = flat(run).find((step) => step.stepType === 'Call');
    expect(call).toMatchObject({
      stepName: 'external',
      callUrl: `${app.url}/third-party`,
      callMethod: 'POST',
      callBody: '{"q":1}',
      callResponseStatus: 201,
      callResponseBody: 'called back',
    });
    expect(call?.callResponseHeaders['x-answer']).toEqual(['42']);
  });

  it('Wait + Notify (client.notify), waiters, and a wait timeout', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/wait` });
    const eventId = `evt-${workflowRunId}`;
    const waiters = await eventually(async () => {
      const list = await app.client.getWaiters({ eventId });
      return list.length > 0 ? list : undefined;
    }, 'a waiter');
    expect(waiters[0]).toMatchObject({ url: `${app.url}/wait` });
    expect(waiters[0]?.deadline).toBeGreaterThan(Date.now() / 1000);
    const notified = await app.client.notify({ eventId, eventData: { ok: true } });
    expect(notified).toHaveLength(1);
    // A served waiter carries no `error` (the Go SDK fails to parse a string there, even an empty one).
    expect(notified[0]).toMatchObject({ waiter: { url: `${app.url}/wait` }, messageId: expect.any(String) });
    expect(notified[0]).not.toHaveProperty('error');
    const run = await finished(workflowRunId);
    expect(JSON.parse(run.workflowRunResponse)).toEqual({
      data: { ok: true },
      timeout: false,
      lateTimeout: true,
    });
    const waits = flat(run).filter((step) => step.stepType === 'Wait');
    expect(waits.map((step) => [step.waitEventId, step.waitTimeout])).toEqual([
      [eventId, false],
      [`never-${workflowRunId}`, true],
    ]);
    expect(await app.client.getWaiters({ eventId })).toEqual([]);
  });

  it('a run-scoped notify before the wait is kept for it (lookback)', async () => {
    const runId = `wfr_lookback-${Date.now()}`;
    // The run exists from its trigger; its first wait comes after the notify lands.
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/wait`,
      workflowRunId: runId.slice(4),
      delay: 1,
    });
    expect(workflowRunId).toBe(runId);
    const response = await stack.api('POST', `/v2/notify/${runId}/evt-${runId}`, { body: '"early"' });
    expect(response.status).toBe(200);
    const run = await finished(runId);
    expect(JSON.parse(run.workflowRunResponse)).toMatchObject({ data: 'early', timeout: false });
  });

  it('Invoke: the child records its invoker, the parent gets the result', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/parent` });
    const parent = await finished(workflowRunId);
    expect(JSON.parse(parent.workflowRunResponse)).toEqual({
      child: { doubled: 40 },
      isFailed: false,
      isCanceled: false,
    });
    const invoke = flat(parent).find((step) => step.stepType === 'Invoke');
    expect(invoke?.invokedWorkflowUrl).toBe(`${app.url}/child`);
    const child = await finished(invoke?.invokedWorkflowRunId as string);
    expect(child.invoker).toEqual({
      workflowRunId,
      workflowUrl: `${app.url}/parent`,
      workflowRunCreatedAt: parent.workflowRunCreatedAt,
    });
  });

  it('Invoke of a child that fails: the parent gets isFailed', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/parent-of-failing` });
    const parent = await finished(workflowRunId);
    expect(JSON.parse(parent.workflowRunResponse)).toEqual({ isFailed: true, isCanceled: false });
  });

  it('Notify step (context.notify) wakes another run', async () => {
    const waiting = await app.client.trigger({ url: `${app.url}/wait` });
    const eventId = `evt-${waiting.workflowRunId}`;
    await eventually(async () => (await app.client.getWaiters({ eventId })).length > 0, 'a waiter');
    const notifier = await app.client.trigger({ url: `${app.url}/notifier`, body: { eventId } });
    const run = await finished(notifier.workflowRunId);
    expect(JSON.parse(run.workflowRunResponse)).toEqual({ notified: 1 });
    expect(flat(run).find((step) => step.stepType === 'Notify')?.stepName).toBe('tell');
    const woken = await finished(waiting.workflowRunId);
    expect(JSON.parse(woken.workflowRunResponse).data).toEqual({ from: 'notifier' });
  });

  it('CreateWebhook / WaitForWebhook: a call to the hook URL (no token) reaches the run', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/hook` });
    const run = await finished(workflowRunId);
    expect(JSON.parse(run.workflowRunResponse)).toEqual({ timeout: false, body: 'hooked!' });
  });

  it('cancel from inside: RUN_CANCELED, later steps never run', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/cancel-inside` });
    const run = await finished(workflowRunId, 'RUN_CANCELED');
    expect(flat(run).map((step) => step.stepName)).toEqual(['init', 'before']);
  });

  it('WorkflowRetryAfterError: the step is retried after the delay it asked for and the run succeeds', async () => {
    flaky = 0;
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/retry-after` });
    const run = await finished(workflowRunId);
    expect(flaky).toBe(2);
    expect(flat(run).find((step) => step.stepName === 'flaky')?.out).toBe('2');
  });

  it('a direct POST to the endpoint starts a run (the SDK re-triggers it)', async () => {
    const response = await fetch(`${app.url}/steps`, { method: 'POST', body: '{"direct":1}' });
    // Signing keys are set, so the SDK refuses an unsigned first call: exactly what the vendor's SDK does.
    expect(response.status).toBe(500);
  });
});

describe('answers the SDK depends on', () => {
  it('400 (not 404) for a step published to a finished, cancelled or unknown run', async () => {
    const step = (runId: string): Promise<{ status: number; json: any }> =>
      stack.api('POST', '/v2/batch', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          {
            destination: `${app.url}/steps`,
            headers: {
              'upstash-workflow-runid': runId,
              'upstash-workflow-init': 'false',
              'upstash-workflow-sdk-version': '1',
            },
            body: JSON.stringify({ stepId: 9, stepName: 'x', stepType: 'Run', out: '1', concurrent: 1 }),
          },
        ]),
      });
    const unknown = await step('wfr_never-existed');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatch(/not active/);
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/cancel-inside` });
    await finished(workflowRunId, 'RUN_CANCELED');
    expect((await step(workflowRunId)).status).toBe(400);
    // Finishing it again succeeds and changes nothing (issue 18 item 11: the SDK expects success).
    const done = await stack.api('DELETE', `/v2/workflows/runs/${workflowRunId}?cancel=false`, {
      body: '"again"',
    });
    expect(done.status).toBe(200);
    const log = await runLog(stack, workflowRunId);
    expect(log.workflowState).toBe('RUN_CANCELED');
    expect(log.workflowRunResponse).toBeUndefined();
    expect((await stack.api('GET', `/v2/workflows/runs/${workflowRunId}`)).status).toBe(404);
  });

  it('lazy fetch returns the whole log of an active run', async () => {
    const runId = await waitingRun('lazy');
    const response = await stack.api('GET', `/v2/workflows/runs/${runId}`);
    expect(response.status).toBe(200);
    expect(response.json[0]).toMatchObject({ callType: 'step' });
    expect(Buffer.from(response.json[0].body, 'base64').toString()).toBe('');
    await app.client.cancel({ ids: runId });
    await finished(runId, 'RUN_CANCELED');
  });

  it('a batch is checked whole: one bad item and nothing is appended', async () => {
    const runId = await waitingRun('batch');
    const before = (await stack.api('GET', `/v2/workflows/runs/${runId}`)).json.length;
    const item = (headers: Record<string, string>) => ({
      destination: `${app.url}/wait`,
      headers: { 'upstash-workflow-runid': runId, 'upstash-workflow-init': 'false', ...headers },
      body: '{"stepId":0,"stepName":"p","stepType":"Run","concurrent":2,"targetStep":5}',
    });
    const response = await stack.api('POST', '/v2/batch', {
      body: JSON.stringify([item({}), item({ 'upstash-delay': 'soon' })]),
    });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatch(/batch item 1/);
    expect((await stack.api('GET', `/v2/workflows/runs/${runId}`)).json.length).toBe(before);
    await app.client.cancel({ ids: runId });
  });
});
