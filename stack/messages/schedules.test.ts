// Schedules on the local stack, driven by the vendor's own client (@upstash/qstash 2.12.0) where it has a
// call for it, and with a manual clock: ticks fire when the clock reaches them, never in real minutes.
import type { Client, CreateScheduleRequest, Schedule } from '@upstash/qstash';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { PLAN_AHEAD_MS } from './schedule-scheduler';
import {
  eventually,
  sdkClient,
  settle,
  startSink,
  startTestStack,
  type Sink,
  type TestStack,
  waitForState,
} from './test-support';

const MINUTE = 60_000;
let stack: TestStack;
let sink: Sink;
let client: Client;
let clock: ManualClock;

beforeAll(async () => {
  // 12:00:30 UTC: the next "* * * * *" tick is 30 s away.
  clock = new ManualClock(Date.UTC(2026, 0, 5, 12, 0, 30));
  stack = await startTestStack({ clock });
  sink = await startSink(() => ({}));
  client = sdkClient(stack);
});

afterAll(async () => {
  await stack.close();
  await sink.close();
});

beforeEach(async () => {
  for (const schedule of await client.schedules.list()) await client.schedules.delete(schedule.scheduleId);
  sink.received.length = 0;
});

/** Resolves after the turns the stack queued so far (the scheduler plans and fires on the next turn). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Moves the clock to the next whole minute (+ `extra` ms) and returns that minute. */
function toNextMinute(extra = 0): number {
  const minute = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE;
  clock.set(minute + extra);
  return minute;
}

const path = (name: string): string => `${sink.url}/${name}`;
const deliveries = (name: string) => sink.received.filter((r) => r.url === `/${name}`);

/**
 * A `* * * * *` schedule to the sink's /name, with any other settings in `more` (a `scheduleId` updates one in
 * place).
 */
const everyMinute = (name: string, more: Omit<CreateScheduleRequest, 'destination' | 'cron'> = {}) =>
  client.schedules.create({ destination: path(name), cron: '* * * * *', ...more });

describe('the SDK’s schedule calls (cases of qstash-js src/client/schedules.test.ts)', () => {
  it('schedules a message with a label', async () => {
    const { scheduleId } = await client.schedules.create({
      destination: path('label'),
      cron: '*/10 * * * *',
      label: 'schedule-label',
    });
    const scheduled = await client.schedules.get(scheduleId);
    expect(scheduled.label).toBe('schedule-label');
    expect(scheduled.labels).toEqual(['schedule-label']);
    await client.schedules.delete(scheduleId);
    await expect(client.schedules.get(scheduleId)).rejects.toThrow(/not found/);
  });

  it('schedules a message then verifies it (every setting comes back)', async () => {
    const { scheduleId } = await client.schedules.create({
      destination: path('verify'),
      body: JSON.stringify({ hello: 'world' }),
      headers: { 'test-header': 'test-value', 'Upstash-Forward-bypass-tunnel-reminder': 'client-test' },
      method: 'GET',
      callback: 'https://example.com',
      failureCallback: 'https://example.com/failure',
      delay: 10,
      retries: 5,
      queueName: 'scheduleQueue',
      cron: '*/10 * * * * ',
    });
    expect(scheduleId).toMatch(/^scd_/);
    const scheduled = await client.schedules.get(scheduleId);
    expect(scheduled).toEqual(
      expect.objectContaining({
        cron: '*/10 * * * *',
        destination: path('verify'),
        method: 'GET',
        header: {
          'Bypass-Tunnel-Reminder': ['client-test'],
          'Content-Type': ['application/json'],
          'Test-Header': ['test-value'],
        },
        body: '{"hello":"world"}',
        retries: 5,
        delay: 10,
        callback: 'https://example.com',
        failureCallback: 'https://example.com/failure',
        queueName: 'scheduleQueue',
        isPaused: false,
        createdAt: clock.now(),
        nextScheduleTime: Date.UTC(2026, 0, 5, 12, 10),
      }) as Schedule,
    );
    expect(scheduled.callerIp).toBe('127.0.0.1');
  });

  it('lists schedules', async () => {
    const { scheduleId: one } = await client.schedules.create({
      destination: path('a'),
      cron: '*/10 * * * * ',
    });
    const { scheduleId: two } = await client.schedules.create({
      destination: path('b'),
      cron: '*/10 * * * * ',
    });
    const listed = await client.schedules.list();
    expect(listed.map((s) => s.scheduleId).sort()).toEqual([one, two].sort());
  });

  it('pauses and resumes (the SDK sends PATCH)', async () => {
    const { scheduleId } = await client.schedules.create({
      cron: '1 1 1 1 1',
      destination: path('pause'),
      body: JSON.stringify({ ex_key: 'ex_value' }),
    });
    let got = await client.schedules.get(scheduleId);
    expect(got).toMatchObject({ scheduleId, cron: '1 1 1 1 1', isPaused: false });
    await client.schedules.pause({ schedule: scheduleId });
    got = await client.schedules.get(scheduleId);
    expect(got.isPaused).toBe(true);
    expect(got.nextScheduleTime).toBeUndefined();
    await client.schedules.resume({ schedule: scheduleId });
    got = await client.schedules.get(scheduleId);
    expect(got.isPaused).toBe(false);
    expect(got.nextScheduleTime).toBeGreaterThan(clock.now());
  });

  it('edits an existing schedule in place (Upstash-Schedule-Id)', async () => {
    const scheduleId = 'my-id_1.x';
    expect(await client.schedules.list()).toHaveLength(0);
    await client.schedules.create({
      destination: path('initial'),
      cron: '*/5 * * * *',
      scheduleId,
      body: 'my-payload',
    });
    let listed = await client.schedules.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ scheduleId, destination: path('initial'), body: 'my-payload' });
    const createdAt = listed[0]?.createdAt;
    clock.advance(1_000);
    await client.schedules.create({ destination: path('updated'), cron: '*/5 * * * *', scheduleId });
    listed = await client.schedules.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]?.scheduleId).toBe(scheduleId);
    expect(listed[0]?.destination).toBe(path('updated'));
    expect(listed[0]?.body).toBeUndefined();
    expect(listed[0]?.createdAt).toBe(createdAt);
  });

  it('creates a schedule with flow control and a retry delay', async () => {
    const retryDelay = 'pow(retried, 2) * 1000';
    const { scheduleId } = await client.schedules.create({
      destination: path('flow'),
      cron: '*/5 * * * *',
      body: 'my-payload',
      flowControl: { key: 'flow-key', parallelism: 10, rate: 5, period: '1d' },
      retryDelay,
    });
    const schedule = await client.schedules.get(scheduleId);
    expect(schedule).toMatchObject({
      flowControlKey: 'flow-key',
      parallelism: 10,
      rate: 5,
      ratePerSecond: 5,
      period: 86_400,
      retryDelayExpression: retryDelay,
    });
  });

  it('keeps redact fields and several labels, and forwards the SDK’s global headers', async () => {
    const withHeaders = sdkClient(stack, { headers: { 'global-header': 'g' } });
    const { scheduleId } = await withHeaders.schedules.create({
      scheduleId: 'test-redact',
      destination: path('redact'),
      cron: '* * * * 1',
      body: JSON.stringify({ secret: 'data' }),
      label: ['label-1', 'label-2'],
      redact: { body: true, header: ['Authorization'] },
      headers: { 'content-type': 'application/json', 'request-header': 'r' },
    });
    expect(scheduleId).toBe('test-redact');
    const schedule = await client.schedules.get(scheduleId);
    expect(schedule.labels).toEqual(['label-1', 'label-2']);
    expect(schedule.header).toMatchObject({ 'Global-Header': ['g'], 'Request-Header': ['r'] });
  });

  it('refuses empty ids in the client, and unknown ids with 404', async () => {
    await expect(client.schedules.get('')).rejects.toThrow('Schedule id cannot be empty');
    await expect(client.schedules.get('nope')).rejects.toThrow("schedule 'nope' not found");
    await expect(client.schedules.delete('nope')).rejects.toThrow("schedule 'nope' not found");
    await expect(client.schedules.pause({ schedule: 'nope' })).rejects.toThrow('not found');
  });
});

describe('firing', () => {
  it('publishes each tick with Upstash-Schedule-Id, logged with the schedule id, and records the run', async () => {
    const { scheduleId } = await everyMinute('tick', { body: 'tick', headers: { 'x-custom': 'c' } });
    const minute = toNextMinute();
    const [delivery] = await sink.waitFor(1, { match: (r) => r.url === '/tick' });
    expect(delivery?.headers['upstash-schedule-id']).toBe(scheduleId);
    expect(delivery?.headers['x-custom']).toBe('c');
    expect(delivery?.body.toString()).toBe('tick');
    const messageId = delivery?.headers['upstash-message-id'] as string;
    const [event] = await waitForState(stack, messageId, 'DELIVERED');
    expect(event.scheduleId).toBe(scheduleId);
    const logs = await stack.api('GET', `/v2/logs?scheduleId=${scheduleId}&state=CREATED`);
    expect(logs.json.events.map((e: { messageId: string }) => e.messageId)).toEqual([messageId]);
    const schedule = await eventually(async () => {
      const got = await client.schedules.get(scheduleId);
      return got.lastScheduleStates?.[messageId] === 'SUCCESS' ? got : undefined;
    }, 'the run recorded as SUCCESS');
    expect(schedule.lastScheduleTime).toBe(minute);
    expect(schedule.nextScheduleTime).toBe(minute + MINUTE);
  });

  it('fires once for the ticks a clock step passed (the missed-tick rule), then at its next tick', async () => {
    await everyMinute('steps');
    const first = toNextMinute();
    clock.set(first + 3 * MINUTE);
    await sink.waitFor(1, { match: (r) => r.url === '/steps' });
    await settle(200);
    expect(deliveries('steps')).toHaveLength(1);
    toNextMinute();
    await sink.waitFor(2, { match: (r) => r.url === '/steps' });
    await settle(200);
    const ids = new Set(deliveries('steps').map((r) => r.headers['upstash-message-id']));
    expect(ids.size).toBe(2);
  });

  it('does not fire while paused, and a resumed schedule waits for its next tick', async () => {
    const { scheduleId } = await everyMinute('paused');
    await client.schedules.pause({ schedule: scheduleId });
    toNextMinute();
    clock.advance(2 * MINUTE);
    await settle(200);
    expect(deliveries('paused')).toHaveLength(0);
    // The vendor's API reference documents POST for pause/resume.
    expect((await stack.api('POST', `/v2/schedules/${scheduleId}/resume`)).status).toBe(200);
    await settle(100);
    expect(deliveries('paused')).toHaveLength(0);
    toNextMinute();
    await sink.waitFor(1, { match: (r) => r.url === '/paused' });
  });

  it('fires the update, not the old publish, after an update in place', async () => {
    await everyMinute('old', { scheduleId: 'moving' });
    await everyMinute('new', { scheduleId: 'moving' });
    toNextMinute();
    await sink.waitFor(1, { match: (r) => r.url === '/new' });
    await settle(100);
    expect(deliveries('old')).toHaveLength(0);
    expect(deliveries('new')).toHaveLength(1);
  });

  it('leaves a schedule paused, deleted or updated after its tick was planned out of that tick', async () => {
    await everyMinute('ahead-kept');
    const { scheduleId: paused } = await everyMinute('ahead-paused');
    const { scheduleId: deleted } = await everyMinute('ahead-deleted');
    await everyMinute('ahead-old', { scheduleId: 'ahead-updated' });
    // Inside PLAN_AHEAD_MS of the tick: the scheduler plans the four runs on its next turn (the stack runs in
    // this process), before the requests below reach it; the update's new version is planned likewise.
    const minute = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE;
    clock.set(minute - PLAN_AHEAD_MS / 2);
    await nextTurn();
    await client.schedules.pause({ schedule: paused });
    await client.schedules.delete(deleted);
    await everyMinute('ahead-new', { scheduleId: 'ahead-updated' });
    await nextTurn();
    clock.set(minute);
    await sink.waitFor(2, { match: (r) => r.url === '/ahead-kept' || r.url === '/ahead-new' });
    await settle(200);
    expect(deliveries('ahead-kept')).toHaveLength(1);
    expect(deliveries('ahead-new')).toHaveLength(1);
    expect(deliveries('ahead-old')).toHaveLength(0);
    expect(deliveries('ahead-paused')).toHaveLength(0);
    expect(deliveries('ahead-deleted')).toHaveLength(0);
    expect((await client.schedules.get('ahead-updated')).nextScheduleTime).toBe(minute + MINUTE);
  });

  it('commits a tick ahead as messages due at the tick; a pause before the tick takes them back without a trace', async () => {
    const { scheduleId: kept } = await everyMinute('early-kept');
    const { scheduleId: paused } = await everyMinute('early-paused');
    const minute = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE;
    clock.set(minute - PLAN_AHEAD_MS / 2);
    // Committed ahead: each schedule has its tick's message pending, created at the tick and not delivered.
    const pendingOf = async (scheduleId: string) =>
      (await client.logs({ filter: { scheduleId } })).logs.filter((log) => log.state === 'CREATED');
    const committed = (scheduleId: string) =>
      eventually(
        async () => ((await pendingOf(scheduleId)).length === 1 ? pendingOf(scheduleId) : undefined),
        `the tick of ${scheduleId} committed ahead`,
      );
    const [keptMessage] = await committed(kept);
    await committed(paused);
    expect(keptMessage?.time).toBe(minute);
    expect((await client.schedules.get(kept)).nextScheduleTime).toBe(minute + MINUTE);
    await settle(50);
    expect(deliveries('early-kept')).toHaveLength(0);

    await client.schedules.pause({ schedule: paused });
    expect((await client.logs({ filter: { scheduleId: paused } })).logs).toEqual([]);
    const pausedSchedule = await client.schedules.get(paused);
    expect(pausedSchedule.isPaused).toBe(true);
    expect(pausedSchedule.lastScheduleTime).toBeUndefined();

    clock.set(minute);
    const [delivered] = await sink.waitFor(1, { match: (r) => r.url === '/early-kept' });
    expect(delivered?.headers['upstash-message-id']).toBe(keptMessage?.messageId);
    await settle(200);
    expect(deliveries('early-kept')).toHaveLength(1);
    expect(deliveries('early-paused')).toHaveLength(0);
  });

  it('fires each of 250 schedules due at the same tick once', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 250; i++) {
      ids.add((await everyMinute('many')).scheduleId);
    }
    toNextMinute();
    const received = await sink.waitFor(250, { match: (r) => r.url === '/many', timeoutMs: 30_000 });
    await settle(300);
    expect(deliveries('many')).toHaveLength(250);
    expect(new Set(received.map((r) => r.headers['upstash-schedule-id']))).toEqual(ids);
  });

  it('follows CRON_TZ', async () => {
    // 12:xx UTC is 13:xx in Berlin (winter): a 13:30 Berlin schedule fires at 12:30 UTC.
    const { scheduleId } = await client.schedules.create({
      destination: path('zone'),
      cron: 'CRON_TZ=Europe/Berlin 30 13 * * *',
    });
    const schedule = await client.schedules.get(scheduleId);
    const day = Math.floor(clock.now() / 86_400_000) * 86_400_000;
    const expected = day + 12.5 * 3_600_000 + (clock.now() >= day + 12.5 * 3_600_000 ? 86_400_000 : 0);
    expect(schedule.cron).toBe('CRON_TZ=Europe/Berlin 30 13 * * *');
    expect(schedule.nextScheduleTime).toBe(expected);
  });

  it('delays each message by Upstash-Delay after its tick', async () => {
    const { scheduleId } = await everyMinute('delayed', { delay: 30 });
    const minute = toNextMinute();
    const logs = await eventually(async () => {
      const response = await stack.api('GET', `/v2/logs?scheduleId=${scheduleId}&state=CREATED`);
      return response.json.events.length > 0 ? response.json.events : undefined;
    }, 'the tick’s message');
    expect(logs[0].nextDeliveryTime).toBe(minute + 30_000);
    await settle(100);
    expect(deliveries('delayed')).toHaveLength(0);
    clock.advance(30_000);
    await sink.waitFor(1, { match: (r) => r.url === '/delayed' });
  });

  it('publishes to a URL group (one message per endpoint) and through a queue', async () => {
    await stack.api('POST', '/v2/topics/sched-group/endpoints', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endpoints: [{ url: path('g1') }, { url: path('g2') }] }),
    });
    const { scheduleId: groupSchedule } = await client.schedules.create({
      destination: 'sched-group',
      cron: '* * * * *',
    });
    const { scheduleId: queued } = await everyMinute('queued', { queueName: 'sched-queue' });
    toNextMinute();
    const group = await sink.waitFor(2, { match: (r) => r.url === '/g1' || r.url === '/g2' });
    for (const delivery of group) {
      expect(delivery.headers['upstash-schedule-id']).toBe(groupSchedule);
      expect(delivery.headers['upstash-topic-name']).toBe('sched-group');
    }
    const [viaQueue] = await sink.waitFor(1, { match: (r) => r.url === '/queued' });
    const message = await waitForState(stack, viaQueue?.headers['upstash-message-id'] as string, 'DELIVERED');
    expect(message[0]).toMatchObject({ queueName: 'sched-queue', scheduleId: queued });
    const states = await eventually(async () => {
      const got = await client.schedules.get(groupSchedule);
      const values = Object.values(got.lastScheduleStates ?? {});
      return values.length === 2 && values.every((v) => v === 'SUCCESS') ? values : undefined;
    }, 'both endpoints’ messages recorded');
    expect(states).toHaveLength(2);

    // The group is deleted: the next tick publishes nothing and says why.
    await stack.api('DELETE', '/v2/topics/sched-group');
    toNextMinute();
    // `error` is in the service's record but not in the SDK's type.
    const failed = await eventually(async () => {
      const got = (await stack.api('GET', `/v2/schedules/${groupSchedule}`)).json;
      return got.error ? got : undefined;
    }, 'the failed tick’s error');
    expect(failed.error).toBe("URL group 'sched-group' not found");
    expect(failed.lastScheduleStates).toEqual({});
  });

  it('records a failed delivery as FAIL', async () => {
    const failing = await startSink(() => ({ status: 500 }));
    const { scheduleId } = await client.schedules.create({
      destination: `${failing.url}/fail`,
      cron: '* * * * *',
      retries: 0,
    });
    toNextMinute();
    const got = await eventually(async () => {
      const schedule = await client.schedules.get(scheduleId);
      return Object.values(schedule.lastScheduleStates ?? {})[0] === 'FAIL' ? schedule : undefined;
    }, 'the run recorded as FAIL');
    expect(Object.keys(got.lastScheduleStates ?? {})).toHaveLength(1);
    await failing.close();
  });

  it('triggers now: one message with the schedule id, the next tick unmoved', async () => {
    const { scheduleId } = await client.schedules.create({ destination: path('now'), cron: '0 0 1 1 *' });
    const before = await client.schedules.get(scheduleId);
    const response = await stack.api('POST', `/local/schedules/${scheduleId}/trigger`);
    expect(response.status).toBe(200);
    expect(response.json.messageIds).toHaveLength(1);
    const [delivery] = await sink.waitFor(1, { match: (r) => r.url === '/now' });
    expect(delivery?.headers['upstash-schedule-id']).toBe(scheduleId);
    const after = await client.schedules.get(scheduleId);
    expect(after.nextScheduleTime).toBe(before.nextScheduleTime);
    expect(Object.keys(after.lastScheduleStates ?? {})).toEqual(response.json.messageIds);
    expect((await stack.api('POST', '/local/schedules/nope/trigger')).status).toBe(404);
  });
});

describe('bad input', () => {
  const create = (destination: string, headers: Record<string, string>) =>
    stack.api('POST', `/v2/schedules/${destination}`, { headers, body: 'x' });

  it('answers 400 or 404 with an error that names the problem', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      [path('x'), {}, 400, 'missing Upstash-Cron'],
      [path('x'), { 'upstash-cron': '61 * * * *' }, 400, 'invalid Upstash-Cron: invalid cron expression'],
      [path('x'), { 'upstash-cron': '* * * *' }, 400, 'five fields'],
      [path('x'), { 'upstash-cron': 'CRON_TZ=Mars/Base * * * * *' }, 400, "unknown time zone 'Mars/Base'"],
      [path('x'), { 'upstash-cron': '0 0 30 2 *' }, 400, 'never fires'],
      ['ftp://example.com', { 'upstash-cron': '* * * * *' }, 400, 'invalid destination url'],
      ['no-such-group', { 'upstash-cron': '* * * * *' }, 404, "URL group 'no-such-group' not found"],
      [
        path('x'),
        { 'upstash-cron': '* * * * *', 'upstash-schedule-id': 'a b' },
        400,
        'invalid Upstash-Schedule-Id',
      ],
      [path('x'), { 'upstash-cron': '* * * * *', 'upstash-retries': 'many' }, 400, 'Upstash-Retries'],
      [path('x'), { 'upstash-cron': '* * * * *', 'upstash-not-before': '1' }, 400, 'Upstash-Not-Before'],
      [path('x'), { 'upstash-cron': '* * * * *', 'upstash-queue-name': 'a/b' }, 400, 'queue name'],
    ];
    for (const [destination, headers, status, error] of cases) {
      const response = await create(destination, headers);
      expect({ destination, headers, status: response.status }).toEqual({ destination, headers, status });
      expect(response.json.error, JSON.stringify(headers)).toContain(error);
    }
    expect(await client.schedules.list()).toHaveLength(0);
  });

  it('answers 404 for unknown ids and 405 for wrong methods', async () => {
    for (const [method, route] of [
      ['GET', '/v2/schedules/nope'],
      ['DELETE', '/v2/schedules/nope'],
      ['PATCH', '/v2/schedules/nope/pause'],
      ['POST', '/v2/schedules/nope/resume'],
    ] as const) {
      const response = await stack.api(method, route);
      expect(response.status, `${method} ${route}`).toBe(404);
      expect(response.json.error).toBe("schedule 'nope' not found");
    }
    expect((await stack.api('PUT', '/v2/schedules/nope')).status).toBe(405);
  });
});

describe('durability', () => {
  it('a tick missed while the stack was down fires once on restart, then the cron goes on', async () => {
    const { scheduleId } = await everyMinute('missed');
    await stack.close(false);
    // Five ticks pass while the stack is down.
    const minute = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE;
    clock.set(minute + 4 * MINUTE + 20_000);
    stack = await stack.restart();
    client = sdkClient(stack);
    await sink.waitFor(1, { match: (r) => r.url === '/missed' });
    await settle(300);
    expect(deliveries('missed')).toHaveLength(1);
    const schedule = await client.schedules.get(scheduleId);
    expect(schedule.lastScheduleTime).toBe(clock.now());
    expect(schedule.nextScheduleTime).toBe(minute + 5 * MINUTE);
    toNextMinute();
    await sink.waitFor(2, { match: (r) => r.url === '/missed' });
  });

  it('a tick planned ahead but not reached before the stack stopped fires once on restart', async () => {
    await everyMinute('planned');
    const minute = Math.floor(clock.now() / MINUTE) * MINUTE + MINUTE;
    clock.set(minute - PLAN_AHEAD_MS / 2);
    await settle(50);
    await stack.close(false);
    clock.set(minute + 20_000);
    stack = await stack.restart();
    client = sdkClient(stack);
    const [delivery] = await sink.waitFor(1, { match: (r) => r.url === '/planned' });
    await settle(300);
    expect(deliveries('planned')).toHaveLength(1);
    expect(delivery?.headers['upstash-schedule-id']).toMatch(/^scd_/);
  });
});
