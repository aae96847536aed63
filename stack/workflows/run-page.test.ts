// The run page's "why not done" and history, against a real serve() app (the vendor's SDK) on the stack: for
// every pending state the stack's record says why the run is not done — in the words the console shows
// (shared/workflows/explain.ts) — and the history (shared/workflows/history.ts) lists what happened in order;
// for every step type the history of a finished run names each step. Also what the stack records for it:
// who triggered and canceled a run, restart and resume links both ways, attempt durations.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainRun, reasonText } from '../../shared/workflows/explain';
import { runHistory } from '../../shared/workflows/history';
import type { WorkflowRunLog } from '../../shared/workflows/types';
import { eventually, type TestStack } from '../messages/test-support';
import { failingStep, runLog, runWhen, startStackWithApp, type WorkflowApp } from './test-support';

let stack: TestStack;
let app: WorkflowApp;
/** Steps that block until the test opens their gate (a step "in the app", a failure function running…). */
const gates = new Map<string, () => void>();
const opened = new Set<string>();
const gate = (name: string) =>
  opened.has(name) ? Promise.resolve() : new Promise<void>((resolve) => gates.set(name, resolve));
/** Opens a gate now, or before it is reached (a step may be seen in flight before it runs). */
const open = (name: string) => {
  opened.add(name);
  gates.get(name)?.();
};
let healthy = false;

const fmt = { time: (ms: number) => new Date(ms).toISOString() };
const said = (run: WorkflowRunLog) => explainRun(run).map((reason) => reasonText(reason, fmt));
const titles = (run: WorkflowRunLog) => runHistory(run).entries.map((entry) => entry.title);

/** The index of the first title matching each pattern; fails unless they come in this order. */
function inOrder(list: string[], patterns: RegExp[]): void {
  let from = 0;
  for (const pattern of patterns) {
    const index = list.findIndex((title, at) => at >= from && pattern.test(title));
    if (index < 0) throw new Error(`no ${pattern} after position ${from} in:\n${list.join('\n')}`);
    from = index + 1;
  }
}

async function trigger(path: string, options: Record<string, unknown> = {}): Promise<string> {
  const { workflowRunId } = await app.client.trigger({
    url: `${app.url}${path}`,
    body: { order: 7 },
    ...options,
  });
  return workflowRunId;
}

const until = (runId: string, reached: (log: any) => boolean, what: string) =>
  runWhen(stack, runId, reached, what) as Promise<WorkflowRunLog>;

beforeAll(async () => {
  const childFn = async (context: any) => {
    await context.waitForEvent('child-wait', `child-${context.workflowRunId}`, { timeout: '1h' });
    return 'child done';
  };
  ({ stack, app } = await startStackWithApp(
    {
      '/all': {
        fn: async (context) => {
          const a = await context.run('reserve', () => ({ sku: 'A-1' }));
          const [b, c] = await Promise.all([
            context.run('pick', () => 'picked'),
            context.run('pack', () => 'packed'),
          ]);
          const quote = await context.call('quote', {
            url: `${app.url}/third-party`,
            method: 'POST',
            body: '{}',
          });
          await context.sleep('cool-down', 1);
          await context.sleepUntil('until', Math.floor(Date.now() / 1000));
          const approval = await context.waitForEvent('approval', `approve-${context.workflowRunId}`, {
            timeout: '30s',
          });
          await context.notify('announce', `shipped-${context.workflowRunId}`, { ok: true });
          const child = await context.invoke('child', {
            workflow: {
              routeFunction: async (inner: any) => inner.run('double', () => 42),
              options: {},
              workflowId: 'kid',
            },
            body: {},
          });
          return { a, b, c, quote: quote.status, approval: approval.eventData, child: child.body };
        },
      },
      '/wait': {
        fn: async (context) => {
          await context.run('before', () => 1);
          await context.waitForEvent('approval', `approve-${context.workflowRunId}`, { timeout: '1h' });
        },
      },
      '/sleep': { fn: async (context) => void (await context.sleep('nap', '1h')) },
      '/charge': {
        fn: async (context) => {
          await context.run('load-cart', () => 1);
          await context.run('charge', () => {
            if (!healthy) throw new Error('503 payment gateway down');
            return 'paid';
          });
        },
      },
      '/block': {
        fn: async (context) => void (await context.run('slow', () => gate(`block-${context.workflowRunId}`))),
      },
      '/flow': { fn: async (context) => void (await context.run('first', () => gate('flow'))) },
      '/fail': {
        fn: failingStep('boom', () => new Error('broken for good')),
        options: { failureFunction: async ({ context }: any) => gate(`ff-${context.workflowRunId}`) },
      },
      '/call': {
        fn: async (context) => {
          await context.call('slow-call', { url: `${app.url}/slow-third-party`, method: 'GET' });
        },
      },
      '/parent': {
        fn: async (context) => {
          await context.invoke('call-child', {
            workflow: { routeFunction: childFn, options: {}, workflowId: 'waiting-child' },
            body: {},
          });
        },
      },
      '/waiting-child': { fn: childFn },
      '/cancel-self': { fn: async (context) => context.cancel() },
      '/bad-call': {
        fn: async (context) => {
          const answer = await context.call('charge-card', {
            url: `${app.url}/down`,
            method: 'POST',
            body: '{}',
          });
          return answer.status;
        },
      },
    },
    {
      '/third-party': () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: '{"price":1999}',
      }),
      '/down': () => ({ status: 503, body: 'card service down' }),
      '/slow-third-party': async () => {
        await gate('call');
        return { status: 200, body: 'late' };
      },
    },
  ));
}, 60_000);

afterAll(async () => {
  for (const release of gates.values()) release();
  await app?.close();
  await stack?.close();
});

describe('why not done, for each pending state', () => {
  it('waiting for an event: its id, since when, its timeout; notify ends it, in the history in order', async () => {
    const runId = await trigger('/wait');
    const waiting = await until(runId, (log) => explainRun(log)[0]?.kind === 'waiting', 'waiting');
    const [reason] = explainRun(waiting);
    expect(reason).toMatchObject({ kind: 'waiting', eventId: `approve-${runId}` });
    const wait = reason as Extract<typeof reason, { kind: 'waiting' }>;
    expect(wait.deadline! - wait.since!).toBe(3_600_000);
    expect(said(waiting)[0]).toBe(
      `Waiting for event \`approve-${runId}\` since ${fmt.time(wait.since!)} (times out ${fmt.time(wait.deadline!)})`,
    );
    await app.client.notify({ eventId: `approve-${runId}`, eventData: { ok: true } });
    const done = await until(runId, (log) => log.workflowState === 'RUN_SUCCESS', 'success');
    expect(said(done)).toEqual([]);
    inOrder(titles(done), [
      /^Triggered by the SDK$/,
      /^Delivery after `init`: 200$/,
      /^Step `before` \(Run\) finished$/,
      new RegExp(`^Waiting for event \`approve-${runId}\` \\(step \`approval\`\\)$`),
      new RegExp(`^Event \`approve-${runId}\` notified$`),
      new RegExp(`^Wait \`approval\` for event \`approve-${runId}\` ended: the event arrived$`),
      /^Completed$/,
    ]);
  });

  it('sleeping until the sleep is over', async () => {
    const before = Date.now();
    const runId = await trigger('/sleep');
    const run = await until(runId, (log) => explainRun(log)[0]?.kind === 'sleeping', 'sleeping');
    const [reason] = explainRun(run) as [
      Extract<ReturnType<typeof explainRun>[number], { kind: 'sleeping' }>,
    ];
    expect(reason.stepName).toBe('nap');
    expect(reason.until).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(said(run)[0]).toBe(`Sleeping until ${fmt.time(reason.until)} (step \`nap\`)`);
    inOrder(titles(run), [/^Triggered by the SDK$/, /^Sleeping `nap`$/]);
  });

  it('retrying: retry n of the step at its time after the error', async () => {
    healthy = false;
    const runId = await trigger('/charge', { retries: 3, retryDelay: '600000' });
    const run = await until(runId, (log) => explainRun(log)[0]?.kind === 'retrying', 'retrying');
    const [reason] = explainRun(run) as [
      Extract<ReturnType<typeof explainRun>[number], { kind: 'retrying' }>,
    ];
    expect(reason).toMatchObject({
      retry: 1,
      maxRetries: 3,
      stepName: 'charge',
      error: '503 payment gateway down',
    });
    expect(said(run)[0]).toBe(
      `Retry 1 of 3 of step \`charge\` at ${fmt.time(reason.at!)} after \`503 payment gateway down\``,
    );
    inOrder(titles(run), [
      /^Triggered by the SDK$/,
      /^Step `load-cart` \(Run\) finished$/,
      /^Delivery after `load-cart` \(attempt 1\): 500 — step `charge` threw$/,
      /^Retry 1 of 3 scheduled$/,
    ]);
    const attempt = runHistory(run).entries.find((entry) => entry.kind === 'attempt' && entry.status === 500);
    expect(attempt?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('held by its flow-control key while another run holds the only slot', async () => {
    const flowControl = { key: `fc-${Date.now()}`, parallelism: 1 };
    const first = await trigger('/flow', { flowControl });
    await until(first, (log) => explainRun(log)[0]?.kind === 'delivering', 'first delivering');
    const second = await trigger('/flow', { flowControl });
    const held = await until(second, (log) => explainRun(log)[0]?.kind === 'held', 'second held');
    expect(explainRun(held)[0]).toMatchObject({
      kind: 'held',
      key: flowControl.key,
      ahead: 0,
      parallelism: 1,
      inflight: 1,
    });
    expect(said(held)[0]).toBe(
      `Held by flow-control key \`${flowControl.key}\` (0 ahead of it; parallelism 1, 1 in flight)`,
    );
    open('flow');
  });

  it('the app running a step: since when', async () => {
    const runId = await trigger('/block');
    const run = await until(runId, (log) => explainRun(log)[0]?.kind === 'delivering', 'delivering');
    expect(said(run)[0]).toMatch(/^Running the step after `init` in the app since /);
    open(`block-${runId}`);
    await until(runId, (log) => log.workflowState === 'RUN_SUCCESS', 'success');
  });

  it('calling a third party: the URL and the step', async () => {
    const runId = await trigger('/call');
    const run = await until(
      runId,
      (log) => explainRun(log).some((reason) => reason.kind === 'calling' && reason.since !== undefined),
      'calling',
    );
    const calling = `Calling \`${app.url}/slow-third-party\` for step \`slow-call\` since `;
    expect(
      said(run).some((text) => text.startsWith(calling)),
      said(run).join('\n'),
    ).toBe(true);
    open('call');
    const done = await until(runId, (log) => log.workflowState === 'RUN_SUCCESS', 'success');
    inOrder(titles(done), [
      /^Call request to .*slow-third-party: 200$/,
      /^Call `slow-call`: GET .* answered 200$/,
    ]);
  });

  it('waiting for an invoked run', async () => {
    const runId = await trigger('/parent');
    const run = await until(runId, (log) => explainRun(log)[0]?.kind === 'invoked', 'invoked');
    const [reason] = explainRun(run) as [Extract<ReturnType<typeof explainRun>[number], { kind: 'invoked' }>];
    expect(reason.stepName).toBe('call-child');
    const child = await runLog(stack, reason.child.workflowRunId);
    expect(child.invoker.workflowRunId).toBe(runId);
    expect(runHistory(child as WorkflowRunLog).entries[0]).toMatchObject({
      title: 'Triggered by another run (context.invoke)',
      run: { workflowRunId: runId },
    });
  });

  it('failure function pending, then the failed run says where it failed', async () => {
    const runId = await trigger('/fail', { retries: 0 });
    const run = await until(
      runId,
      (log) => explainRun(log)[0]?.kind === 'failureFunction',
      'failure function',
    );
    expect(said(run)[0]).toBe('Failure function pending');
    open(`ff-${runId}`);
    const done = await until(
      runId,
      (log) => {
        if (log.failureFunction?.state !== 'CALLBACK_INPROGRESS') return true;
        open(`ff-${runId}`);
        return false;
      },
      'callback done',
    );
    expect(done.failureFunction?.state, JSON.stringify(done.deliveries)).toBe('CALLBACK_SUCCESS');
    expect(said(done)[0]).toBe('Failed at step `boom`: `broken for good`');
    inOrder(titles(done), [
      /^Delivery after `init` \(attempt 1\): 500 — step `boom` threw$/,
      /^Failed at step `boom`/,
      /^Failure function call: 200$/,
    ]);
  });

  it('canceled: by whom', async () => {
    const bulk = await trigger('/wait');
    await until(bulk, (log) => explainRun(log)[0]?.kind === 'waiting', 'waiting');
    await app.client.cancel({ ids: [bulk] });
    const canceled = await until(bulk, (log) => log.workflowState === 'RUN_CANCELED', 'canceled');
    expect(said(canceled)[0]).toMatch(/^Canceled by a cancel request .*from 127\.0\.0\.1 at /);
    inOrder(titles(canceled), [/^Waiting for event/, /^Canceled by a cancel request$/]);

    const self = await trigger('/cancel-self');
    const gone = await until(self, (log) => log.workflowState === 'RUN_CANCELED', 'self canceled');
    expect(said(gone)[0]).toMatch(
      /^Canceled by the workflow \(context\.cancel\) or a cancel of this one run from 127\.0\.0\.1 at /,
    );
  });
});

describe('the history of a run of every step type', () => {
  it('names each step in order, with each delivery and its status', async () => {
    const runId = await trigger('/all');
    await until(runId, (log) => explainRun(log)[0]?.kind === 'waiting', 'approval wait');
    await app.client.notify({ eventId: `approve-${runId}`, eventData: 'yes' });
    // The SDK finishes the run while its last delivery is still being answered: under load the run reads
    // RUN_SUCCESS a moment before that attempt's 200 is recorded, so wait for both (the history is right
    // to show it in progress until then).
    const run = await until(
      runId,
      (log) =>
        log.workflowState === 'RUN_SUCCESS' &&
        runHistory(log).entries.every((entry) => entry.kind !== 'attempt' || entry.status !== undefined),
      'success, every delivery answered',
    );
    inOrder(titles(run), [
      /^Triggered by the SDK$/,
      /^Step `reserve` \(Run\) finished$/,
      /^Step `(pick|pack)` \(Run\) finished in parallel$/,
      /^Call request to .*third-party: 200$/,
      /^Call `quote`: POST .* answered 200$/,
      /^Slept `cool-down`$/,
      /^Slept `until`$/,
      /^Waiting for event `approve-/,
      /^Event `approve-.*` notified$/,
      /^Wait `approval` .* ended: the event arrived$/,
      /^Step `announce` \(Notify\) finished$/,
      /^Invoked run `/,
      /^Invoke `child` returned from `/,
      /^Completed$/,
    ]);
    const attempts = runHistory(run).entries.filter((entry) => entry.kind === 'attempt');
    expect(attempts.length).toBeGreaterThan(8);
    for (const attempt of attempts) {
      expect(attempt.status).toBe(200);
      expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    }
    // A finished run's call leaves nothing in `next` (defect 3).
    expect(run.steps.some((group) => group.type === 'next')).toBe(false);
  });
});

describe('a failed context.call (defects 3 and 4)', () => {
  it('is an attempt of its Call step, and its message DLQ entry names the run and the step', async () => {
    const runId = await trigger('/bad-call');
    const run = await until(runId, (log) => log.workflowState === 'RUN_SUCCESS', 'success');
    expect(JSON.parse(run.workflowRunResponse ?? 'null')).toBe(503);
    // No "(step not named yet) FAILED" in `next`: the call's failed attempt is the Call step's.
    expect(run.steps.some((group) => group.type === 'next')).toBe(false);
    const call = run.deliveries?.find((delivery) => delivery.kind === 'call');
    expect(call).toMatchObject({ afterStep: 'charge-card', state: 'failed', attempts: [{ status: 503 }] });
    inOrder(titles(run), [
      /^Call request to .*\/down \(attempt 1\): 503$/,
      /^Call `charge-card`: POST .* answered 503$/,
    ]);
    const dlq = await stack.api('GET', '/v2/dlq?count=100');
    const entry = (dlq.json.messages as Record<string, unknown>[]).find(
      (message) => message.workflowRunId === runId,
    );
    expect(entry).toMatchObject({
      workflowMessage: 'call',
      workflowStepName: 'charge-card',
      workflowCreatedAt: run.workflowRunCreatedAt,
    });
  });
});

describe('what the stack records for the history', () => {
  it('restart and resume link the failed run and its new run both ways', async () => {
    healthy = false;
    const failed = await trigger('/charge', { retries: 0 });
    const failedRun = await until(failed, (log) => log.workflowState === 'RUN_FAILED', 'failed');
    healthy = true;
    const { workflowRuns } = await app.client.dlq.restart(failedRun.dlqId!);
    const fresh = workflowRuns[0]!.workflowRunId;
    expect(fresh).not.toBe(failed);
    const restarted = await until(fresh, (log) => log.workflowState === 'RUN_SUCCESS', 'restarted run');
    expect(runHistory(restarted).entries[0]).toMatchObject({
      kind: 'triggered',
      title: `Triggered by a restart from the DLQ: restarted from \`${failed}\``,
      run: { workflowRunId: failed, workflowRunCreatedAt: failedRun.workflowRunCreatedAt },
    });
    const old = await runLog(stack, failed);
    expect(runHistory(old as WorkflowRunLog).entries.at(-1)).toMatchObject({
      kind: 'restarted',
      run: { workflowRunId: fresh },
    });

    healthy = false;
    const again = await trigger('/charge', { retries: 0 });
    const againRun = await until(again, (log) => log.workflowState === 'RUN_FAILED', 'failed again');
    healthy = true;
    const resumed = await app.client.dlq.resume(againRun.dlqId!);
    const next = resumed.workflowRuns[0]!.workflowRunId;
    expect(next).not.toBe(again);
    const done = await until(next, (log) => log.workflowState === 'RUN_SUCCESS', 'resumed run');
    // The new run holds the completed step (copied), and the failed delivery goes again in it.
    inOrder(titles(done), [
      new RegExp(`^Triggered by a resume from the DLQ: resumed from \`${again}\`$`),
      /^Step `load-cart` \(Run\) finished$/,
      /^Delivery after `load-cart`: 200$/,
      /^Step `charge` \(Run\) finished$/,
      /^Completed$/,
    ]);
    expect(runHistory(done).entries[0]).toMatchObject({
      run: { workflowRunId: again, workflowRunCreatedAt: againRun.workflowRunCreatedAt },
    });
    const resumedOld = await runLog(stack, again);
    const titlesOld = titles(resumedOld as WorkflowRunLog);
    inOrder(titlesOld, [
      /^Delivery after `load-cart` \(attempt 1\): 500 — step `charge` threw$/,
      new RegExp(`^Resumed from the DLQ as \`${next}\``),
    ]);
    expect(runHistory(resumedOld as WorkflowRunLog).entries.at(-1)).toMatchObject({
      kind: 'resumed',
      run: { workflowRunId: next },
    });
  });

  it('a finished run’s messages show no cancel nobody asked for (defect 9)', async () => {
    const ok = await trigger('/block');
    await until(ok, (log) => explainRun(log)[0]?.kind === 'delivering', 'delivering');
    open(`block-${ok}`);
    const done = await until(ok, (log) => log.workflowState === 'RUN_SUCCESS', 'success');
    const ids = done.steps.flatMap((group) => group.steps.map((step) => step.messageId)).filter(Boolean);
    await eventually(async () => {
      const response = await stack.api('GET', `/v2/logs?count=100&messageId=${ids[ids.length - 1]}`);
      const states = (response.json.events as { state: string }[]).map((event) => event.state);
      return states.includes('DELIVERED') ? states : undefined;
    }, 'delivered').then((states) => expect(states).not.toContain('CANCEL_REQUESTED'));
  });

  it('search finds runs by payload, output and error text, newest first, with filters', async () => {
    healthy = false;
    const failing = await trigger('/charge', { retries: 0, body: { order: 'zebra-4711' } });
    await until(failing, (log) => log.workflowState === 'RUN_FAILED', 'failed');
    healthy = true;
    const passing = await trigger('/charge', { body: { order: 'zebra-4712' } });
    await until(passing, (log) => log.workflowState === 'RUN_SUCCESS', 'success');
    const search = async (q: string, extra = '') => {
      const response = await stack.api('GET', `/local/workflows/search?q=${encodeURIComponent(q)}${extra}`);
      expect(response.status).toBe(200);
      return (response.json.runs as WorkflowRunLog[]).map((run) => run.workflowRunId);
    };
    expect(await search('zebra')).toEqual([passing, failing]);
    expect(await search('zebra 4711')).toEqual([failing]);
    expect(await search('payment gateway')).toContain(failing);
    expect(await search('payment gateway')).not.toContain(passing);
    expect(await search('paid')).toContain(passing);
    expect(await search('zebra', '&state=RUN_FAILED')).toEqual([failing]);
    expect(await search('zebra', '&count=1')).toEqual([passing]);
    const bad = await stack.api('GET', '/local/workflows/search?q=%20%22%22');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/at least one word/);
  });
});
