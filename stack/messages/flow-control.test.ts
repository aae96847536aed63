// Flow-control management against the stack: the cases of @upstash/qstash 2.12's own flow-control tests
// (src/client/flow-control.test.ts), driven by the real SDK, then what they do not check — pause holding
// deliveries and resume releasing them in order, pins overriding new messages, resetRate, the list,
// the local history and hold endpoints, and bad input.
import { type Client, QstashError } from '@upstash/qstash';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually, sdkClient, settle, useStackAndSink } from './test-support';

const env = useStackAndSink();
let client: Client;
/** Replies the sink holds open (an attempt "in flight"), released after each test. */
const holds: (() => void)[] = [];

beforeAll(() => {
  client = sdkClient(env.stack);
});
afterEach(() => {
  for (const release of holds.splice(0)) release();
});

/** The sink holds every request to `/slow` open until the test ends (like the SDK tests' `sleep=30000`). */
function slowSink(): string {
  const previous = env.behaviour;
  env.behaviour = (path) =>
    path === '/slow' ? { wait: new Promise<void>((resolve) => holds.push(resolve)) } : previous(path);
  return `${env.sink.url}/slow`;
}

/** What each of the SDK's cases starts with: a message (held in flight) that makes a fresh key exist. */
async function publishWithKey(prefix: string): Promise<{ key: string; messageId: string }> {
  const key = `${prefix}-${Date.now()}`;
  const flowControl = { key, parallelism: 5, rate: 10, period: '1m' as const };
  const { messageId } = await client.publish({ url: slowSink(), body: 'hello', flowControl });
  return { key, messageId };
}

describe('the SDK’s own flow-control cases', () => {
  it('rejects an empty key without a request', async () => {
    await expect(client.flowControl.get('')).rejects.toThrow('Flow control key cannot be empty');
  });

  it('publishes with flow control, then gets the key’s info', async () => {
    const { key, messageId } = await publishWithKey('fc-info');
    const single = await client.flowControl.get(key);
    expect(single.flowControlKey).toBe(key);
    expect(typeof single.waitListSize).toBe('number');
    expect(typeof single.parallelismMax).toBe('number');
    expect(typeof single.parallelismCount).toBe('number');
    // Beyond the SDK's typeof checks: the numbers are the key's.
    expect(single).toMatchObject({ parallelismMax: 5, rateMax: 10, ratePeriod: 60, isPaused: false });
    await eventually(
      async () => (await client.flowControl.get(key)).parallelismCount === 1,
      'the attempt in flight',
    );
    await client.messages.delete(messageId);
  });

  it('gets the global parallelism', async () => {
    const info = await client.flowControl.getGlobalParallelism();
    expect(typeof info.parallelismMax).toBe('number');
    expect(typeof info.parallelismCount).toBe('number');
    expect(info.parallelismMax).toBe(256);
  });

  it('pauses and resumes a key', async () => {
    const { key, messageId } = await publishWithKey('fc-pause');
    await client.flowControl.pause(key);
    expect((await client.flowControl.get(key)).isPaused).toBe(true);
    await client.flowControl.resume(key);
    expect((await client.flowControl.get(key)).isPaused).toBe(false);
    await client.messages.delete(messageId);
  });

  it.each([
    { what: 'both fields', name: 'fc-pin', unpin: { parallelism: true, rate: true }, rateStaysPinned: false },
    {
      what: 'a single field while keeping the other pinned',
      name: 'fc-unpin-single',
      unpin: { parallelism: true },
      rateStaysPinned: true,
    },
  ])('pins a key’s configuration and unpins $what', async ({ name, unpin, rateStaysPinned }) => {
    const { key, messageId } = await publishWithKey(name);
    await client.flowControl.pin(key, { parallelism: 3, rate: 20, period: 120 });
    expect(await client.flowControl.get(key)).toMatchObject({
      isPinnedParallelism: true,
      isPinnedRate: true,
      parallelismMax: 3,
      rateMax: 20,
      ratePeriod: 120,
    });
    await client.flowControl.unpin(key, unpin);
    expect(await client.flowControl.get(key)).toMatchObject({
      isPinnedParallelism: false,
      isPinnedRate: rateStaysPinned,
    });
    await client.messages.delete(messageId);
  });

  it('resets the rate of a key', async () => {
    const { key, messageId } = await publishWithKey('fc-reset');
    await client.flowControl.pause(key);
    await eventually(
      async () => (await client.flowControl.get(key)).rateCount === 1,
      'the first attempt counted',
    );
    await client.flowControl.resetRate(key);
    expect((await client.flowControl.get(key)).rateCount).toBe(0);
    await client.messages.delete(messageId);
  });
});

describe('flow-control semantics', () => {
  const publish = (path: string, key: string, value: string, extra: Record<string, string> = {}) =>
    env.stack.api('POST', `/v2/publish/${env.sink.url}${path}`, {
      headers: { 'upstash-flow-control-key': key, 'upstash-flow-control-value': value, ...extra },
      body: path,
    });

  it('pause holds every due message without losing one; resume delivers them in publish order', async () => {
    const key = 'hold-order';
    await publish('/order/0', key, 'parallelism=1');
    await env.sink.waitFor(1);
    await client.flowControl.pause(key);
    for (let i = 1; i <= 5; i++) await publish(`/order/${i}`, key, 'parallelism=1');
    await eventually(async () => (await client.flowControl.get(key)).waitListSize === 5, '5 waiting');
    await settle(200);
    expect(env.sink.received).toHaveLength(1);
    await client.flowControl.resume(key);
    const all = await env.sink.waitFor(6);
    expect(all.map((r) => r.url)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/order/${i}`));
    await eventually(async () => (await client.flowControl.get(key)).waitListSize === 0, 'empty waitlist');
  });

  it('a pinned parallelism wins over new messages until unpinned', async () => {
    const key = 'pin-wins';
    slowSink();
    await env.stack.api('POST', `/v2/publish/${env.sink.url}/slow`, {
      headers: { 'upstash-flow-control-key': key, 'upstash-flow-control-value': 'parallelism=1' },
    });
    await client.flowControl.pin(key, { parallelism: 2 });
    for (let i = 0; i < 3; i++) {
      await env.stack.api('POST', `/v2/publish/${env.sink.url}/slow`, {
        headers: { 'upstash-flow-control-key': key, 'upstash-flow-control-value': 'parallelism=10' },
      });
    }
    await env.sink.waitFor(2);
    await settle(200);
    expect(env.sink.open).toBe(2);
    expect(await client.flowControl.get(key)).toMatchObject({
      parallelismMax: 2,
      parallelismCount: 2,
      waitListSize: 2,
      isPinnedParallelism: true,
    });
    await client.flowControl.unpin(key, { parallelism: true });
    expect((await client.flowControl.get(key)).parallelismMax).toBe(2); // until a message says otherwise
    await env.stack.api('POST', `/v2/publish/${env.sink.url}/slow`, {
      headers: { 'upstash-flow-control-key': key, 'upstash-flow-control-value': 'parallelism=10' },
    });
    await env.sink.waitFor(5);
    expect((await client.flowControl.get(key)).parallelismMax).toBe(10);
  });

  it('resetRate (or reset) lets the messages held by a full rate period go at once', async () => {
    const key = 'reset-go';
    for (let i = 0; i < 3; i++) await publish(`/rate/${i}`, key, 'rate=1, period=1h');
    await env.sink.waitFor(1);
    await eventually(async () => (await client.flowControl.get(key)).waitListSize === 2, '2 waiting');
    await client.flowControl.resetRate(key);
    await env.sink.waitFor(2);
    expect(await client.flowControl.get(key)).toMatchObject({ rateCount: 1, waitListSize: 1 });
    // `/reset` is the same action under the name the vendor's changelog (February 2026) gives it.
    expect((await env.stack.api('POST', `/v2/flowControl/${key}/reset`)).status).toBe(200);
    await env.sink.waitFor(3);
    expect(await client.flowControl.get(key)).toMatchObject({ rateCount: 1, waitListSize: 0 });
  });

  it('lists keys (with the docs’ spelling too), searches them, and answers the local extras', async () => {
    // A key exists once a message used it.
    expect((await env.stack.api('POST', '/v2/flowControl/listed-a/pause')).status).toBe(404);
    await publish('/listed', 'listed-a', 'parallelism=1');
    await client.flowControl.pause('listed-a');
    await publish('/listed', 'listed-a', 'parallelism=1');
    await publish('/listed', 'listed-b', 'rate=3');
    const list = await env.stack.api('GET', '/v2/flowControl?search=LISTED');
    expect(list.status).toBe(200);
    expect(list.json.map((item: { flowControlKey: string }) => item.flowControlKey)).toEqual([
      'listed-a',
      'listed-b',
    ]);
    expect(list.json[0]).toMatchObject({
      isPaused: true,
      waitListSize: 1,
      waitlistSize: 1,
      parallelismMax: 1,
    });

    const history = await env.stack.api('GET', '/local/flowControl/listed-b/history');
    expect(history.json).toMatchObject({ flowControlKey: 'listed-b', bucketMs: 10_000 });
    await eventually(async () => {
      const points = (await env.stack.api('GET', '/local/flowControl/listed-b/history')).json.points;
      return points.at(-1)?.delivered === 1;
    }, 'one delivery in the history');

    const logs = await env.stack.api('GET', '/v2/logs?flowControlKey=listed-a&state=CREATED');
    const held = logs.json.events[0].messageId as string;
    const hold = await env.stack.api('GET', `/local/flowControl/listed-a/messages/${held}`);
    expect(hold.json).toEqual({
      flowControlKey: 'listed-a',
      messageId: held,
      waiting: true,
      ahead: 0,
      isPaused: true,
    });
    await client.flowControl.resume('listed-a');
  });

  it('answers bad input with 400/404 JSON errors', async () => {
    await publish('/bad', 'bad-input', 'parallelism=1');
    const cases: [string, string, number, RegExp][] = [
      ['GET', '/v2/flowControl/no-such-key', 404, /flow-control key 'no-such-key' not found/],
      ['POST', '/v2/flowControl/no-such-key/resume', 404, /not found/],
      ['POST', '/v2/flowControl//pause', 400, /must not be empty/],
      ['POST', '/v2/flowControl/bad-input/explode', 404, /actions: pause, resume/],
      ['POST', `/v2/flowControl/${'k'.repeat(201)}/pause`, 400, /1 to 200 characters/],
      ['POST', '/v2/flowControl/bad-input/pin', 400, /pin needs parallelism, rate or period/],
      ['POST', '/v2/flowControl/bad-input/pin?parallelism=0', 400, /parallelism must be a whole number/],
      ['POST', '/v2/flowControl/bad-input/pin?rate=abc', 400, /invalid rate 'abc'/],
      ['POST', '/v2/flowControl/bad-input/pin?period=8d&rate=1', 400, /period must be/],
      ['POST', '/v2/flowControl/bad-input/pin?period=60', 400, /has no rate/],
      ['POST', '/v2/flowControl/bad-input/unpin', 400, /unpin needs/],
      ['POST', '/v2/flowControl/bad-input/unpin?rate=maybe', 400, /must be true or false/],
      ['DELETE', '/v2/flowControl/bad-input', 405, /not allowed/],
      ['GET', '/local/flowControl/no-such-key/history', 404, /not found/],
    ];
    for (const [method, path, status, error] of cases) {
      const response = await env.stack.api(method, path);
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(response.json.error).toMatch(error);
    }
    // What the SDK surfaces for them.
    await expect(client.flowControl.get('no-such-key')).rejects.toBeInstanceOf(QstashError);
    // Nothing changed on the key the bad requests named.
    expect(await client.flowControl.get('bad-input')).toMatchObject({
      parallelismMax: 1,
      isPaused: false,
      isPinnedParallelism: false,
      isPinnedRate: false,
    });
    // A duration is fine as a pin's period.
    expect((await env.stack.api('POST', '/v2/flowControl/bad-input/pin?rate=2&period=1m')).status).toBe(200);
    expect(await client.flowControl.get('bad-input')).toMatchObject({ rateMax: 2, ratePeriod: 60 });
  });
});
