// GET /v2/workflows/logs and the SDK's client.logs() (/v2/workflows/events?groupBy=workflowRunId): every filter
// of the API description, paging, body trimming, the run record's fields, and 400/401 for bad requests.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestStack } from '../messages/test-support';
import { failingStep, runLog, runWhen, startStackWithApp, type WorkflowApp } from './test-support';

let stack: TestStack;
let app: WorkflowApp;
const label = `logs-${Date.now()}`;
const runs: Record<string, string> = {};
let start = 0;

async function ids(query: string): Promise<string[]> {
  const response = await stack.api('GET', `/v2/workflows/logs?${query}`);
  expect(response.status, response.text).toBe(200);
  return response.json.runs.map((run: any) => run.workflowRunId);
}

beforeAll(async () => {
  ({ stack, app } = await startStackWithApp(
    {
      '/ok': { fn: async (context) => context.run('only', () => ({ big: 'x'.repeat(50) })) },
      '/retrying': { fn: failingStep('always-fails', () => new Error('still broken')) },
      '/parallel-pending': {
        fn: async (context) => {
          await Promise.all([context.run('quick', () => 'q'), context.sleep('slow', 3600)]);
        },
      },
      '/calls': {
        fn: async (context) => {
          const answer = await context.call<string>('ask', {
            url: `${app.url}/echo`,
            method: 'POST',
            body: 'request-body',
          });
          return answer.body;
        },
      },
    },
    { '/echo': () => ({ status: 200, body: 'response-body' }) },
  ));
  start = Date.now();
  runs.ok = (
    await app.client.trigger({ url: `${app.url}/ok`, label: [label, 'ok'], body: 'hello' })
  ).workflowRunId;
  runs.flow = (
    await app.client.trigger({
      url: `${app.url}/ok`,
      label,
      flowControl: { key: `fc-${label}`, parallelism: 2 },
    })
  ).workflowRunId;
  runs.retrying = (
    await app.client.trigger({ url: `${app.url}/retrying`, label, retries: 5, retryDelay: '3600000' })
  ).workflowRunId;
  runs.parallel = (await app.client.trigger({ url: `${app.url}/parallel-pending`, label })).workflowRunId;
  await runWhen(stack, runs.ok, (log) => log.workflowState === 'RUN_SUCCESS', 'ok run');
  await runWhen(stack, runs.flow, (log) => log.workflowState === 'RUN_SUCCESS', 'flow run');
  await runWhen(
    stack,
    runs.retrying,
    (log) => log.steps.some((g: any) => g.type === 'next' && g.steps[0].state === 'STEP_RETRY'),
    'retrying',
  );
  await runWhen(
    stack,
    runs.parallel,
    (log) =>
      log.steps.some(
        (g: any) => g.type === 'parallel' && g.steps.some((s: any) => s.state === 'STEP_SUCCESS'),
      ),
    'parallel',
  );
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

describe('filters', () => {
  it('label (any of, repeated), run state, step state, flow-control key, caller IP', async () => {
    expect(new Set(await ids(`label=${label}`))).toEqual(new Set(Object.values(runs)));
    expect(await ids(`label=ok&label=nope`)).toEqual([runs.ok]);
    expect(new Set(await ids(`label=${label}&state=RUN_SUCCESS`))).toEqual(new Set([runs.ok, runs.flow]));
    expect(await ids(`label=${label}&state=STEP_RETRY`)).toEqual([runs.retrying]);
    expect(await ids(`flowControlKey=fc-${label}`)).toEqual([runs.flow]);
    expect((await ids(`label=${label}&callerIp=127.0.0.1`)).length).toBe(4);
    expect(await ids(`label=${label}&callerIp=10.9.9.9`)).toEqual([]);
  });

  it('workflowUrl (exact), run id, createdAt, workflowRuns, dates inclusive', async () => {
    expect(new Set(await ids(`workflowUrl=${encodeURIComponent(`${app.url}/ok`)}`))).toEqual(
      new Set([runs.ok, runs.flow]),
    );
    expect(await ids(`workflowUrl=${encodeURIComponent(`${app.url}/o`)}`)).toEqual([]);
    const ok = await runLog(stack, runs.ok as string);
    expect(await ids(`workflowRunId=${runs.ok}&workflowCreatedAt=${ok.workflowRunCreatedAt}`)).toEqual([
      runs.ok,
    ]);
    expect(await ids(`workflowRunId=${runs.ok}&workflowCreatedAt=${ok.workflowRunCreatedAt + 1}`)).toEqual(
      [],
    );
    expect(await ids(`workflowRuns=${runs.ok}@${ok.workflowRunCreatedAt}&label=nothing-matches`)).toEqual([
      runs.ok,
    ]);
    expect(
      await ids(`label=${label}&fromDate=${ok.workflowRunCreatedAt}&toDate=${ok.workflowRunCreatedAt}`),
    ).toContain(runs.ok);
    expect(await ids(`label=${label}&toDate=${start - 1}`)).toEqual([]);
  });

  it('count and cursor page through newest first; the SDK client reads the same', async () => {
    const first = await stack.api('GET', `/v2/workflows/logs?label=${label}&count=3`);
    expect(first.json.runs).toHaveLength(3);
    expect(first.json.cursor).not.toBe('');
    const second = await stack.api(
      'GET',
      `/v2/workflows/logs?label=${label}&count=3&cursor=${first.json.cursor}`,
    );
    expect(second.json.runs).toHaveLength(1);
    expect(second.json.cursor).toBe('');
    const all = [...first.json.runs, ...second.json.runs].map((run: any) => run.workflowRunId);
    expect(all).toEqual([runs.parallel, runs.retrying, runs.flow, runs.ok]);
    const viaSdk = await app.client.logs({ filter: { label }, count: 2 } as any);
    expect(viaSdk.runs.map((run: any) => run.workflowRunId)).toEqual([runs.parallel, runs.retrying]);
  });
});

describe('the run record', () => {
  it('outputs always, as the SDK reads them (client.logs() sends no trimBody); every step field', async () => {
    // Issue 18 item 7: apps read step results from `out` and the run's result from workflowRunResponse.
    const viaSdk = (await app.client.logs({ workflowRunId: runs.ok })).runs[0] as any;
    expect(viaSdk.steps[0].steps[0].out).toBe('hello');
    expect(viaSdk.steps[1].steps[0].out).toBe(JSON.stringify({ big: 'x'.repeat(50) }));
    expect(JSON.parse(viaSdk.workflowRunResponse)).toEqual({ big: 'x'.repeat(50) });
    // Every step shows the headers its delivery carried and a retry delay (the default backoff here).
    for (const step of viaSdk.steps.flatMap((group: any) => group.steps)) {
      expect(step.headers, step.stepName).toMatchObject({ 'Upstash-Workflow-Sdk-Version': ['1'] });
      expect(step.retryDelay, step.stepName).toMatch(
        /^min\(86400000, 1000 \* exp\([\d.]+ \* \(retried \+ 1\)\)\)$/,
      );
    }
    const full = await runLog(stack, runs.ok as string);
    expect(full).toMatchObject({
      workflowRunId: runs.ok,
      workflowState: 'RUN_SUCCESS',
      workflowUrl: `${app.url}/ok`,
      workflowRunCallerIp: '127.0.0.1',
      label,
      labels: [label, 'ok'],
    });
    expect(full.steps[1].steps[0]).toMatchObject({
      stepId: 1,
      stepName: 'only',
      stepType: 'Run',
      callType: 'step',
      state: 'STEP_SUCCESS',
      concurrent: 1,
      retries: 3,
      messageId: expect.stringMatching(/^msg_/),
      createdAt: expect.any(Number),
    });
    expect((await runLog(stack, runs.flow as string)).flowControlKey).toBe(`fc-${label}`);
  });

  it('trimBody cuts the request and response bodies (and leaves them out by default), never outputs', async () => {
    const runId = (await app.client.trigger({ url: `${app.url}/calls` })).workflowRunId;
    await runWhen(stack, runId, (log) => log.workflowState === 'RUN_SUCCESS', 'call run');
    const callStep = async (query: string): Promise<any> => {
      const response = await stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}${query}`);
      const run = response.json.runs[0];
      return {
        run,
        call: run.steps.flatMap((group: any) => group.steps).find((s: any) => s.stepType === 'Call'),
      };
    };
    const plain = await callStep('');
    expect(plain.call.callBody).toBeUndefined();
    expect(plain.call.callResponseBody).toBeUndefined();
    expect(JSON.parse(plain.call.out)).toMatchObject({ status: 200, body: 'response-body' });
    expect(JSON.parse(plain.run.workflowRunResponse)).toBe('response-body');
    const cut = await callStep('&trimBody=3');
    expect([cut.call.callBody, cut.call.callResponseBody]).toEqual(['req', 'res']);
    expect(JSON.parse(cut.call.out)).toMatchObject({ body: 'response-body' });
    // A failed attempt's response body is a body too; its errors are listed either way.
    const retrying = (await app.client.logs({ workflowRunId: runs.retrying })).runs[0] as any;
    const next = retrying.steps.find((group: any) => group.type === 'next').steps[0];
    expect(next.errors.length).toBeGreaterThan(0);
    expect(next.errors[0]).toMatchObject({ status: 500, body: '' });
  });

  it('a retrying step: the next group with its errors, retry delay and next delivery time', async () => {
    const log = await runLog(stack, runs.retrying as string);
    const next = log.steps.find((group: any) => group.type === 'next').steps[0];
    expect(next).toMatchObject({
      state: 'STEP_RETRY',
      retries: 5,
      retryDelay: '3600000',
      stepName: 'always-fails',
    });
    expect(next.nextDeliveryTime).toBeGreaterThan(Date.now() + 3_000_000);
    expect(next.errors[0]).toMatchObject({
      status: 500,
      headers: expect.any(Object),
      time: expect.any(Number),
    });
    expect(JSON.parse(next.errors[0].body).message).toBe('still broken');
  });

  it('a parallel group with one branch done and one in progress', async () => {
    const log = await runLog(stack, runs.parallel as string);
    const group = log.steps.find((g: any) => g.type === 'parallel');
    expect(group.steps.map((step: any) => [step.stepName, step.state])).toEqual([
      ['quick', 'STEP_SUCCESS'],
      ['slow', 'STEP_PROGRESS'],
    ]);
    expect(group.steps[1]).toMatchObject({ stepType: 'SleepFor', sleepFor: 3600, concurrent: 2 });
  });
});

describe('event mode (/v2/workflows/events without groupBy)', () => {
  async function events(query: string): Promise<{ cursor: string; events: any[] }> {
    const response = await stack.api('GET', `/v2/workflows/events?${query}`);
    expect(response.status, response.text).toBe(200);
    return response.json;
  }

  it('lists every step of the filtered runs flat, newest run first, each with its run', async () => {
    const all = await events(`label=${label}`);
    expect(all.cursor).toBe('');
    const runOrder = [...new Set(all.events.map((event) => event.workflowRunId))];
    expect(runOrder).toEqual([runs.parallel, runs.retrying, runs.flow, runs.ok]);
    const ok = all.events.filter((event) => event.workflowRunId === runs.ok);
    expect(ok.map((event) => [event.stepType, event.stepName, event.state, event.groupType])).toEqual([
      ['Initial', 'init', 'STEP_SUCCESS', 'sequential'],
      ['Run', 'only', 'STEP_SUCCESS', 'sequential'],
    ]);
    expect(ok[0]).toMatchObject({ workflowUrl: `${app.url}/ok`, workflowState: 'RUN_SUCCESS' });
    expect(typeof ok[0].workflowRunCreatedAt).toBe('number');
    // The same events as run mode holds, none lost or added by flattening.
    const asRuns = await stack.api('GET', `/v2/workflows/logs?label=${label}`);
    const stepCount = asRuns.json.runs.reduce(
      (sum: number, run: any) => sum + run.steps.reduce((n: number, group: any) => n + group.steps.length, 0),
      0,
    );
    expect(all.events).toHaveLength(stepCount);
  });

  it('pages by count with a cursor that can end inside a run, without repeats or gaps', async () => {
    const all = (await events(`label=${label}`)).events.map(
      (event) => `${event.workflowRunId}/${event.messageId}`,
    );
    for (const count of [1, 2, 3]) {
      const paged: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const page = await events(`label=${label}&count=${count}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.events.length).toBeLessThanOrEqual(count);
        paged.push(...page.events.map((event) => `${event.workflowRunId}/${event.messageId}`));
        cursor = page.cursor;
        pages += 1;
      } while (cursor !== '' && pages < 100);
      expect(paged).toEqual(all);
    }
  });

  it('a step state keeps only the events in that state', async () => {
    const retrying = await events(`label=${label}&state=STEP_RETRY`);
    expect(retrying.events.length).toBeGreaterThan(0);
    expect(retrying.events.every((event) => event.state === 'STEP_RETRY')).toBe(true);
    expect(new Set(retrying.events.map((event) => event.workflowRunId))).toEqual(new Set([runs.retrying]));
  });

  it.each([
    ['count=1001', /count/],
    ['cursor=12', /cursor/],
    ['cursor=1-x', /cursor/],
  ])('%s → 400 with a JSON error', async (query, message) => {
    const response = await stack.api('GET', `/v2/workflows/events?${query}`);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatch(message);
  });
});

describe('bad requests', () => {
  it.each([
    ['cursor=abc', /cursor/],
    ['state=RUNNING', /state/],
    ['groupBy=messageId', /groupBy/],
    ['count=0', /count/],
    ['count=11', /count/],
    ['count=ten', /count/],
    ['fromDate=yesterday', /fromDate/],
    ['trimBody=-2', /trimBody/],
    ['workflowUrl=ftp://x', /workflowUrl/],
    ['workflowRuns=no-at-sign', /workflowRuns/],
  ])('%s → 400 with a JSON error', async (query, message) => {
    // /v2/workflows/events answers in event mode without groupBy (its count allows 1000): ask for run mode.
    for (const path of ['/v2/workflows/logs?', '/v2/workflows/events?groupBy=workflowRunId&']) {
      const response = await stack.api('GET', `${path}${query}`);
      expect(response.status).toBe(400);
      expect(response.json.error).toMatch(message);
    }
  });

  it('no token → 401', async () => {
    const response = await stack.api('GET', '/v2/workflows/logs', { auth: false });
    expect(response.status).toBe(401);
    expect(response.json.error).toEqual(expect.any(String));
  });
});
