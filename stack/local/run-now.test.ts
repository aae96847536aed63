// "Run now" over HTTP (POST /local/<collection>/<id>/run-now), what an item waits for (GET …/due) and the
// clock's next due item (GET /local/clock), on a stack with the production clock and a real serve() app. Run
// now never moves the clock, and nothing runs twice.
/* eslint-disable @typescript-eslint/no-explicit-any -- run records are read as loose JSON */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClockState } from '../../shared/local-stack/clock';
import { StackClock } from '../clock';
import { eventually, settle, startTestStack, waitForState, type TestStack } from '../messages/test-support';
import { runWhen, startWorkflowApp, type WorkflowApp } from '../workflows/test-support';
import { at, publishTo, startScriptedSink, type ScriptedSink } from './test-support';

const HOUR = 3_600_000;

let stack: TestStack;
let sink: ScriptedSink;
let app: WorkflowApp;
const ran = new Map<string, number>();
/** Holds the '/busy' route's step until the test lets it go (set once the step runs). */
let releaseBusy: (() => void) | undefined;

beforeAll(async () => {
  stack = await startTestStack({ clock: new StackClock() as never, backoffFactor: 2.5 });
  sink = await startScriptedSink();
  app = await startWorkflowApp(stack, {
    '/sleepy': {
      fn: async (context) => {
        await context.sleep('a-week', '7d');
        return context.run('after', () => {
          ran.set('sleepy', (ran.get('sleepy') ?? 0) + 1);
          return 'awake';
        });
      },
    },
    '/busy': {
      fn: async (context) => {
        await context.run('slow', () => new Promise<void>((resolve) => (releaseBusy = resolve)));
      },
    },
    '/waiting': {
      fn: async (context) => {
        const { timeout } = await context.waitForEvent('approval', `never-${context.workflowRunId}`, {
          timeout: '2d',
        });
        return context.run('after', () => ({ timedOut: timeout }));
      },
    },
  });
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
  await sink?.close();
});
beforeEach(() => sink.reset());

const publish = (path: string, headers?: Record<string, string>): Promise<string> =>
  publishTo(stack, sink, path, headers);

async function clock(): Promise<ClockState> {
  return (await stack.api('GET', '/local/clock')).json;
}

/** Waits until the run has an item of `kind` waiting for the clock; answers the run's items. */
function waitingItems(runId: string, kind: string): Promise<any[]> {
  return eventually(async () => {
    const items = (await stack.api('GET', `/local/workflows/runs/${runId}/due`)).json.items as any[];
    return items.some((item) => item.kind === kind) ? items : undefined;
  }, `a ${kind} of run ${runId} waiting for the clock`);
}

const runNow = (collection: string, id: string) => stack.api('POST', `/local/${collection}/${id}/run-now`);

describe('run now: messages', () => {
  it('delivers a delayed message now, without moving the clock, and never again at its old time', async () => {
    const id = await publish('/delayed', { 'Upstash-Delay': '2h' });
    const due = await stack.api('GET', `/local/messages/${id}/due`);
    expect(due.json.items).toEqual([
      { kind: 'message', messageId: id, dueAt: expect.any(Number), retried: 0 },
    ]);
    const before = await clock();
    const response = await runNow('messages', id);
    expect(response.status, response.text).toBe(200);
    expect(response.json.ran).toMatchObject({ kind: 'message', messageId: id, retried: 0 });
    expect(response.json.ran.dueAt).toBeGreaterThanOrEqual(before.now + 2 * HOUR - 5_000);
    await sink.waitFor(1, { match: at('/delayed') });
    const [delivered] = await waitForState(stack, id, 'DELIVERED');
    expect(delivered.time).toBeLessThan(before.now + HOUR);
    expect((await clock()).offsetMs).toBe(before.offsetMs);
    expect((await runNow('messages', id)).status).toBe(404);
    expect((await stack.api('GET', `/local/messages/${id}/due`)).json.items).toEqual([]);
    await stack.api('POST', '/local/clock/advance', { body: '{"by":"3h"}' });
    await settle();
    expect(sink.received.filter(at('/delayed'))).toHaveLength(1);
  });

  it('runs a retrying message’s next attempt now, down to the DLQ', async () => {
    sink.script['/failing'] = () => ({ status: 500 });
    const id = await publish('/failing', { 'Upstash-Retries': '2' });
    await waitForState(stack, id, 'RETRY', 1);
    const first = await runNow('messages', id);
    expect(first.status, first.text).toBe(200);
    expect(first.json.ran).toMatchObject({ messageId: id, retried: 1 });
    await waitForState(stack, id, 'RETRY', 2);
    expect((await runNow('messages', id)).status).toBe(200);
    await waitForState(stack, id, 'FAILED');
    expect((await stack.api('GET', `/v2/dlq?messageId=${id}`)).json.messages).toHaveLength(1);
    expect(sink.received.filter(at('/failing'))).toHaveLength(3);
    expect((await runNow('messages', id)).status).toBe(404);
  });

  it('says why a message that does not wait for the clock cannot be run now (404, 409)', async () => {
    expect((await runNow('messages', 'msg_unknown')).json.error).toMatch(/not pending/);
    // Queue of one: the first (delayed) holds the slot, the second waits for it, not for the clock.
    await stack.api('POST', '/v2/queues', { body: JSON.stringify({ queueName: 'clock-q', parallelism: 1 }) });
    const enqueue = async (headers: Record<string, string>) =>
      (await stack.api('POST', `/v2/enqueue/clock-q/${sink.url}/queued`, { headers, body: 'q' })).json
        .messageId as string;
    const head = await enqueue({ 'Upstash-Delay': '1h' });
    const behind = await enqueue({});
    const queued = await runNow('messages', behind);
    expect(queued.status).toBe(409);
    expect(queued.json.error).toMatch(/waits for a slot of queue 'clock-q'/);
    expect((await runNow('messages', head)).status).toBe(200);
    await sink.waitFor(2, { match: at('/queued') });

    // In flight: the destination holds the request open.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    sink.script['/held'] = () => ({ wait: held });
    const busy = await publish('/held');
    await sink.waitFor(1, { match: at('/held') });
    const inflight = await runNow('messages', busy);
    expect(inflight.status).toBe(409);
    expect(inflight.json.error).toMatch(/being delivered right now/);
    release();
    await waitForState(stack, busy, 'DELIVERED');
  });

  it('needs the token', async () => {
    const id = await publish('/token', { 'Upstash-Delay': '1h' });
    const response = await stack.api('POST', `/local/messages/${id}/run-now`, { auth: false });
    expect(response.status).toBe(401);
    expect((await stack.api('GET', `/local/messages/${id}/due`, { auth: false })).status).toBe(401);
    expect((await runNow('messages', id)).status).toBe(200);
  });
});

describe('run now: workflow runs', () => {
  it('wakes a run sleeping 7 days now; the clock stays where it was', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/sleepy` });
    const due = await waitingItems(workflowRunId, 'message');
    expect(due).toEqual([
      expect.objectContaining({ kind: 'message', workflowRunId, retried: 0, dueAt: expect.any(Number) }),
    ]);
    const before = await clock();
    expect(due[0].dueAt - before.now).toBeGreaterThan(6 * 24 * HOUR);
    const response = await runNow('workflows/runs', workflowRunId);
    expect(response.status, response.text).toBe(200);
    expect(response.json.ran).toEqual(due[0]);
    const log = await runWhen(stack, workflowRunId, (run) => run.workflowState === 'RUN_SUCCESS');
    expect(log.workflowRunCompletedAt - log.workflowRunCreatedAt).toBeLessThan(HOUR);
    expect((await clock()).offsetMs).toBe(before.offsetMs);
    const again = await runNow('workflows/runs', workflowRunId);
    expect(again.status).toBe(404);
    expect(again.json.error).toMatch(/not active/);
    await stack.api('POST', '/local/clock/advance', { body: '{"by":"8d"}' });
    await settle(200);
    expect(ran.get('sleepy')).toBe(1);
  });

  it('times a wait out now', async () => {
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/waiting` });
    const items = await waitingItems(workflowRunId, 'wait');
    expect(items).toEqual([
      {
        kind: 'wait',
        workflowRunId,
        eventId: `never-${workflowRunId}`,
        dueAt: expect.any(Number),
      },
    ]);
    const response = await runNow('workflows/runs', workflowRunId);
    expect(response.status, response.text).toBe(200);
    expect(response.json.ran).toMatchObject({ kind: 'wait', eventId: `never-${workflowRunId}` });
    const log = await runWhen(stack, workflowRunId, (run) => run.workflowState === 'RUN_SUCCESS');
    expect(JSON.parse(log.workflowRunResponse)).toEqual({ timedOut: true });
  });

  it('answers 404 for an unknown or ended run and 409 for a run that does not wait for the clock', async () => {
    expect((await runNow('workflows/runs', 'wfr_nope')).status).toBe(404);
    const { workflowRunId } = await app.client.trigger({ url: `${app.url}/busy` });
    // Its step is being delivered (the app holds it): nothing of it waits for the clock.
    const release = await eventually(() => releaseBusy, 'the busy step to run');
    const busy = await runNow('workflows/runs', workflowRunId);
    expect(busy.status).toBe(409);
    expect(busy.json.error).toMatch(/does not wait for the clock/);
    release();
    await runWhen(stack, workflowRunId, (run) => run.workflowState === 'RUN_SUCCESS');
    const ended = await runNow('workflows/runs', workflowRunId);
    expect(ended.status).toBe(404);
    expect(ended.json.error).toMatch(/not active/);
  });
});

describe('run now: schedules', () => {
  it('publishes one message from the schedule now; its next tick stays', async () => {
    const created = await stack.api('POST', `/v2/schedules/${sink.url}/scheduled`, {
      headers: { 'Upstash-Cron': '0 0 1 1 *' },
    });
    const id = created.json.scheduleId as string;
    const tick = (await stack.api('GET', `/v2/schedules/${id}`)).json.nextScheduleTime as number;
    const response = await runNow('schedules', id);
    expect(response.status, response.text).toBe(200);
    expect(response.json.ran).toEqual({ kind: 'schedule', scheduleId: id, dueAt: tick });
    const [delivered] = await sink.waitFor(1, { match: at('/scheduled') });
    expect(delivered?.headers['upstash-schedule-id']).toBe(id);
    expect((await stack.api('GET', `/v2/schedules/${id}`)).json.nextScheduleTime).toBe(tick);
    expect((await runNow('schedules', 'nope')).status).toBe(404);
    await stack.api('DELETE', `/v2/schedules/${id}`);
  });
});

describe('the next due item', () => {
  it('is the first item over messages and waits, and moves on once it ran', async () => {
    const fresh = await startTestStack({ clock: new StackClock() as never });
    try {
      const read = async (): Promise<ClockState> => (await fresh.api('GET', '/local/clock')).json;
      expect((await read()).next).toBeNull();
      const publishTo = async (delay: string) =>
        (await fresh.api('POST', `/v2/publish/${sink.url}/next`, { headers: { 'Upstash-Delay': delay } }))
          .json.messageId as string;
      const later = await publishTo('3h');
      const sooner = await publishTo('1h');
      const first = await read();
      expect(first.next).toMatchObject({ kind: 'message', messageId: sooner, retried: 0 });
      expect(first.next?.dueAt).toBeGreaterThanOrEqual(first.now + HOUR - 5_000);
      expect((await fresh.api('POST', `/local/messages/${sooner}/run-now`)).status).toBe(200);
      expect((await read()).next).toMatchObject({ kind: 'message', messageId: later });
      const advanced = await fresh.api('POST', '/local/clock/advance', { body: '{"by":"3h"}' });
      expect(advanced.json.next).toBeNull();
    } finally {
      await fresh.close();
    }
  });
});
