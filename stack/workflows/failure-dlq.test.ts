// Failure, the failure function, the workflow DLQ (list, get, resume, restart, delete, failure-callback
// retry) and cancel, driven by a real serve() app and the vendor's workflow Client.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { WorkflowNonRetryableError } from '@upstash/workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, settle, type TestStack } from '../messages/test-support';
import { failingStep, runLog, runWhen, startStackWithApp, type WorkflowApp } from './test-support';

let stack: TestStack;
let app: WorkflowApp;
const failures: { runId: string; status: number; response: string; payload: unknown }[] = [];
let healthy = false;
let firstStepRuns = 0;
let failureUrlHealthy = false;
/** Calls of /ff-flaky's failure function, by run: it fails its first call of each run. */
const flakyFailureCalls = new Map<string, { failResponse: string; payload: unknown }[]>();
/** While true, the app answers 500 to the deliveries of context.call results (callbacks) of /calls. */
let refuseCallbacks = false;
/** Answers the failure URL /slow-failure's requests once called (a failure callback in flight meanwhile). */
let releaseSlowFailure: () => void = () => undefined;

const state = (runId: string, wanted: string): Promise<Record<string, any>> =>
  runWhen(stack, runId, (log) => log.workflowState === wanted, `run ${runId} in ${wanted}`);

beforeAll(async () => {
  ({ stack, app } = await startStackWithApp(
    {
      '/fails': {
        fn: async (context) => {
          await context.run('first', () => {
            firstStepRuns++;
            return 'one';
          });
          return context.run('second', () => {
            if (!healthy) throw new Error('kaboom');
            return 'two';
          });
        },
        options: {
          failureFunction: async ({ context, failStatus, failResponse }) => {
            failures.push({
              runId: context.workflowRunId,
              status: failStatus,
              response: failResponse,
              payload: context.requestPayload,
            });
            return 'handled';
          },
        },
      },
      '/fatal': { fn: failingStep('fatal', () => new WorkflowNonRetryableError('no point retrying')) },
      '/ff-flaky': {
        fn: failingStep('breaks', () => new Error('step broke')),
        options: {
          failureFunction: async ({ context, failResponse }) => {
            const calls = flakyFailureCalls.get(context.workflowRunId) ?? [];
            calls.push({ failResponse, payload: context.requestPayload });
            flakyFailureCalls.set(context.workflowRunId, calls);
            if (calls.length === 1) throw new Error('failure function down');
            return 'handled';
          },
        },
      },
      '/sleeper': {
        fn: async (context) => {
          await context.sleep('long', 3600);
        },
      },
      '/calls': {
        fn: async (context) => {
          const before = await context.run('before', () => 'b');
          const call = await context.call<string>('echo', {
            url: `${app.url}/echo`,
            method: 'POST',
            body: 'hi',
          });
          return `${before}:${call.status}:${call.body}`;
        },
      },
    },
    {
      '/echo': (_req, body) => ({ status: 200, body: `echo ${body.toString()}` }),
      '/failure-url': () => (failureUrlHealthy ? { status: 200, body: 'ok' } : { status: 500, body: 'down' }),
      '/slow-failure': () =>
        new Promise((resolve) => {
          releaseSlowFailure = () => resolve({ status: 200, body: 'ok' });
        }),
    },
    {
      refuse: (path, headers) =>
        refuseCallbacks && path === '/calls' && 'upstash-workflow-callback' in headers,
    },
  ));
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

describe('failure', () => {
  it('retries exhausted: RUN_FAILED, a DLQ entry, the failure function called with the vendor payload', async () => {
    healthy = false;
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/fails`,
      body: { p: 1 },
      retries: 1,
    });
    const run = await state(workflowRunId, 'RUN_FAILED');
    await eventually(
      async () => (await runLog(stack, workflowRunId)).failureFunction?.state === 'CALLBACK_SUCCESS',
      'failure function done',
    );
    expect(failures.find((f) => f.runId === workflowRunId)).toEqual({
      runId: workflowRunId,
      status: 500,
      response: 'kaboom',
      payload: { p: 1 },
    });
    expect(run.dlqId).toEqual(expect.any(String));
    const next = run.steps.find((group: { type: string }) => group.type === 'next');
    expect(next.steps[0].state).toBe('STEP_FAILED');
    expect(next.steps[0].errors).toHaveLength(2);
    expect(next.steps[0].errors[0]).toMatchObject({ status: 500, time: expect.any(Number) });
    expect(JSON.parse(next.steps[0].errors[0].body).message).toBe('kaboom');
    const final = await runLog(stack, workflowRunId);
    expect(final.failureFunction).toMatchObject({
      state: 'CALLBACK_SUCCESS',
      failStatus: 500,
      failResponse: 'kaboom',
    });
    const listed = await app.client.dlq.list({ filter: { workflowRunId } });
    expect(listed.messages.map((message: any) => message.dlqId)).toEqual([run.dlqId]);
    expect(listed.messages[0]).toMatchObject({
      workflowRunId,
      workflowUrl: `${app.url}/fails`,
      responseStatus: 500,
    });
    const one = await stack.api('GET', `/v2/workflows/dlq/${run.dlqId}`);
    expect(one.json).toMatchObject({ dlqId: run.dlqId, workflowRunId });
    // The body of the failed message, as for any DLQ entry: what it delivered — the run log up to its own entry.
    const [entry] = listed.messages as any[];
    const delivered = JSON.parse(entry.body) as { messageId: string; body: string }[];
    expect(delivered.at(-1)?.messageId).toBe(entry.messageId);
    expect(JSON.parse(Buffer.from(delivered[0]?.body ?? '', 'base64').toString())).toEqual({ p: 1 });
    expect(delivered).toHaveLength(2); // the trigger and step 'first'; 'second' is what failed
  });

  it('Upstash-Redact-Fields: the logs and the DLQ show REDACTED:<sha256> for the redacted body and headers', async () => {
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/fatal`,
      body: { secret: 'hunter2' },
      retries: 0,
      // Values no hash or id can contain by chance ('abc' once matched the tail of a SHA-256 hex digest).
      headers: { 'X-Token': 'token-value-not-hex' },
      redact: { body: true, header: ['X-Token'] },
    });
    const run = await state(workflowRunId, 'RUN_FAILED');
    const init = run.steps[0].steps[0];
    expect(init.out).toMatch(/^REDACTED:[0-9a-f]{64}$/);
    expect(JSON.stringify(run)).not.toContain('hunter2');
    expect(init.headers['X-Token'] ?? init.headers['x-token']).toEqual([expect.stringMatching(/^REDACTED:/)]);
    const [entry] = (await app.client.dlq.list({ filter: { workflowRunId } })).messages as any[];
    expect(entry.body).toMatch(/^REDACTED:[0-9a-f]{64}$/);
    expect(JSON.stringify(entry)).not.toContain('token-value-not-hex');
    expect(entry.responseStatus).toBe(489);
  });

  it('a 489 (WorkflowNonRetryableError) fails the run at once', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/fatal`, retries: 5 });
    const run = await state(workflowRunId, 'RUN_FAILED');
    const next = run.steps.find((group: { type: string }) => group.type === 'next');
    expect(next.steps[0].errors).toHaveLength(1);
    expect(next.steps[0].errors[0].status).toBe(489);
  });

  it('a failing failure URL: CALLBACK_FAIL, then retried from the DLQ to CALLBACK_SUCCESS', async () => {
    failureUrlHealthy = false;
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/fatal`,
      failureUrl: `${app.url}/failure-url`,
      retries: 0,
    });
    const run = await state(workflowRunId, 'RUN_FAILED');
    await eventually(
      async () => (await runLog(stack, workflowRunId)).failureFunction?.state === 'CALLBACK_FAIL',
      'failure callback failed',
    );
    failureUrlHealthy = true;
    const retried = await app.client.dlq.retryFailureFunction({ dlqId: run.dlqId });
    expect(retried).toMatchObject({ workflowRunId });
    await eventually(
      async () => (await runLog(stack, workflowRunId)).failureFunction?.state === 'CALLBACK_SUCCESS',
      'failure callback succeeded',
    );
    const failed = await app.client.dlq.list({
      filter: { failureFunctionState: 'CALLBACK_SUCCESS', workflowRunId },
    });
    expect(failed.messages).toHaveLength(1);
  });
});

describe('the failure function, sent again through the DLQ', () => {
  const failureState = async (runId: string) => (await runLog(stack, runId)).failureFunction?.state;

  it('a failure function that failed is called once more by POST /v2/workflows/dlq/callback/{dlqId}', async () => {
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/ff-flaky`,
      body: { order: 7 },
      retries: 0,
    });
    const run = await state(workflowRunId, 'RUN_FAILED');
    await eventually(async () => (await failureState(workflowRunId)) === 'CALLBACK_FAIL', 'CALLBACK_FAIL');
    expect(flakyFailureCalls.get(workflowRunId)).toHaveLength(1);
    // The vendor client's retryFailureFunction calls the real route.
    const retried = await app.client.dlq.retryFailureFunction({ dlqId: run.dlqId });
    expect(retried).toEqual({ workflowRunId, workflowCreatedAt: run.workflowRunCreatedAt });
    await eventually(
      async () => (await failureState(workflowRunId)) === 'CALLBACK_SUCCESS',
      'CALLBACK_SUCCESS',
    );
    await settle(300);
    const calls = flakyFailureCalls.get(workflowRunId) ?? [];
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual({ failResponse: 'step broke', payload: { order: 7 } });
    // It has succeeded now: asked again, the service refuses (400) and the failure function is not called again.
    const again = await stack.api('POST', `/v2/workflows/dlq/callback/${run.dlqId}`);
    expect(again.status).toBe(400);
    expect(again.json.error).toMatch(/has not failed \(CALLBACK_SUCCESS\)/);
    await settle(300);
    expect(flakyFailureCalls.get(workflowRunId)).toHaveLength(2);
    expect(await failureState(workflowRunId)).toBe('CALLBACK_SUCCESS');
  });

  it('a failure callback still in flight is not sent a second time (400)', async () => {
    const { workflowRunId } = await app.client.trigger({
      url: `${app.url}/fatal`,
      failureUrl: `${app.url}/slow-failure`,
      retries: 0,
    });
    const run = await state(workflowRunId, 'RUN_FAILED');
    await eventually(() => (app.hits.get('/slow-failure') ?? 0) > 0, 'the failure callback in flight');
    const before = app.hits.get('/slow-failure');
    const refused = await stack.api('POST', `/v2/workflows/dlq/callback/${run.dlqId}`);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/has not failed \(CALLBACK_INPROGRESS\)/);
    releaseSlowFailure();
    await eventually(
      async () => (await failureState(workflowRunId)) === 'CALLBACK_SUCCESS',
      'CALLBACK_SUCCESS',
    );
    await settle(300);
    expect(app.hits.get('/slow-failure')).toBe(before);
  });
});

describe('the workflow DLQ', () => {
  it('resume: a new run goes on from the failed step (completed steps are not run again); the failed run links to it', async () => {
    healthy = false;
    firstStepRuns = 0;
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/fails`, retries: 0 });
    const run = await state(workflowRunId, 'RUN_FAILED');
    healthy = true;
    const resumed = await app.client.dlq.resume({ dlqId: run.dlqId, retries: 2 });
    expect(resumed.workflowRunId).toMatch(/^wfr_/);
    expect(resumed.workflowRunId).not.toBe(workflowRunId);
    const done = await state(resumed.workflowRunId, 'RUN_SUCCESS');
    expect(done.workflowRunCreatedAt).toBe(resumed.workflowCreatedAt);
    expect(firstStepRuns).toBe(1);
    expect(JSON.parse(done.workflowRunResponse)).toBe('two');
    // The new run's log holds the completed step, copied from the failed run.
    const stepNames = done.steps.flatMap((group: any) => group.steps.map((step: any) => step.stepName));
    expect(stepNames).toEqual(expect.arrayContaining(['first', 'second']));
    expect(done.history[0]).toMatchObject({
      kind: 'triggered',
      source: 'resume',
      resumedFrom: { workflowRunId, workflowRunCreatedAt: run.workflowRunCreatedAt, dlqId: run.dlqId },
    });
    // The failed run stays failed, out of the DLQ, and names the run that resumed it.
    const old = await state(workflowRunId, 'RUN_FAILED');
    expect(old.dlqId).toBeUndefined();
    expect(old.history.find((event: any) => event.kind === 'resumed')).toMatchObject({
      dlqId: run.dlqId,
      to: { workflowRunId: resumed.workflowRunId, workflowRunCreatedAt: resumed.workflowCreatedAt },
    });
    expect((await app.client.dlq.list({ filter: { workflowRunId } })).messages).toEqual([]);
  });

  it('resume of a run whose call result could not be delivered: the new run gets the result, under its own id', async () => {
    refuseCallbacks = true;
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/calls`, retries: 0 });
    const run = await state(workflowRunId, 'RUN_FAILED');
    expect(app.hits.get('/echo')).toBeGreaterThan(0);
    refuseCallbacks = false;
    const resumed = await app.client.dlq.resume({ dlqId: run.dlqId });
    const done = await state(resumed.workflowRunId, 'RUN_SUCCESS');
    expect(JSON.parse(done.workflowRunResponse)).toBe('b:200:echo hi');
    // The call was not made again: its result came over with the failed run's log.
    expect(app.hits.get('/echo')).toBe(1);
    expect((await runLog(stack, workflowRunId)).workflowState).toBe('RUN_FAILED');
  });

  it('restart by filter in cursor batches: new runs from the start; an unknown filter refused', async () => {
    healthy = false;
    const label = `batch-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await app.client.trigger({ url: `${app.url}/fails`, retries: 0, label, body: { i } })).workflowRunId,
      );
    }
    for (const id of ids) await state(id, 'RUN_FAILED');
    healthy = true;
    // A typo never widens the restart to the whole DLQ (issue 18 item 8).
    const refused = await stack.api('POST', `/v2/workflows/dlq/restart?labeel=${label}`);
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/unknown parameter 'labeel'/);
    const restarted: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await stack.api(
        'POST',
        `/v2/workflows/dlq/restart?label=${label}&count=2${cursor ? `&cursor=${cursor}` : ''}`,
        { headers: { 'Upstash-Retries': '4', 'Upstash-Label': 'restarted' } },
      );
      expect(page.status).toBe(200);
      restarted.push(...page.json.workflowRuns.map((run: any) => run.workflowRunId));
      cursor = page.json.cursor || undefined;
    } while (cursor);
    expect(restarted).toHaveLength(3);
    expect(restarted.some((id) => ids.includes(id))).toBe(false);
    for (const id of restarted) {
      const log = await state(id, 'RUN_SUCCESS');
      expect(log.labels).toEqual(['restarted']);
      expect(log.steps[0].steps[0].retries).toBe(4);
    }
  });

  it('delete: by id, by filter; a filter with a typo is refused', async () => {
    healthy = false;
    const label = `del-${Date.now()}`;
    const a = (await app.client.trigger({ url: `${app.url}/fatal`, label, retries: 0 })).workflowRunId;
    const b = (await app.client.trigger({ url: `${app.url}/fatal`, label, retries: 0 })).workflowRunId;
    const runA = await state(a, 'RUN_FAILED');
    await state(b, 'RUN_FAILED');
    expect(await app.client.dlq.delete(runA.dlqId)).toMatchObject({ deleted: 1 });
    await expect(app.client.dlq.delete({ filter: { labeel: label } } as never)).rejects.toThrow(
      /unknown parameter 'labeel'/,
    );
    const byFilter = await app.client.dlq.delete({ filter: { label } });
    expect(byFilter).toMatchObject({ deleted: 1 });
    expect((await app.client.dlq.list({ filter: { label } })).messages).toEqual([]);
    expect((await runLog(stack, a)).workflowState).toBe('RUN_FAILED');
  });
});

describe('a workflow DLQ entry taken through the message DLQ API', () => {
  it('leaves the workflow DLQ too: deleted, or retried as a message', async () => {
    const label = `msg-api-${Date.now()}`;
    const deleted = (await app.client.trigger({ url: `${app.url}/fatal`, label, retries: 0 })).workflowRunId;
    const retried = (await app.client.trigger({ url: `${app.url}/fatal`, label, retries: 0 })).workflowRunId;
    const deletedRun = await state(deleted, 'RUN_FAILED');
    const retriedRun = await state(retried, 'RUN_FAILED');
    expect((await stack.api('DELETE', `/v2/dlq/${deletedRun.dlqId}`)).status).toBe(200);
    expect((await stack.api('POST', `/v2/dlq/retry/${retriedRun.dlqId}`)).status).toBe(201);

    expect((await app.client.dlq.list({ filter: { label } })).messages).toEqual([]);
    expect((await runLog(stack, deleted)).dlqId).toBeUndefined();
    expect((await runLog(stack, retried)).dlqId).toBeUndefined();
    // Not listed, and not actionable either: the entry is gone, not hidden.
    await expect(app.client.dlq.resume({ dlqId: deletedRun.dlqId })).rejects.toThrow(/not found/i);
  });
});

describe('cancel', () => {
  it('one, by ids, by URL prefix; a filter with a typo is refused', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await app.client.trigger({ url: `${app.url}/sleeper` })).workflowRunId);
    await Promise.all(ids.map((id) => state(id, 'RUN_STARTED')));
    expect(await app.client.cancel({ ids: ids[0] })).toEqual({ cancelled: 1 });
    await expect(app.client.cancel({ filter: { lable: 'x' } } as never)).rejects.toThrow(
      /unknown parameter 'lable'/,
    );
    const byPrefix = await app.client.cancel({ filter: { workflowUrlStartingWith: `${app.url}/sleep` } });
    expect(byPrefix).toEqual({ cancelled: 2 });
    for (const id of ids) await state(id, 'RUN_CANCELED');
    const bad = await stack.api('DELETE', '/v2/workflows/runs?fromDate=yesterday');
    expect(bad.status).toBe(400);
  });

  it('a request that would widen to every run or entry is refused, and nothing is touched', async () => {
    const label = `widen-${Date.now()}`;
    const running = (await app.client.trigger({ url: `${app.url}/sleeper`, label })).workflowRunId;
    const dead = (await app.client.trigger({ url: `${app.url}/fatal`, label, retries: 0 })).workflowRunId;
    await state(running, 'RUN_STARTED');
    await state(dead, 'RUN_FAILED');
    const refused: [string, string, RegExp, string?][] = [
      // An empty filter was taken as no filter at all.
      ['DELETE', '/v2/workflows/runs?workflowRunIds=%2C', /^empty filter 'workflowRunIds' for /],
      ['DELETE', `/v2/workflows/runs?label=${label}&flowControlKey=`, /^empty filter 'flowControlKey' for /],
      ['DELETE', '/v2/workflows/dlq?dlqIds=', /^empty filter 'dlqIds' for /],
      ['POST', '/v2/workflows/dlq/restart?label=%20', /^empty filter 'label' for /],
      // A state other than running was replaced by "running", which every running run matched.
      ['DELETE', '/v2/workflows/runs?state=RUN_FAILED', /takes running runs only/],
      ['DELETE', '/v2/workflows/runs?state=STEP_FAILED', /takes running runs only/],
      // all=false meant all.
      ['DELETE', '/v2/workflows/runs?all=false', /^invalid all 'false' for .*: the only value is true/],
      // A body's ids were ignored, so the request had no filter.
      ['DELETE', '/v2/workflows/dlq', /not in a request body/, '{"dlqIds":["does-not-exist"]}'],
      ['POST', '/v2/workflows/dlq/restart', /not in a request body/, '{"dlqIds":["does-not-exist"]}'],
    ];
    for (const [method, path, error, body] of refused) {
      const response = await stack.api(method, path, body ? { body } : {});
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.json.error, `${method} ${path}`).toMatch(error);
    }
    expect((await runLog(stack, running)).workflowState).toBe('RUN_STARTED');
    expect((await app.client.dlq.list({ filter: { label } })).messages).toHaveLength(1);
    // A state filter that names running runs still narrows.
    const narrowed = await stack.api('DELETE', `/v2/workflows/runs?state=RUN_STARTED&label=${label}`);
    expect(narrowed.json).toEqual({ cancelled: 1 });
    await state(running, 'RUN_CANCELED');
  });

  it('with ids or filters in a JSON body, the older form the Go SDK sends', async () => {
    const byId = (await app.client.trigger({ url: `${app.url}/sleeper` })).workflowRunId;
    const byUrl = (await app.client.trigger({ url: `${app.url}/sleeper?form=body` })).workflowRunId;
    await state(byId, 'RUN_STARTED');
    await state(byUrl, 'RUN_STARTED');
    const cancel = (body: unknown, query = '') =>
      stack.api('DELETE', `/v2/workflows/runs${query}`, { body: JSON.stringify(body) });
    // Refused before anything is cancelled: an unknown field, an empty list, a body beside query filters.
    const typo = await cancel({ workflowRunID: [byId] });
    expect(typo.status).toBe(400);
    expect(typo.json.error).toMatch(/unknown parameter 'workflowRunID'.*JSON body/);
    expect((await cancel({ workflowRunIds: [] })).json.error).toMatch(/^empty filter 'workflowRunIds'/);
    expect((await cancel({ workflowRunIds: [byId] }, `?workflowRunIds=${byUrl}`)).status).toBe(400);
    expect((await runLog(stack, byId)).workflowState).toBe('RUN_STARTED');

    expect((await cancel({ workflowRunIds: [byId] })).json).toEqual({ cancelled: 1 });
    await state(byId, 'RUN_CANCELED');
    expect((await cancel({ workflowUrl: `${app.url}/sleeper?form` })).json).toEqual({ cancelled: 1 });
    await state(byUrl, 'RUN_CANCELED');
  });

  it('by the host and path of the workflow URL (the SDK filter), and all=true cancels every run', async () => {
    const label = `hp-${Date.now()}`;
    const sleeper = (await app.client.trigger({ url: `${app.url}/sleeper`, label })).workflowRunId;
    const other = (await app.client.trigger({ url: `${app.url}/sleeper?v=2`, label })).workflowRunId;
    await state(sleeper, 'RUN_STARTED');
    const host = new URL(app.url).host;
    expect(await app.client.cancel({ filter: { host: 'elsewhere.example', path: '/sleeper' } })).toEqual({
      cancelled: 0,
    });
    expect(await app.client.cancel({ filter: { host, path: '/sleeper', label } })).toEqual({ cancelled: 2 });
    await state(sleeper, 'RUN_CANCELED');
    await state(other, 'RUN_CANCELED');
    expect((await stack.api('DELETE', '/v2/workflows/runs?path=sleeper')).status).toBe(400);
    const another = (await app.client.trigger({ url: `${app.url}/sleeper` })).workflowRunId;
    await state(another, 'RUN_STARTED');
    const all = await stack.api('DELETE', '/v2/workflows/runs?all=true&count=100');
    expect(all.status).toBe(200);
    expect(all.json.cancelled).toBeGreaterThanOrEqual(1);
    await state(another, 'RUN_CANCELED');
  });
});
