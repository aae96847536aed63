// A step published twice is logged once and delivered once (issue 18 item 1, the reproduction without a
// crash): the workflow SDK's HTTP client publishes again after a connection reset, and a delivery that was
// in flight at a crash runs its step again. The second publish is answered as a duplicate — the id of the
// entry that was there first and `deduplicated: true` — and neither forks the run nor calls a third party
// twice. (crash-duplicates.test.ts checks the same across kill -9 with a real serve() app.)
/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read as loose JSON */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { settle, startSink, startTestStack, type Sink, type TestStack } from '../messages/test-support';

let stack: TestStack;
let sink: Sink;

beforeAll(async () => {
  stack = await startTestStack();
  sink = await startSink();
});

afterAll(async () => {
  await stack?.close();
  await sink?.close();
});

beforeEach(() => {
  sink.received.length = 0;
});

let runs = 0;

/** The headers the SDK publishes a step of run `runId` with. */
function stepHeaders(runId: string): Record<string, string> {
  return {
    'upstash-workflow-runid': runId,
    'upstash-workflow-init': 'false',
    'upstash-workflow-url': `${sink.url}/wf`,
    'upstash-workflow-sdk-version': '1',
    'upstash-forward-upstash-workflow-sdk-version': '1',
    'upstash-feature-set': 'LazyFetch,InitialBody,WF_DetectTrigger,WF_TriggerOnConfig',
    'upstash-method': 'POST',
    'content-type': 'application/json',
  };
}

function batch(items: { headers: Record<string, string>; body: string; destination?: string }[]) {
  return stack.api('POST', '/v2/batch', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(items.map((item) => ({ destination: `${sink.url}/wf`, ...item }))),
  });
}

/** Starts a run whose deliveries go to the sink; resolves once its trigger was delivered. */
async function startRun(): Promise<string> {
  const runId = `wfr_dup-${++runs}-${Math.random().toString(36).slice(2)}`;
  const started = await batch([
    { headers: { ...stepHeaders(runId), 'upstash-workflow-init': 'true' }, body: '{"n":1}' },
  ]);
  expect(started.status).toBe(200);
  await sink.waitFor(1, { match: (r) => r.headers['upstash-workflow-runid'] === runId });
  return runId;
}

const step = (stepId: number, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    stepId,
    stepName: `s${stepId}`,
    stepType: 'Run',
    out: `"${stepId}"`,
    concurrent: 1,
    ...extra,
  });

/** Deliveries the sink got for a run, by message id. */
function deliveries(runId: string, path = '/wf'): string[] {
  return sink.received
    .filter((r) => r.url === path && r.headers['upstash-workflow-runid'] === runId)
    .map((r) => r.headers['upstash-message-id'] as string);
}

async function lazyFetch(runId: string): Promise<any[]> {
  const response = await stack.api('GET', `/v2/workflows/runs/${runId}`);
  expect(response.status).toBe(200);
  return response.json;
}

it('a step sent twice in /v2/batch is logged and delivered once; the second answer is deduplicated', async () => {
  const runId = await startRun();
  const first = await batch([{ headers: stepHeaders(runId), body: step(1) }]);
  const second = await batch([{ headers: stepHeaders(runId), body: step(1) }]);
  expect(first.status).toBe(200);
  expect(first.json[0].deduplicated).toBeUndefined();
  expect(second.status).toBe(200);
  expect(second.json).toEqual([{ ...first.json[0], deduplicated: true }]);

  // Sent twice at once (a retry racing its original): still one entry.
  const racing = await Promise.all([
    batch([{ headers: stepHeaders(runId), body: step(2) }]),
    batch([{ headers: stepHeaders(runId), body: step(2) }]),
  ]);
  const answers = racing.map((response) => response.json[0]);
  expect(answers.filter((item) => item.deduplicated === true)).toHaveLength(1);
  expect(new Set(answers.map((item) => item.messageId)).size).toBe(1);

  const log = await lazyFetch(runId);
  expect(log).toHaveLength(3);
  // Trigger, step 1 and step 2: three deliveries, each of its own message, and no fourth one.
  await sink.waitFor(3, { match: (r) => r.headers['upstash-workflow-runid'] === runId });
  await settle(300);
  const delivered = deliveries(runId);
  expect(delivered).toHaveLength(3);
  expect(new Set(delivered).size).toBe(3);
});

it('the single-publish form of a duplicate step answers 202 deduplicated', async () => {
  const runId = await startRun();
  const publish = () =>
    stack.api('POST', `/v2/publish/${sink.url}/wf`, { headers: stepHeaders(runId), body: step(1) });
  const first = await publish();
  const second = await publish();
  expect(first.status).toBe(200);
  expect(second.status).toBe(202);
  expect(second.json).toEqual({ messageId: first.json.messageId, url: `${sink.url}/wf`, deduplicated: true });
  expect(await lazyFetch(runId)).toHaveLength(2);
});

it('parallel plans and results sent twice: one entry per plan (by target) and per result', async () => {
  const runId = await startRun();
  const plans = [2, 3].map((target) => ({
    headers: stepHeaders(runId),
    body: step(0, { stepName: `p${target}`, concurrent: 2, targetStep: target, out: undefined }),
  }));
  const first = await batch(plans);
  const again = await batch(plans);
  expect(again.json).toEqual(first.json.map((item: any) => ({ ...item, deduplicated: true })));
  const result = { headers: stepHeaders(runId), body: step(2, { concurrent: 2 }) };
  // A batch holding the same result twice logs it once.
  const doubled = await batch([result, result]);
  expect(doubled.json[1]).toEqual({ ...doubled.json[0], deduplicated: true });
  expect(await lazyFetch(runId)).toHaveLength(4);
});

it('a context.call published twice calls the third party once', async () => {
  const runId = await startRun();
  const call = {
    destination: `${sink.url}/third-party`,
    headers: {
      'upstash-workflow-runid': runId,
      'upstash-workflow-calltype': 'toCallback',
      'upstash-workflow-init': 'false',
      'upstash-method': 'POST',
      'upstash-retries': '0',
      'upstash-callback': `${sink.url}/wf`,
      'upstash-callback-workflow-runid': runId,
      'upstash-callback-workflow-calltype': 'fromCallback',
      'upstash-callback-workflow-init': 'false',
      'upstash-callback-forward-upstash-workflow-callback': 'true',
      'upstash-callback-forward-upstash-workflow-stepid': '4',
      'upstash-callback-forward-upstash-workflow-stepname': 'call',
      'upstash-callback-forward-upstash-workflow-steptype': 'Call',
      'upstash-callback-forward-upstash-workflow-concurrent': '1',
    },
    body: '{"ask":1}',
  };
  const first = await batch([call]);
  expect(first.json[0].url).toBe(`${sink.url}/third-party`);
  const second = await batch([call]);
  expect(second.json).toEqual([{ ...first.json[0], deduplicated: true }]);
  // The call's callback reaches the run: by then the call has been made, and made once.
  await sink.waitFor(2, { match: (r) => r.headers['upstash-workflow-runid'] === runId && r.url === '/wf' });
  await settle(300);
  expect(sink.received.filter((r) => r.url === '/third-party')).toHaveLength(1);
});
