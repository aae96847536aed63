// Malformed requests to the workflow endpoints get a 400 (or 401/404) with a JSON error, and change nothing.
/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read as loose JSON */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestStack, type TestStack } from '../messages/test-support';
import { rawHttp } from '../../shared/testing/raw-http';

let stack: TestStack;
const RUN = 'wfr_bad-input-run';

const trigger = (runId: string, extra: Record<string, string> = {}): Promise<{ status: number; json: any }> =>
  stack.api('POST', '/v2/batch', {
    body: JSON.stringify([
      {
        destination: 'http://127.0.0.1:9/wf',
        headers: {
          'upstash-workflow-runid': runId,
          'upstash-workflow-init': 'true',
          'upstash-workflow-sdk-version': '1',
          'upstash-forward-upstash-workflow-sdk-version': '1',
          'upstash-delay': '1d',
          ...extra,
        },
        body: '{"x":1}',
      },
    ]),
  });

beforeAll(async () => {
  stack = await startTestStack();
  expect((await trigger(RUN)).status).toBe(200);
});

afterAll(async () => {
  await stack?.close();
});

async function logSize(): Promise<number> {
  return (await stack.api('GET', `/v2/workflows/runs/${RUN}`)).json.length;
}

describe('bad input', () => {
  it('a second trigger of an active run is deduplicated, not a second run', async () => {
    const again = await trigger(RUN);
    expect(again.status).toBe(200);
    expect(again.json[0].deduplicated).toBe(true);
    expect((await stack.api('GET', `/v2/workflows/logs?workflowRunId=${RUN}`)).json.runs).toHaveLength(1);
  });

  it.each([
    ['a malformed run id', { 'upstash-workflow-runid': 'wfr_bad id!' }, /RunId/],
    ['a bad delay', { 'upstash-delay': 'soon' }, /Delay/],
    ['bad retries', { 'upstash-retries': '-1' }, /Retries/],
    [
      'a bad flow-control value',
      { 'upstash-flow-control-key': 'k', 'upstash-flow-control-value': 'rate=x' },
      /Flow-Control/,
    ],
    ['a bad failure callback', { 'upstash-failure-callback': 'ftp://x' }, /failure callback/],
  ])('a trigger with %s → 400, no run', async (_what, headers, message) => {
    const runId = `wfr_never-${Math.random().toString(36).slice(2)}`;
    const response = await trigger(runId, headers);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatch(message);
    expect((await stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}`)).json.runs).toEqual([]);
  });

  it('DELETE /v2/workflows/runs/{id} without ?cancel cancels the run (the API documents it so), never completes it', async () => {
    const runId = `wfr_bare-delete-${Math.random().toString(36).slice(2)}`;
    expect((await trigger(runId)).status).toBe(200);
    const response = await stack.api('DELETE', `/v2/workflows/runs/${runId}`, { body: '"not a result"' });
    expect(response.status, response.text).toBe(200);
    const [run] = (await stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}`)).json.runs;
    expect(run.workflowState).toBe('RUN_CANCELED');
    expect(run.workflowRunResponse).toBeUndefined();
    const unknown = await stack.api('DELETE', '/v2/workflows/runs/wfr_never-was');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatch(/not found/);
  });

  it('bodies and parameters of the run, wait and notify endpoints', async () => {
    const before = await logSize();
    const cases: [string, string, { body?: string; headers?: Record<string, string> }, number, RegExp][] = [
      ['DELETE', `/v2/workflows/runs/${RUN}?cancel=maybe`, {}, 400, /cancel/],
      ['DELETE', '/v2/workflows/runs/bad%20id?cancel=true', {}, 400, /run id/],
      ['POST', '/v2/wait/evt', { body: '{"url":', headers: { 'upstash-workflow-runid': RUN } }, 400, /JSON/],
      ['POST', '/v2/wait/evt', { body: '[]', headers: { 'upstash-workflow-runid': RUN } }, 400, /object/],
      ['POST', '/v2/wait/evt', { body: '{"url":"http://x","step":{}}' }, 400, /run id/],
      [
        'POST',
        '/v2/wait/evt',
        {
          body: '{"url":"http://x","timeout":"forever","step":{}}',
          headers: { 'upstash-workflow-runid': RUN },
        },
        400,
        /timeout/,
      ],
      [
        'POST',
        '/v2/wait/evt',
        { body: '{"url":"http://x","step":{}}', headers: { 'upstash-workflow-runid': 'wfr_gone' } },
        400,
        /not active/,
      ],
      ['POST', '/v2/notify/wfr_gone/evt', { body: 'x' }, 404, /not found/],
      ['GET', '/v2/workflows/dlq?count=1000', {}, 400, /count/],
      ['GET', '/v2/dlq?source=workflow&failureFunctionState=OK', {}, 400, /failureFunctionState/],
      // Bulk endpoints refuse a parameter they do not know, by name (it would otherwise widen the action).
      ['POST', '/v2/workflows/dlq/resume?workflowRunid=x', {}, 400, /unknown parameter 'workflowRunid'/],
      ['POST', '/v2/workflows/dlq/restart?lable=x&count=10', {}, 400, /unknown parameter 'lable'/],
      ['DELETE', '/v2/workflows/dlq?labeel=x', {}, 400, /unknown parameter 'labeel'/],
      ['DELETE', '/v2/workflows/runs?workflowUrlStartsWith=http://x', {}, 400, /'workflowUrlStartsWith'/],
      ['POST', '/v2/workflows/dlq/restart?dlqIds=nope', {}, 404, /not found/],
      ['POST', '/v2/workflows/dlq/callback/nope', {}, 404, /not found/],
    ];
    for (const [method, path, options, status, message] of cases) {
      const response = await stack.api(method, path, options);
      expect(response.status, `${method} ${path}: ${response.text}`).toBe(status);
      expect(response.json.error, `${method} ${path}`).toMatch(message);
    }
    expect(await logSize()).toBe(before);
    expect(
      (await stack.api('GET', `/v2/workflows/logs?workflowRunId=${RUN}`)).json.runs[0].workflowState,
    ).toBe('RUN_STARTED');
  });

  it('the webhook URL needs no token but an active run', async () => {
    const response = await stack.api('POST', '/v2/workflows/hooks/user/wfr_gone/evt', { auth: false });
    expect(response.status).toBe(404);
    const hit = await stack.api('PUT', `/v2/workflows/hooks/user/${RUN}/evt-early`, {
      auth: false,
      body: 'early',
    });
    expect(hit.status).toBe(200);
    // Any header name a caller sends is kept, those of every object's prototype included (it was a 500).
    const odd = await rawHttp(new URL(stack.url).port, `/v2/workflows/hooks/user/${RUN}/evt-odd`, {
      method: 'POST',
      headers: { constructor: 'c', ['__proto__']: 'p' },
      body: 'odd',
    });
    expect(odd.status, odd.body).toBe(200);
  });

  it('Svc- spelled headers work like Upstash- ones', async () => {
    const runId = 'wfr_svc-spelling';
    const response = await stack.api('POST', '/v2/batch', {
      body: JSON.stringify([
        {
          destination: 'http://127.0.0.1:9/wf',
          headers: {
            'Svc-Workflow-RunId': runId,
            'Svc-Workflow-Init': 'true',
            'Svc-Delay': '1d',
            'Svc-Label': 'svc',
          },
          body: '',
        },
      ]),
    });
    expect(response.status).toBe(200);
    const run = (await stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}`)).json.runs[0];
    expect(run.labels).toEqual(['svc']);
  });
});

describe('a batch mixing workflow and plain messages', () => {
  const workflowItem = (runId: string, extra: Record<string, string> = {}) => ({
    destination: 'http://127.0.0.1:9/wf',
    headers: {
      'upstash-workflow-runid': runId,
      'upstash-workflow-init': 'true',
      'upstash-workflow-sdk-version': '1',
      'upstash-delay': '1d',
      ...extra,
    },
    body: '{"x":1}',
  });
  const plainItem = (path: string, extra: Record<string, unknown> = {}) => ({
    destination: `http://127.0.0.1:9/${path}`,
    headers: { 'upstash-delay': '1d' },
    body: 'plain',
    ...extra,
  });
  const mixed = (items: unknown[]) => stack.api('POST', '/v2/batch', { body: JSON.stringify(items) });
  const runsOf = async (runId: string) =>
    (await stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}`)).json.runs;

  it('publishes both kinds and answers in request order', async () => {
    const runId = `wfr_mixed-${Math.random().toString(36).slice(2)}`;
    const response = await mixed([plainItem('plain-a'), workflowItem(runId), plainItem('plain-b')]);
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json).toHaveLength(3);
    const [first, trigger, last] = response.json;
    expect((await stack.api('GET', `/v2/messages/${first.messageId}`)).json.url).toBe(
      'http://127.0.0.1:9/plain-a',
    );
    expect((await stack.api('GET', `/v2/messages/${last.messageId}`)).json.url).toBe(
      'http://127.0.0.1:9/plain-b',
    );
    const [run] = await runsOf(runId);
    expect(run.steps[0].steps[0].messageId).toBe(trigger.messageId);
  });

  it('commits both kinds in one transaction, so a crash can never keep half of the batch', async () => {
    // Spied, not replaced: every commit still runs; the spy records which calls went into each.
    const commitAll = vi.spyOn(stack.stack.workflows.running()!.writer, 'commitAll');
    let groups: string[][];
    try {
      const runId = `wfr_mixed-${Math.random().toString(36).slice(2)}`;
      const response = await mixed([plainItem('one-a'), workflowItem(runId), plainItem('one-b')]);
      expect(response.status, JSON.stringify(response.json)).toBe(200);
      groups = commitAll.mock.calls.map(([calls]) => calls.map(([name]) => name));
    } finally {
      commitAll.mockRestore();
    }
    expect(groups).toEqual([['wfAppend', 'insertPlanned', 'insertPlanned']]);
  });

  it.each([
    ['a malformed plain item', () => plainItem('never-plain', { destination: 42 }), /item 1/],
    ['a malformed workflow item', () => workflowItem('wfr_x', { 'upstash-delay': 'soon' }), /item 1/],
  ])('%s refuses the whole batch before anything is appended', async (_what, bad, message) => {
    const runId = `wfr_mixed-${Math.random().toString(36).slice(2)}`;
    const marker = `never-${Math.random().toString(36).slice(2)}`;
    const response = await mixed([workflowItem(runId), bad(), plainItem(marker)]);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatch(message);
    expect(await runsOf(runId)).toEqual([]);
    const logs = await stack.api('GET', `/v2/logs?url=${encodeURIComponent(`http://127.0.0.1:9/${marker}`)}`);
    expect(logs.status).toBe(200);
    expect(logs.json.events).toEqual([]);
  });
});
