// Concurrent actions on the workflow DLQ act on each entry once (issue 18 item 2): two restarts (by filter,
// by dlqIds, or /restart/{dlqId}) sent at the same time restart each failed run once, and so do resume,
// delete, restart racing resume, and the failure-callback retry. Requests go out truly at once
// (Promise.all over real HTTP); the stack claims every entry inside the transaction that acts on it.
/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read as loose JSON */
import { expect, it } from 'vitest';
import { DLQ_RACE, eventually, settle, useStackAndSink } from '../messages/test-support';

// Every workflow delivery fails: retries 0 sends each run to the DLQ at its first step.
const env = useStackAndSink(DLQ_RACE);

/** The new runs' first deliveries wait an hour (the manual clock never gets there): nothing fails again. */
const DEFER = { 'upstash-delay': '1h' };

/** Starts `count` runs labelled `label` that fail at once; resolves with their DLQ ids once all are there. */
async function failedRuns(
  label: string,
  count: number,
  extra: Record<string, string> = {},
): Promise<string[]> {
  const items = Array.from({ length: count }, (_, index) => {
    const runId = `wfr_${label}-${index}`;
    return {
      destination: `${env.sink.url}/wf`,
      headers: {
        'upstash-workflow-runid': runId,
        'upstash-workflow-init': 'true',
        'upstash-workflow-url': `${env.sink.url}/wf`,
        'upstash-workflow-sdk-version': '1',
        'upstash-forward-upstash-workflow-sdk-version': '1',
        'upstash-retries': '0',
        'upstash-label': label,
        ...extra,
      },
      body: '{}',
    };
  });
  for (let start = 0; start < items.length; start += 100) {
    const response = await env.stack.api('POST', '/v2/batch', {
      body: JSON.stringify(items.slice(start, start + 100)),
    });
    expect(response.status).toBe(200);
  }
  return eventually(
    async () => {
      const ids = await dlqIds(label);
      return ids.length === count ? ids : undefined;
    },
    `${count} runs of ${label} in the DLQ`,
    30_000,
  );
}

/** The DLQ ids of the runs labelled `label`, every page. */
async function dlqIds(label: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '';
  do {
    const page = await env.stack.api('GET', `/v2/workflows/dlq?label=${label}&count=100&cursor=${cursor}`);
    expect(page.status).toBe(200);
    ids.push(...page.json.messages.map((entry: any) => entry.dlqId));
    cursor = page.json.cursor;
  } while (cursor);
  return ids;
}

/** Runs labelled `label` in a state, every page. */
async function runIds(label: string, state: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor = '';
  do {
    const page = await env.stack.api(
      'GET',
      `/v2/workflows/logs?label=${label}&state=${state}&cursor=${cursor}`,
    );
    ids.push(...page.json.runs.map((run: any) => run.workflowRunId));
    cursor = page.json.cursor;
  } while (cursor);
  return ids;
}

const post = (path: string) => env.stack.api('POST', path, { headers: DEFER });

it('two restarts by filter at once restart each failed run once', async () => {
  await failedRuns('twice', 150);
  const [first, second] = await Promise.all([
    post('/v2/workflows/dlq/restart?label=twice'),
    post('/v2/workflows/dlq/restart?label=twice'),
  ]);
  expect([first.status, second.status]).toEqual([200, 200]);
  const restarted = [...first.json.workflowRuns, ...second.json.workflowRuns].map(
    (run: any) => run.workflowRunId,
  );
  expect(restarted).toHaveLength(150);
  expect(new Set(restarted).size).toBe(150);
  expect(await dlqIds('twice')).toEqual([]);
  // The new runs (they keep the label) are the ones answered, and no others.
  expect(new Set(await runIds('twice', 'RUN_STARTED'))).toEqual(new Set(restarted));
});

it('two restarts of the same dlqIds at once: one restarts them, the other is refused with 404', async () => {
  const ids = await failedRuns('byids', 20);
  const query = ids.map((id) => `dlqIds=${id}`).join('&');
  const answers = await Promise.all([
    post(`/v2/workflows/dlq/restart?${query}`),
    post(`/v2/workflows/dlq/restart?${query}`),
  ]);
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404]);
  const won = answers.find((answer) => answer.status === 200)!;
  expect(won.json.workflowRuns).toHaveLength(20);
  expect(answers.find((answer) => answer.status === 404)!.json.error).toMatch(/DLQ entry/);
  expect(await runIds('byids', 'RUN_STARTED')).toHaveLength(20);
});

it('/restart/{dlqId} and /resume/{dlqId} of one entry at once: one acts, the other gets 404', async () => {
  const [restartId, resumeId] = await failedRuns('single', 2);
  for (const [action, id] of [
    ['restart', restartId],
    ['resume', resumeId],
  ] as const) {
    const answers = await Promise.all([
      post(`/v2/workflows/dlq/${action}/${id}`),
      post(`/v2/workflows/dlq/${action}/${id}`),
    ]);
    expect(answers.map((answer) => answer.status).sort(), action).toEqual([200, 404]);
  }
  // Two new runs (one restart, one resume): two active runs, no third.
  expect(await runIds('single', 'RUN_STARTED')).toHaveLength(2);
});

it('resume twice, and restart racing resume, act on each entry once', async () => {
  await failedRuns('resume', 40);
  const resumed = await Promise.all([
    post('/v2/workflows/dlq/resume?label=resume'),
    post('/v2/workflows/dlq/resume?label=resume'),
  ]);
  expect(resumed[0].json.workflowRuns.length + resumed[1].json.workflowRuns.length).toBe(40);
  // Each failed run resumed once, as a new run; the failed runs stay failed.
  expect(await runIds('resume', 'RUN_STARTED')).toHaveLength(40);
  expect(await runIds('resume', 'RUN_FAILED')).toHaveLength(40);

  await failedRuns('mixed', 40);
  const [restart, resume] = await Promise.all([
    post('/v2/workflows/dlq/restart?label=mixed'),
    post('/v2/workflows/dlq/resume?label=mixed'),
  ]);
  expect(restart.json.workflowRuns.length + resume.json.workflowRuns.length).toBe(40);
  // Each entry became one new run, restarted or resumed: 40 active runs.
  expect(await runIds('mixed', 'RUN_STARTED')).toHaveLength(40);
});

it('two deletes at once delete each entry once', async () => {
  await failedRuns('delete', 30);
  const answers = await Promise.all([
    env.stack.api('DELETE', '/v2/workflows/dlq?label=delete&count=100'),
    env.stack.api('DELETE', '/v2/workflows/dlq?label=delete&count=100'),
  ]);
  expect(answers[0].json.deleted + answers[1].json.deleted).toBe(30);
  const [id] = await failedRuns('delete-one', 1);
  const single = await Promise.all([
    env.stack.api('DELETE', `/v2/workflows/dlq/${id}`),
    env.stack.api('DELETE', `/v2/workflows/dlq/${id}`),
  ]);
  expect(single.map((answer) => answer.status).sort()).toEqual([200, 404]);
});

it('two failure-callback retries at once send the failure callback once', async () => {
  const [dlqId] = await failedRuns('callback', 1, {
    'upstash-failure-callback': `${env.sink.url}/failure`,
    'upstash-failure-callback-retries': '0',
  });
  // The first failure callback fails too (the sink answers 500): CALLBACK_FAIL.
  await eventually(async () => {
    const entry = await env.stack.api('GET', `/v2/workflows/dlq/${dlqId}`);
    return entry.json.failureCallbackInfo?.state === 'CALLBACK_FAIL';
  }, 'the failure callback failed');
  const sent = () => env.sink.received.filter((request) => request.url === '/failure').length;
  const before = sent();
  const answers = await Promise.all([
    env.stack.api('POST', `/v2/workflows/dlq/callback/${dlqId}`),
    env.stack.api('POST', `/v2/workflows/dlq/callback/${dlqId}`),
  ]);
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  await eventually(() => sent() === before + 1, 'the failure callback sent again');
  await settle(300);
  expect(sent()).toBe(before + 1);
});
