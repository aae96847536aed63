// The stack clock over HTTP (GET /local/clock, POST /local/clock/advance) on a stack with the production clock,
// and every message-side timer following it: delays, not-before, retry backoff, callback retries,
// flow-control rate periods, Retry-After dates, retention. Workflow timers: clock-workflows.test.ts.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClockState } from '../../shared/local-stack/clock';
import { StackClock } from '../clock';
import {
  DEV_TOKEN,
  settle,
  startTestStack,
  tempDir,
  waitForState,
  WRITER_SCRIPT,
  eventually,
  type TestStack,
} from '../messages/test-support';
import { startStack } from '../stack';
import { at, publishTo, startScriptedSink, type ScriptedSink } from './test-support';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let stack: TestStack;
let sink: ScriptedSink;

beforeAll(async () => {
  stack = await startTestStack({ clock: new StackClock() as never });
  sink = await startScriptedSink();
});
afterAll(async () => {
  await stack.close();
  await sink.close();
});
beforeEach(() => sink.reset());

const publish = (path: string, headers?: Record<string, string>): Promise<string> =>
  publishTo(stack, sink, path, headers);

async function advance(by: string): Promise<ClockState> {
  const response = await stack.api('POST', '/local/clock/advance', { body: JSON.stringify({ by }) });
  expect(response.status, response.text).toBe(200);
  return response.json;
}

/**
 * Waits for `count` deliveries to `path`, then checks that no more follow while the clock stands still
 * (`settleMs` of real time): what arrived came from the clock's last move, not from real time passing.
 */
async function deliveredOnly(path: string, count: number, settleMs?: number) {
  await sink.waitFor(count, { match: at(path) });
  await settle(settleMs);
  const delivered = sink.received.filter(at(path));
  expect(delivered).toHaveLength(count);
  return delivered;
}

/**
 * Real time moves the stack clock too, so a `* * * * *` schedule also fires whenever the wall clock's minute
 * turns (the advances here are whole minutes, so the stack's minutes turn with the wall clock's). A test that
 * counts a minutely schedule's deliveries starts in the first 40 s of a minute, leaving it 20 s or more before
 * the next real tick (a loaded run failed once in session 8; a minute turning during the settle gives exactly
 * that). Waits at most 20 s, for the wall clock itself: there is no event to wait for.
 */
async function earlyInAMinute(): Promise<void> {
  const intoMinute = (await clockNow()).now % 60_000;
  if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_100 - intoMinute));
}

async function clockNow(): Promise<ClockState> {
  const response = await stack.api('GET', '/local/clock');
  expect(response.status).toBe(200);
  return response.json;
}

describe('the clock API', () => {
  it('answers the clock, and moves it forward by a duration', async () => {
    const before = await clockNow();
    expect(before.now - Date.now() - before.offsetMs).toBeLessThanOrEqual(0);
    expect(Math.abs(before.now - (Date.now() + before.offsetMs))).toBeLessThan(5_000);
    const after = await advance('1h30m');
    expect(after.offsetMs).toBe(before.offsetMs + 90 * 60_000);
    expect(after.now).toBeGreaterThanOrEqual(before.now + 90 * 60_000);
    expect((await clockNow()).offsetMs).toBe(after.offsetMs);
  });

  it('refuses a zero, negative, malformed or missing duration with 400 and leaves the clock alone', async () => {
    const { offsetMs } = await clockNow();
    const cases: [string, RegExp][] = [
      ['{"by":"0s"}', /only moves forward/],
      ['{"by":"0d0h"}', /only moves forward/],
      ['{"by":"-1h"}', /negative/],
      ['{"by":"1x"}', /unknown unit/],
      ['{"by":"1.5h"}', /fractions/],
      ['{"by":"10"}', /missing unit/],
      ['{"by":3600}', /expected \{"by"/],
      ['{}', /expected \{"by"/],
      ['[]', /expected \{"by"/],
      ['null', /expected \{"by"/],
      ['{"by":"366d"}', /365d/],
      ['not json', /JSON/],
    ];
    for (const [body, error] of cases) {
      const response = await stack.api('POST', '/local/clock/advance', { body });
      expect(response.status, body).toBe(400);
      expect(response.json.error, body).toMatch(error);
    }
    expect((await clockNow()).offsetMs).toBe(offsetMs);
  });

  it('refuses requests without the message API token (401) and other methods (405)', async () => {
    for (const [method, path, body] of [
      ['GET', '/local/clock', undefined],
      ['POST', '/local/clock/advance', '{"by":"1h"}'],
    ] as const) {
      const none = await stack.api(method, path, { auth: false, body });
      expect(none.status).toBe(401);
      expect(none.json.error).toMatch(/missing token/);
      const wrong = await stack.api(method, path, {
        auth: false,
        headers: { authorization: 'Bearer nope' },
        body,
      });
      expect(wrong.status).toBe(401);
      expect(wrong.json.error).toMatch(/invalid token/);
    }
    expect((await stack.api('GET', '/local/clock/advance')).status).toBe(405);
    expect((await stack.api('POST', '/v2/clock/advance', { body: '{"by":"1h"}' })).status).toBe(404);
  });

  it('applies concurrent advances one after the other, none lost', async () => {
    const { offsetMs } = await clockNow();
    const answers = await Promise.all(['1m', '2m', '3m', '4m'].map((by) => advance(by)));
    expect(new Set(answers.map((answer) => answer.offsetMs)).size).toBe(4);
    expect((await clockNow()).offsetMs).toBe(offsetMs + 10 * 60_000);
  });
});

describe('message timers follow the clock', () => {
  it('delivers a message delayed 2 h once the clock moves 2 h, once, at its due time', async () => {
    const published = await clockNow();
    const id = await publish('/delayed', { 'Upstash-Delay': '2h' });
    await advance('1h59m');
    await settle();
    expect(sink.received.filter(at('/delayed'))).toHaveLength(0);
    await advance('1m');
    await sink.waitFor(1, { match: at('/delayed') });
    const [delivered] = await waitForState(stack, id, 'DELIVERED');
    const [created] = await waitForState(stack, id, 'CREATED');
    // Recorded times are clock times: two simulated hours between creation and delivery.
    expect(delivered.time - created.time).toBeGreaterThanOrEqual(2 * HOUR);
    expect(created.time).toBeGreaterThanOrEqual(published.now);
    await advance('1d');
    await settle();
    expect(sink.received.filter(at('/delayed'))).toHaveLength(1);
  });

  it('delivers a not-before time in clock time', async () => {
    const { now } = await clockNow();
    await publish('/not-before', { 'Upstash-Not-Before': String(Math.ceil((now + 3 * HOUR) / 1000)) });
    await advance('2h');
    await settle();
    expect(sink.received.filter(at('/not-before'))).toHaveLength(0);
    await advance('1h1s');
    await sink.waitFor(1, { match: at('/not-before') });
  });

  it('takes a message failing with 2 retries to the DLQ after two advances, each attempt once', async () => {
    sink.script['/failing'] = () => ({ status: 503, body: 'down' });
    const id = await publish('/failing', { 'Upstash-Retries': '2' });
    await sink.waitFor(1, { match: at('/failing') });
    await waitForState(stack, id, 'RETRY', 1);
    await advance('1h');
    await sink.waitFor(2, { match: at('/failing') });
    await waitForState(stack, id, 'RETRY', 2);
    expect((await stack.api('GET', `/v2/dlq?messageId=${id}`)).json.messages).toHaveLength(0);
    await advance('1h');
    await waitForState(stack, id, 'FAILED');
    const dlq = await stack.api('GET', `/v2/dlq?messageId=${id}`);
    expect(dlq.json.messages).toHaveLength(1);
    await advance('1d');
    await settle();
    expect(sink.received.filter(at('/failing')).map((r) => r.headers['upstash-retried'])).toEqual([
      '0',
      '1',
      '2',
    ]);
  });

  it('retries a failing callback on the clock', async () => {
    sink.script['/callback'] = (attempt) => (attempt === 0 ? { status: 500 } : {});
    await publish('/with-callback', {
      'Upstash-Callback': `${sink.url}/callback`,
      'Upstash-Callback-Retries': '1',
    });
    await deliveredOnly('/callback', 1);
    await advance('1h');
    await sink.waitFor(2, { match: at('/callback') });
  });

  it('waits for a destination’s Retry-After date in wall-clock terms while the clock is ahead', async () => {
    await advance('7d');
    const retryAt = new Date(Date.now() + HOUR).toUTCString();
    sink.script['/later'] = (attempt) =>
      attempt === 0 ? { status: 503, headers: { 'retry-after': retryAt } } : {};
    const id = await publish('/later');
    const [retry] = await waitForState(stack, id, 'RETRY');
    // About an hour (the date has a one-second resolution), not "at once" because the stack is 7 days ahead.
    expect(retry.nextDeliveryTime - retry.time).toBeGreaterThan(HOUR - 5_000);
    expect(retry.nextDeliveryTime - retry.time).toBeLessThanOrEqual(HOUR);
    await advance('1h');
    await sink.waitFor(2, { match: at('/later') });
  });

  it('lets a flow-control key start its next message when the clock ends its rate period', async () => {
    const flow = {
      'Upstash-Flow-Control-Key': 'clock-rate',
      'Upstash-Flow-Control-Value': 'rate=1, period=1d',
    };
    await publish('/rated', flow);
    await publish('/rated', flow);
    await deliveredOnly('/rated', 1);
    await advance('1d');
    await sink.waitFor(2, { match: at('/rated') });
  });

  it('prunes logs older than the retention once the clock has moved past it', async () => {
    const id = await publish('/pruned');
    await waitForState(stack, id, 'DELIVERED');
    await advance('8d');
    await eventually(async () => {
      const logs = await stack.api('GET', `/v2/logs?messageId=${id}`);
      return logs.json.events.length === 0;
    }, 'the old events to be pruned');
  });

  it('drops a DLQ entry once the clock has moved past the DLQ retention (7 days), not before', async () => {
    sink.script['/dead'] = () => ({ status: 500, body: 'down' });
    const id = await publish('/dead', { 'Upstash-Retries': '0' });
    await waitForState(stack, id, 'FAILED');
    const inDlq = async () => (await stack.api('GET', `/v2/dlq?messageId=${id}`)).json.messages.length;
    expect(await inDlq()).toBe(1);
    await advance('6d');
    await settle();
    expect(await inDlq()).toBe(1);
    await advance('1d1m');
    await eventually(async () => (await inDlq()) === 0, 'the DLQ entry to expire');
  });
});

describe('schedules follow the clock', () => {
  const schedule = async (path: string, cron: string): Promise<string> => {
    const response = await stack.api('POST', `/v2/schedules/${sink.url}${path}`, {
      headers: { 'Upstash-Cron': cron },
    });
    expect(response.status, response.text).toBe(200);
    return response.json.scheduleId;
  };

  it('fires a daily schedule once after advancing a day, and names its tick as the next due item', async () => {
    const id = await schedule('/daily', '17 3 * * *');
    const { now, next } = await clockNow();
    expect(next?.dueAt).toBeLessThanOrEqual(now + DAY);
    const tick = (await stack.api('GET', `/v2/schedules/${id}`)).json.nextScheduleTime as number;
    expect(tick - now).toBeLessThanOrEqual(DAY);
    const due = await stack.api('GET', `/local/schedules/${id}/due`);
    expect(due.json.items).toEqual([{ kind: 'schedule', scheduleId: id, dueAt: tick }]);
    await advance('1d');
    const [tickMessage] = await deliveredOnly('/daily', 1, 200);
    expect(tickMessage?.headers['upstash-schedule-id']).toBe(id);
    await stack.api('DELETE', `/v2/schedules/${id}`);
  });

  it('fires a schedule once for all the ticks an advance passes (the missed-tick rule)', async () => {
    await earlyInAMinute();
    const id = await schedule('/minutely', '* * * * *');
    await advance('1d');
    await deliveredOnly('/minutely', 1, 300);
    await advance('1m');
    await sink.waitFor(2, { match: at('/minutely') });
    await stack.api('DELETE', `/v2/schedules/${id}`);
  }, 60_000);
});

describe('the offset across restarts', () => {
  it('keeps the offset in the data dir: a restart never moves time back', async () => {
    const dataDir = tempDir();
    const start = () =>
      startStack({ port: 0, kv: false, dataDir, writerScript: WRITER_SCRIPT, warmUp: false });
    try {
      const first = await start();
      const url = first.info.messages.url;
      const request = (path: string, body?: string) =>
        fetch(url + path, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${DEV_TOKEN}` },
          body,
        }).then((response) => response.json() as Promise<{ now: number; offsetMs: number }>);
      expect((await request('/local/clock')).offsetMs).toBe(0);
      const advanced = await request('/local/clock/advance', '{"by":"7d"}');
      expect(advanced.offsetMs).toBe(7 * DAY);
      await first.close(500);

      const second = await start();
      try {
        expect(second.clock.offsetMs()).toBe(7 * DAY);
        expect(second.clock.now()).toBeGreaterThanOrEqual(advanced.now);
        const secondUrl = second.info.messages.url;
        const read = await fetch(`${secondUrl}/local/clock`, {
          headers: { authorization: `Bearer ${DEV_TOKEN}` },
        }).then((response) => response.json() as Promise<{ offsetMs: number }>);
        expect(read.offsetMs).toBe(7 * DAY);
      } finally {
        await second.close(500);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
