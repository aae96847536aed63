// Retries, backoff, Retry-After, non-retryable errors, timeouts, callbacks, failure callbacks and the DLQ,
// with a manual clock so that backoffs of hours take milliseconds.
import { HttpTransport, type Transport } from './delivery';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  settle,
  startSink,
  startTestStack,
  useStackAndSink,
  waitForState,
  type SinkReply,
} from './test-support';

const env = useStackAndSink();
/** Per-path behaviour of the sink by attempt (0 = first); default 200. */
let behaviour: Record<string, (attempt: number) => SinkReply> = {};
const attempts = new Map<string, number>();

beforeEach(() => {
  behaviour = {};
  attempts.clear();
  env.behaviour = (path) => {
    const attempt = attempts.get(path) ?? 0;
    attempts.set(path, attempt + 1);
    return behaviour[path]?.(attempt) ?? {};
  };
});

const at = (path: string) => (r: { url: string }) => r.url.split('?')[0] === path;

async function publish(
  path: string,
  headers: Record<string, string> = {},
  body = 'payload',
): Promise<string> {
  const response = await env.stack.api('POST', `/v2/publish/${env.sink.url}${path}`, { headers, body });
  expect(response.status).toBe(200);
  return response.json.messageId;
}

/** The delay the engine chose for the next retry, read from the newest RETRY event. */
async function nextRetryDelay(id: string, count: number): Promise<number> {
  const events = await waitForState(env.stack, id, 'RETRY', count);
  const newest = events[0];
  return newest.nextDeliveryTime - newest.time;
}

describe('retries with the default backoff', () => {
  it('makes 1 + retries attempts with e^(2.5n) s between them, then fails into the DLQ', async () => {
    behaviour['/down'] = () => ({ status: 500, body: 'broken', headers: { 'x-why': 'db' } });
    const id = await publish('/down', { 'Upstash-Retries': '2' });
    await env.sink.waitFor(1, { match: at('/down') });
    expect(await nextRetryDelay(id, 1)).toBe(Math.round(Math.exp(2.5) * 1000));
    env.stack.clock.advance(Math.round(Math.exp(2.5) * 1000) - 1);
    await settle();
    expect(env.sink.received.filter(at('/down'))).toHaveLength(1);
    env.stack.clock.advance(1);
    await env.sink.waitFor(2, { match: at('/down') });
    expect(await nextRetryDelay(id, 2)).toBe(Math.round(Math.exp(5) * 1000));
    env.stack.clock.advance(Math.round(Math.exp(5) * 1000));
    await env.sink.waitFor(3, { match: at('/down') });
    const failed = await waitForState(env.stack, id, 'FAILED');
    expect(failed[0]).toMatchObject({ messageId: id, state: 'FAILED', responseStatus: 500 });
    env.stack.clock.advance(86_400_000);
    await settle();
    const received = env.sink.received.filter(at('/down'));
    expect(received.map((r) => r.headers['upstash-retried'])).toEqual(['0', '1', '2']);
    expect(new Set(received.map((r) => r.headers['upstash-message-id']))).toEqual(new Set([id]));

    const dlq = await env.stack.api('GET', `/v2/dlq?messageId=${id}`);
    expect(dlq.json.messages).toHaveLength(1);
    expect(dlq.json.messages[0]).toMatchObject({
      messageId: id,
      dlqId: expect.stringMatching(/^\d+-\d+$/),
      responseStatus: 500,
      responseBody: 'broken',
      responseHeader: { 'x-why': ['db'] },
      maxRetries: 2,
      body: 'payload',
    });
    const states = (await env.stack.api('GET', `/v2/logs?messageId=${id}&count=100`)).json.events
      .map((e: { state: string }) => e.state)
      .reverse();
    expect(states).toEqual([
      'CREATED',
      'ACTIVE',
      'ERROR',
      'RETRY',
      'ACTIVE',
      'ERROR',
      'RETRY',
      'ACTIVE',
      'ERROR',
      'FAILED',
    ]);
  });

  it('makes exactly one attempt with Upstash-Retries: 0', async () => {
    behaviour['/once'] = () => ({ status: 502 });
    const id = await publish('/once', { 'Upstash-Retries': '0' });
    await waitForState(env.stack, id, 'FAILED');
    env.stack.clock.advance(86_400_000);
    await settle();
    expect(env.sink.received.filter(at('/once'))).toHaveLength(1);
  });

  it('uses the configured exponent factor', async () => {
    const other = await startTestStack({ backoffFactor: 2 });
    try {
      behaviour['/factor'] = () => ({ status: 500 });
      const response = await other.api('POST', `/v2/publish/${env.sink.url}/factor`, {
        headers: { 'Upstash-Retries': '1' },
      });
      const events = await waitForState(other, response.json.messageId, 'RETRY');
      expect(events[0].nextDeliveryTime - events[0].time).toBe(Math.round(Math.exp(2) * 1000));
    } finally {
      await other.close();
    }
  });
});

describe('retry delay overrides', () => {
  it('follows an Upstash-Retry-Delay expression', async () => {
    behaviour['/expr'] = () => ({ status: 500 });
    const id = await publish('/expr', {
      'Upstash-Retries': '3',
      'Upstash-Retry-Delay': '1000 * (1 + retried)',
    });
    expect(await nextRetryDelay(id, 1)).toBe(1000);
    env.stack.clock.advance(1000);
    await env.sink.waitFor(2, { match: at('/expr') });
    expect(await nextRetryDelay(id, 2)).toBe(2000);
  });

  it('lets a Retry-After answer win, in seconds, HTTP-date or Go duration form', async () => {
    behaviour['/after'] = (attempt) => ({
      status: 429,
      headers: {
        // An HTTP date is the destination's wall-clock time, whatever the stack's clock says.
        'Retry-After': ['7', '1m30s', new Date(Date.now() + 20_000).toUTCString()][attempt] ?? '1',
      },
    });
    const id = await publish('/after', { 'Upstash-Retries': '3', 'Upstash-Retry-Delay': '5' });
    expect(await nextRetryDelay(id, 1)).toBe(7000);
    env.stack.clock.advance(7000);
    await env.sink.waitFor(2, { match: at('/after') });
    expect(await nextRetryDelay(id, 2)).toBe(90_000);
    env.stack.clock.advance(90_000);
    await env.sink.waitFor(3, { match: at('/after') });
    const third = await nextRetryDelay(id, 3);
    expect(third).toBeGreaterThan(18_000);
    expect(third).toBeLessThanOrEqual(20_000);
  });

  it('ignores a Retry-After of more than a day and backs off normally', async () => {
    behaviour['/toolong'] = () => ({ status: 503, headers: { 'Retry-After': String(2 * 86_400) } });
    const id = await publish('/toolong', { 'Upstash-Retries': '1' });
    expect(await nextRetryDelay(id, 1)).toBe(Math.round(Math.exp(2.5) * 1000));
  });
});

describe('failures without retries left', () => {
  it('fails at once on 489 with Upstash-NonRetryable-Error: true', async () => {
    behaviour['/fatal'] = () => ({
      status: 489,
      headers: { 'Upstash-NonRetryable-Error': 'true' },
      body: 'no',
    });
    const id = await publish('/fatal', { 'Upstash-Retries': '5' });
    const failed = await waitForState(env.stack, id, 'FAILED');
    expect(failed[0].error).toMatch(/non-retryable/);
    env.stack.clock.advance(86_400_000);
    await settle();
    expect(env.sink.received.filter(at('/fatal'))).toHaveLength(1);
    const dlq = await env.stack.api('GET', `/v2/dlq?messageId=${id}`);
    expect(dlq.json.messages[0].responseStatus).toBe(489);
  });

  it('retries a 489 that does not carry the header', async () => {
    behaviour['/489'] = () => ({ status: 489 });
    const id = await publish('/489', { 'Upstash-Retries': '1' });
    await waitForState(env.stack, id, 'RETRY');
  });

  it('counts a timeout as a failed attempt', async () => {
    behaviour['/slow'] = () => ({ wait: new Promise((resolve) => setTimeout(resolve, 2_500)) });
    const id = await publish('/slow', { 'Upstash-Retries': '0', 'Upstash-Timeout': '1s' });
    const failed = await waitForState(env.stack, id, 'FAILED');
    expect(failed[0].error).toBe('timeout after 1s');
    const dlq = await env.stack.api('GET', `/v2/dlq?messageId=${id}`);
    expect(dlq.json.messages[0].responseStatus).toBe(0);
  });

  it('counts a refused connection as a failed attempt', async () => {
    const closed = await startSink();
    const url = closed.url;
    await closed.close();
    const response = await env.stack.api('POST', `/v2/publish/${url}/gone`, {
      headers: { 'Upstash-Retries': '0' },
    });
    const failed = await waitForState(env.stack, response.json.messageId, 'FAILED');
    expect(failed[0].error).toMatch(/ECONNREFUSED/);
  });
});

describe('callbacks', () => {
  it('calls back after every attempt with the vendor payload, using the callback options', async () => {
    behaviour['/flaky'] = (attempt) =>
      attempt === 0
        ? { status: 500, body: 'first failed', headers: { 'X-Attempt': 'first' } }
        : { body: 'done' };
    const id = await publish(
      '/flaky',
      {
        'Upstash-Retries': '2',
        'Upstash-Retry-Delay': '1000',
        'Upstash-Callback': `${env.sink.url}/cb`,
        'Upstash-Callback-Forward-X-Cb-Secret': 's3',
        'Upstash-Callback-Method': 'PUT',
        'Content-Type': 'text/plain',
        'Upstash-Forward-X-Source': 'src',
      },
      'original body',
    );
    await env.sink.waitFor(1, { match: at('/cb') });
    env.stack.clock.advance(1000);
    const callbacks = await env.sink.waitFor(2, { match: at('/cb') });
    const payloads = callbacks.map((c) => JSON.parse(c.body.toString()));
    const first = payloads.find((p) => p.status === 500);
    const second = payloads.find((p) => p.status === 200);
    expect(first).toMatchObject({
      status: 500,
      body: Buffer.from('first failed').toString('base64'),
      maxRetries: 2,
      sourceMessageId: id,
      url: `${env.sink.url}/flaky`,
      method: 'POST',
      sourceHeader: { 'Content-Type': ['text/plain'], 'X-Source': ['src'] },
      sourceBody: Buffer.from('original body').toString('base64'),
      callerIP: '127.0.0.1',
    });
    expect(first.retried).toBeUndefined();
    expect(typeof first.notBefore).toBe('number');
    expect(typeof first.createdAt).toBe('number');
    expect(first.header).toMatchObject({ 'x-attempt': ['first'] });
    expect(second).toMatchObject({ status: 200, retried: 1, body: Buffer.from('done').toString('base64') });
    for (const callback of callbacks) {
      expect(callback.method).toBe('PUT');
      expect(callback.headers['x-cb-secret']).toBe('s3');
      expect(callback.headers['content-type']).toBe('application/json');
      expect(callback.headers['upstash-signature']).toBeDefined();
      expect(callback.headers['upstash-message-id']).not.toBe(id);
    }
  });

  it('sends one failure callback with the DLQ id once retries are exhausted', async () => {
    behaviour['/dead'] = () => ({ status: 500, body: 'dead' });
    const id = await publish('/dead', {
      'Upstash-Retries': '1',
      'Upstash-Retry-Delay': '10',
      'Upstash-Failure-Callback': `${env.sink.url}/failed`,
      'Upstash-Failure-Callback-Forward-X-F': 'f',
    });
    await env.sink.waitFor(1, { match: at('/dead') });
    await waitForState(env.stack, id, 'RETRY');
    env.stack.clock.advance(10);
    const [failure] = await env.sink.waitFor(1, { match: at('/failed') });
    const payload = JSON.parse(failure?.body.toString() ?? '{}');
    const dlq = await env.stack.api('GET', `/v2/dlq?messageId=${id}`);
    expect(payload).toMatchObject({
      status: 500,
      retried: 1,
      maxRetries: 1,
      dlqId: dlq.json.messages[0].dlqId,
      sourceMessageId: id,
      body: Buffer.from('dead').toString('base64'),
    });
    expect(failure?.headers['x-f']).toBe('f');
    env.stack.clock.advance(86_400_000);
    await settle();
    expect(env.sink.received.filter(at('/failed'))).toHaveLength(1);
  });

  it("retries a failing callback with the original message's retry settings", async () => {
    behaviour['/cb-down'] = () => ({ status: 500 });
    await publish('/ok', {
      'Upstash-Retries': '1',
      'Upstash-Retry-Delay': '50',
      'Upstash-Callback': `${env.sink.url}/cb-down`,
    });
    await env.sink.waitFor(1, { match: at('/cb-down') });
    await settle();
    env.stack.clock.advance(50);
    await env.sink.waitFor(2, { match: at('/cb-down') });
    env.stack.clock.advance(86_400_000);
    await settle();
    expect(env.sink.received.filter(at('/cb-down'))).toHaveLength(2);
  });

  it('treats a transport that throws as a failed attempt, never a stuck message', async () => {
    const real = new HttpTransport();
    let calls = 0;
    const flaky: Transport = {
      send: (request) =>
        ++calls === 1 ? Promise.reject(new Error('transport exploded')) : real.send(request),
      close: () => real.close(),
    };
    const other = await startTestStack({ transport: flaky });
    try {
      const response = await other.api('POST', `/v2/publish/${env.sink.url}/flaky-transport`, {
        headers: { 'Upstash-Retry-Delay': '1000' },
      });
      const errors = await waitForState(other, response.json.messageId, 'ERROR');
      expect(errors[0].error).toBe('transport exploded');
      await waitForState(other, response.json.messageId, 'RETRY');
      other.clock.advance(1000);
      await waitForState(other, response.json.messageId, 'DELIVERED');
      expect(calls).toBe(2);
    } finally {
      await other.close();
    }
  });
});
