// Messages, bulk cancel, the DLQ, logs, signing keys, batch and api/llm over real HTTP.
import { Receiver } from '@upstash/qstash';
import { beforeEach, describe, expect, it } from 'vitest';
import { eventually, settle, startTestStack, useStackAndSink, waitForState } from './test-support';

const env = useStackAndSink();

const json = (value: unknown) => JSON.stringify(value);

async function publish(path: string, headers: Record<string, string> = {}, body = 'x'): Promise<string> {
  const response = await env.stack.api('POST', `/v2/publish/${env.sink.url}${path}`, { headers, body });
  expect(response.status, response.text).toBe(200);
  return response.json.messageId;
}

describe('messages', () => {
  it('gets a pending message, cancels it, and 404s afterwards', async () => {
    const id = await publish('/cancel-me', { 'Upstash-Delay': '1h' });
    expect((await env.stack.api('GET', `/v2/messages/${id}`)).status).toBe(200);
    const cancel = await env.stack.api('DELETE', `/v2/messages/${id}`);
    expect(cancel.status).toBe(200);
    expect(cancel.json).toEqual({ cancelled: 1 });
    expect((await env.stack.api('GET', `/v2/messages/${id}`)).status).toBe(404);
    const again = await env.stack.api('DELETE', `/v2/messages/${id}`);
    expect(again.status).toBe(404);
    expect(again.json.error).toMatch(/not found/);
    const states = (await env.stack.api('GET', `/v2/logs?messageId=${id}`)).json.events.map(
      (e: { state: string }) => e.state,
    );
    expect(states).toEqual(['CANCELLED', 'CANCEL_REQUESTED', 'CREATED']);
    env.stack.clock.advance(3_600_000);
    await settle();
    expect(env.sink.received).toHaveLength(0);
  });

  it('cancels a message whose attempt is in flight once that attempt fails', async () => {
    let release: () => void = () => undefined;
    env.behaviour = (path) =>
      path === '/inflight' ? { status: 500, wait: new Promise<void>((resolve) => (release = resolve)) } : {};
    const id = await publish('/inflight', { 'Upstash-Retries': '3', 'Upstash-Retry-Delay': '10' });
    await env.sink.waitFor(1);
    expect((await env.stack.api('DELETE', `/v2/messages/${id}`)).json).toEqual({ cancelled: 1 });
    await waitForState(env.stack, id, 'CANCEL_REQUESTED');
    release();
    await waitForState(env.stack, id, 'CANCELLED');
    env.stack.clock.advance(60_000);
    await settle();
    expect(env.sink.received).toHaveLength(1);
  });

  it('bulk-cancels by ids, by filters (honouring count) and by a legacy JSON body; unknown filters refused', async () => {
    const a = await publish('/bulk-a', { 'Upstash-Delay': '1h', 'Upstash-Label': 'red' });
    const b = await publish('/bulk-b', { 'Upstash-Delay': '1h', 'Upstash-Label': 'blue,red' });
    const c = await publish('/bulk-c', { 'Upstash-Delay': '1h', 'Upstash-Label': 'green' });
    const d = await publish('/bulk-d', { 'Upstash-Delay': '1h' });
    const e = await publish('/bulk-e', { 'Upstash-Delay': '1h' });

    // A typo never widens the cancel to every message: the parameter is refused, by name (issue 18 item 8).
    const typo = await env.stack.api('DELETE', '/v2/messages?labeel=red&count=100');
    expect(typo.status).toBe(400);
    expect(typo.json.error).toMatch(/unknown parameter 'labeel'/);
    const typoBody = await env.stack.api('DELETE', '/v2/messages', { body: json({ labeel: 'red' }) });
    expect(typoBody.status).toBe(400);
    expect(typoBody.json.error).toMatch(/unknown parameter 'labeel'/);

    // count caps a filtered cancel, oldest first (item 10): two messages are red, one goes.
    const oneRed = await env.stack.api('DELETE', '/v2/messages?label=red&count=1');
    expect(oneRed.json).toEqual({ cancelled: 1 });
    expect((await env.stack.api('GET', `/v2/messages/${a}`)).status).toBe(404);
    expect((await env.stack.api('GET', `/v2/messages/${b}`)).status).toBe(200);

    const byLabel = await env.stack.api(
      'DELETE',
      `/v2/messages?label=red&url=${encodeURIComponent(`${env.sink.url}/bulk-b`)}`,
    );
    expect(byLabel.json).toEqual({ cancelled: 1 });
    expect((await env.stack.api('GET', `/v2/messages/${b}`)).status).toBe(404);

    // Ids already cancelled or unknown are not counted.
    const byIds = await env.stack.api('DELETE', `/v2/messages?messageIds=${a},${c}&messageIds=msg_unknown`);
    expect(byIds.json).toEqual({ cancelled: 1 });

    const legacy = await env.stack.api('DELETE', '/v2/messages', { body: json({ messageIds: [d] }) });
    expect(legacy.json).toEqual({ cancelled: 1 });
    const badBody = await env.stack.api('DELETE', '/v2/messages', { body: '{"messageIds": [{}]}' });
    expect(badBody.status).toBe(400);
    expect((await env.stack.api('GET', `/v2/messages/${e}`)).status).toBe(200);
    await env.stack.api('DELETE', `/v2/messages/${e}`);
  });

  it('bulk-cancels a queue by queueName, keeping the lag right', async () => {
    await env.stack.api('POST', '/v2/queues', {
      body: json({ queueName: 'cancel-q', parallelism: 1, paused: true }),
    });
    for (let i = 0; i < 4; i++) await env.stack.api('POST', `/v2/enqueue/cancel-q/${env.sink.url}/cq`);
    expect((await env.stack.api('GET', '/v2/queues/cancel-q')).json.lag).toBe(4);
    expect((await env.stack.api('DELETE', '/v2/messages?queueName=cancel-q')).json).toEqual({ cancelled: 4 });
    expect((await env.stack.api('GET', '/v2/queues/cancel-q')).json.lag).toBe(0);
  });
});

describe('the dead-letter queue', () => {
  async function fail(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ id: string; dlqId: string }> {
    const id = await publish(path, { 'Upstash-Retries': '0', ...headers });
    await waitForState(env.stack, id, 'FAILED');
    const list = await env.stack.api('GET', `/v2/dlq?messageId=${id}`);
    return { id, dlqId: list.json.messages[0].dlqId };
  }

  beforeEach(() => {
    env.behaviour = (path) => (path.startsWith('/dl') ? { status: 500, body: `failed ${path}` } : {});
  });

  it('lists with filters and a cursor, gets and deletes (404 the second time)', async () => {
    const first = await fail('/dl-1', { 'Upstash-Label': 'dlq-a' });
    const second = await fail('/dl-2', { 'Upstash-Label': 'dlq-b' });
    const third = await fail('/dl-3', { 'Upstash-Label': 'dlq-a' });

    const labelled = await env.stack.api('GET', '/v2/dlq?label=dlq-a');
    expect(labelled.json.messages.map((m: { messageId: string }) => m.messageId)).toEqual([
      third.id,
      first.id,
    ]);
    const byUrl = await env.stack.api(
      'GET',
      `/v2/dlq?url=${encodeURIComponent(`${env.sink.url}/dl-2`)}&responseStatus=500`,
    );
    expect(byUrl.json.messages.map((m: { dlqId: string }) => m.dlqId)).toEqual([second.dlqId]);
    expect((await env.stack.api('GET', '/v2/dlq?label=dlq-a&responseStatus=404')).json.messages).toEqual([]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await env.stack.api(
        'GET',
        `/v2/dlq?label=dlq-a,dlq-b&count=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.json.messages.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.messages.map((m: { dlqId: string }) => m.dlqId));
      cursor = page.json.cursor;
    } while (cursor);
    expect(seen).toEqual([third.dlqId, second.dlqId, first.dlqId]);

    const one = await env.stack.api('GET', `/v2/dlq/${first.dlqId}`);
    expect(one.json).toMatchObject({
      dlqId: first.dlqId,
      messageId: first.id,
      responseStatus: 500,
      responseBody: 'failed /dl-1',
    });
    expect((await env.stack.api('DELETE', `/v2/dlq/${first.dlqId}`)).status).toBe(200);
    expect((await env.stack.api('DELETE', `/v2/dlq/${first.dlqId}`)).status).toBe(404);
    expect((await env.stack.api('GET', `/v2/dlq/${first.dlqId}`)).status).toBe(404);

    const bulk = await env.stack.api(
      'DELETE',
      `/v2/dlq?dlqIds=${second.dlqId}&dlqIds=${third.dlqId}&dlqIds=1-1`,
    );
    expect(bulk.json).toEqual({ deleted: 2 });
  });

  it('retries one entry with header overrides (201), removing it from the DLQ', async () => {
    const failed = await fail('/dl-retry', { 'Upstash-Forward-X-Kept': 'kept' });
    env.behaviour = () => ({});
    const retry = await env.stack.api('POST', `/v2/dlq/retry/${failed.dlqId}`, {
      headers: { 'Upstash-Retries': '5', 'Upstash-Forward-X-Added': 'added' },
    });
    expect(retry.status).toBe(201);
    expect(retry.json).toEqual({ messageId: expect.stringMatching(/^msg_/) });
    expect(retry.json.messageId).not.toBe(failed.id);
    const [delivery] = await env.sink
      .waitFor(2, { match: (r) => r.url === '/dl-retry' })
      .then((all) => all.slice(1));
    expect(delivery?.headers['x-kept']).toBe('kept');
    expect(delivery?.headers['x-added']).toBe('added');
    expect(delivery?.body.toString()).toBe('x');
    const log = await waitForState(env.stack, retry.json.messageId, 'DELIVERED');
    expect(log[0].maxRetries).toBe(5);
    expect((await env.stack.api('GET', `/v2/dlq/${failed.dlqId}`)).status).toBe(404);
    expect((await env.stack.api('POST', `/v2/dlq/retry/${failed.dlqId}`)).status).toBe(404);
    env.behaviour = () => ({ status: 500 });
    const bad = await fail('/dl-bad');
    const refused = await env.stack.api('POST', `/v2/dlq/retry/${bad.dlqId}`, {
      headers: { 'Upstash-Delay': 'soon' },
    });
    expect(refused.status).toBe(400);
    expect((await env.stack.api('GET', `/v2/dlq/${bad.dlqId}`)).status).toBe(200);
  });

  it('retries in bulk by ids or by filter (201, cursor "" at the end), 404 for unknown ids', async () => {
    const a = await fail('/dl-bulk', { 'Upstash-Label': 'bulk-retry' });
    const b = await fail('/dl-bulk', { 'Upstash-Label': 'bulk-retry' });
    const c = await fail('/dl-other');
    const missing = await env.stack.api('POST', `/v2/dlq/retry?dlqIds=${c.dlqId}&dlqIds=0-0`);
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatch(/some messages were not found: 0-0/);
    expect((await env.stack.api('GET', `/v2/dlq/${c.dlqId}`)).status).toBe(200);

    env.behaviour = () => ({});
    const byFilter = await env.stack.api('POST', '/v2/dlq/retry?label=bulk-retry');
    expect(byFilter.status).toBe(201);
    expect(byFilter.json.cursor).toBe('');
    expect(byFilter.json.responses).toHaveLength(2);
    const byIds = await env.stack.api('POST', `/v2/dlq/retry?dlqIds=${c.dlqId}`);
    expect(byIds.json.responses).toHaveLength(1);
    await env.sink.waitFor(6, { match: (r) => r.url === '/dl-bulk' || r.url === '/dl-other' });
    for (const entry of [a, b, c])
      expect((await env.stack.api('GET', `/v2/dlq/${entry.dlqId}`)).status).toBe(404);
  });

  it('refuses bad DLQ filters', async () => {
    expect((await env.stack.api('GET', '/v2/dlq?fromDate=yesterday')).status).toBe(400);
    expect((await env.stack.api('GET', '/v2/dlq?host=example.com')).json.error).toMatch(/host or path/);
    expect((await env.stack.api('GET', '/v2/dlq?responseStatus=abc')).status).toBe(400);
    expect((await env.stack.api('GET', '/v2/dlq?count=0')).status).toBe(400);
    expect((await env.stack.api('GET', '/v2/dlq?cursor=abc')).status).toBe(400);
  });
});

describe('logs', () => {
  it('filters by state (IN_PROGRESS, CANCELED), label, dates, and pages with a cursor', async () => {
    const start = env.stack.clock.now();
    env.stack.clock.advance(1000);
    const delivered = await publish('/log-1', { 'Upstash-Label': 'log-test' });
    await waitForState(env.stack, delivered, 'DELIVERED');
    env.stack.clock.advance(1000);
    const delayed = await publish('/log-2', { 'Upstash-Label': 'log-test', 'Upstash-Delay': '1h' });
    await env.stack.api('DELETE', `/v2/messages/${delayed}`);
    env.behaviour = () => ({ status: 500 });
    const retrying = await publish('/log-3', { 'Upstash-Label': 'log-test', 'Upstash-Retries': '1' });
    await waitForState(env.stack, retrying, 'RETRY');

    const states = async (query: string): Promise<string[]> =>
      (await env.stack.api('GET', `/v2/logs?label=log-test&${query}`)).json.events.map(
        (e: { state: string; messageId: string }) =>
          `${e.messageId === delivered ? 1 : e.messageId === delayed ? 2 : 3}:${e.state}`,
      );
    expect(await states('state=IN_PROGRESS')).toEqual(['3:RETRY', '3:ERROR', '3:ACTIVE', '1:ACTIVE']);
    expect(await states('state=CANCELED')).toEqual(['2:CANCELLED']);
    expect(await states('state=DELIVERED&state=CANCELLED')).toEqual(['2:CANCELLED', '1:DELIVERED']);
    expect(await states(`toDate=${start + 1000}`)).toEqual(['1:DELIVERED', '1:ACTIVE', '1:CREATED']);
    expect(await states(`fromDate=${start + 1500}&state=CREATED`)).toEqual(['3:CREATED', '2:CREATED']);

    const all = await env.stack.api('GET', '/v2/events?label=log-test&count=1000');
    const paged: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await env.stack.api(
        'GET',
        `/v2/logs?label=log-test&count=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      paged.push(...page.json.logs.map((e: { time: number }) => e.time));
      cursor = page.json.cursor;
    } while (cursor);
    expect(paged).toEqual(all.json.events.map((e: { time: number }) => e.time));
    expect(paged.length).toBeGreaterThanOrEqual(9);
    const error = all.json.events.find((e: { state: string }) => e.state === 'ERROR');
    expect(error).toMatchObject({
      responseStatus: 500,
      responseHeader: expect.any(Object),
      responseHeaders: expect.any(Object),
    });

    expect((await env.stack.api('GET', '/v2/logs?state=BOGUS')).json.error).toMatch(/invalid state 'BOGUS'/);
    expect((await env.stack.api('GET', '/v2/logs?toDate=-1')).status).toBe(400);
  });
});

describe('signing keys', () => {
  it('rotates next into current, signs with the new key, and keeps it across a restart', async () => {
    const before = (await env.stack.api('GET', '/v2/keys')).json;
    const rotated = await env.stack.api('POST', '/v2/keys/rotate');
    expect(rotated.json.current).toBe(before.next);
    expect(rotated.json.next).toMatch(/^sig_/);
    expect(rotated.json.next).not.toBe(before.current);
    await publish('/signed-after-rotate', {}, 'body');
    const [delivery] = await env.sink.waitFor(1);
    const onlyOld = new Receiver({ currentSigningKey: before.current, nextSigningKey: before.current });
    const rotatedReceiver = new Receiver({ currentSigningKey: before.current, nextSigningKey: before.next });
    const signature = delivery?.headers['upstash-signature'] as string;
    await expect(rotatedReceiver.verify({ signature, body: 'body' })).resolves.toBe(true);
    await expect(onlyOld.verify({ signature, body: 'body' })).rejects.toThrow();

    const other = await startTestStack();
    try {
      const first = (await other.api('POST', '/v2/keys/rotate')).json;
      await other.close(false);
      const again = await other.restart();
      expect((await again.api('GET', '/v2/keys')).json).toEqual(first);
      expect(again.stack.info.messages.currentSigningKey).toBe(first.current);
      await again.close();
    } catch (error) {
      await other.close().catch(() => undefined);
      throw error;
    }
  });
});

describe('batch', () => {
  it('publishes each item, aligned with the request, with nested arrays for groups and per-item errors', async () => {
    await env.stack.api('POST', '/v2/topics/batch-group/endpoints', {
      body: json({ endpoints: [{ url: `${env.sink.url}/bg1` }, { url: `${env.sink.url}/bg2` }] }),
    });
    const response = await env.stack.api('POST', '/v2/batch', {
      body: json([
        {
          destination: `${env.sink.url}/b1?k=v`,
          headers: { 'Upstash-Forward-X-One': '1', 'Content-Type': 'text/plain' },
          body: 'one',
        },
        { destination: 'batch-group', body: 'group' },
        { destination: `${env.sink.url}/b3`, queue: 'batch-q', body: 'queued' },
        { destination: `${env.sink.url}/bad`, headers: { 'Upstash-Delay': '5 minutes' } },
        { destination: 'missing-group' },
        { destination: `${env.sink.url}/b6`, queue: null },
      ]),
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      { messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/b1?k=v` },
      [
        { messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/bg1` },
        { messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/bg2` },
      ],
      { messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/b3` },
      { error: expect.stringMatching(/invalid Upstash-Delay/) },
      { error: "URL group 'missing-group' not found" },
      { messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/b6` },
    ]);
    const deliveries = await env.sink.waitFor(5);
    expect(deliveries.map((d) => d.url).sort()).toEqual(['/b1?k=v', '/b3', '/b6', '/bg1', '/bg2']);
    const one = deliveries.find((d) => d.url === '/b1?k=v');
    expect(one?.headers['x-one']).toBe('1');
    expect(one?.headers['content-type']).toBe('text/plain');
    expect(one?.body.toString()).toBe('one');
    expect((await env.stack.api('GET', '/v2/queues/batch-q')).status).toBe(200);
  });

  it('refuses a malformed batch as a whole and publishes nothing', async () => {
    const before = (await env.stack.api('GET', '/v2/logs?state=CREATED&count=1000')).json.events.length;
    const malformed: [string, RegExp][] = [
      ['not json', /not valid JSON/],
      ['{"destination": "x"}', /expected a JSON array/],
      [
        json([{ destination: `${env.sink.url}/ok` }, { body: 'no destination' }]),
        /item 1: 'destination' must be a string/,
      ],
      [json([{ destination: `${env.sink.url}/ok`, headers: ['x'] }]), /'headers' must be an object/],
      [json([{ destination: `${env.sink.url}/ok`, headers: { A: 1 } }]), /header 'A' must be a string/],
      [json([{ destination: `${env.sink.url}/ok`, body: { a: 1 } }]), /'body' must be a string/],
      [json([{ destination: `${env.sink.url}/ok`, queue: 5 }]), /'queue' must be a string/],
      [json([null]), /item 0: not an object/],
    ];
    for (const [body, message] of malformed) {
      const response = await env.stack.api('POST', '/v2/batch', { body });
      expect(response.status, body).toBe(400);
      expect(response.json.error, body).toMatch(message);
    }
    await settle();
    expect(env.sink.received).toHaveLength(0);
    expect((await env.stack.api('GET', '/v2/logs?state=CREATED&count=1000')).json.events.length).toBe(before);
    expect((await env.stack.api('POST', '/v2/batch', { body: '[]' })).json).toEqual([]);
  });
});

describe('api/llm', () => {
  it('forwards to the configured OpenAI-compatible upstream and delivers the answer to the callback', async () => {
    const llm = await startTestStack({ llmUrl: `${env.sink.url}/v1`, llmKey: 'sk-local' });
    try {
      env.behaviour = (path) =>
        path === '/v1/chat/completions' ? { body: json({ choices: [{ message: { content: 'hi' } }] }) } : {};
      const request = json({ model: 'local', messages: [{ role: 'user', content: 'hello' }] });
      const response = await llm.api('POST', '/v2/publish/api/llm', {
        headers: {
          'Content-Type': 'application/json',
          'Upstash-Callback': `${env.sink.url}/llm-callback`,
          'Upstash-Forward-Authorization': 'Bearer qstash',
        },
        body: request,
      });
      expect(response.status).toBe(200);
      const [call] = await env.sink.waitFor(1, { match: (r) => r.url === '/v1/chat/completions' });
      expect(call?.headers.authorization).toBe('Bearer sk-local');
      expect(call?.body.toString()).toBe(request);
      const [callback] = await env.sink.waitFor(1, { match: (r) => r.url === '/llm-callback' });
      const payload = JSON.parse(callback?.body.toString() ?? '{}');
      expect(payload).toMatchObject({ status: 200, api: 'llm', sourceMessageId: response.json.messageId });
      expect(JSON.parse(Buffer.from(payload.body, 'base64').toString())).toEqual({
        choices: [{ message: { content: 'hi' } }],
      });

      const noCallback = await llm.api('POST', '/v2/publish/api/llm', { body: request });
      expect(noCallback.status).toBe(400);
      expect(noCallback.json.error).toMatch(/api\/llm needs an Upstash-Callback/);
    } finally {
      await llm.close();
    }
  });
});

describe('restart', () => {
  it('keeps groups, queues and pending messages across a clean restart', async () => {
    const first = await startTestStack();
    await first.api('POST', '/v2/topics/kept/endpoints', {
      body: json({ endpoints: [{ url: `${env.sink.url}/kept` }] }),
    });
    await first.api('POST', '/v2/queues', { body: json({ queueName: 'kept-q', parallelism: 4 }) });
    const later = await first.api('POST', `/v2/publish/${env.sink.url}/after-restart`, {
      headers: { 'Upstash-Delay': '2h' },
    });
    await first.close(false);
    const second = await first.restart();
    try {
      expect((await second.api('GET', '/v2/topics/kept')).json.endpoints).toEqual([
        { url: `${env.sink.url}/kept` },
      ]);
      expect((await second.api('GET', '/v2/queues/kept-q')).json.parallelism).toBe(4);
      expect((await second.api('GET', `/v2/messages/${later.json.messageId}`)).status).toBe(200);
      second.clock.advance(2 * 3_600_000);
      await env.sink.waitFor(1, { match: (r) => r.url === '/after-restart' });
      await eventually(
        async () => (await second.api('GET', `/v2/messages/${later.json.messageId}`)).status === 404,
        'finished',
      );
    } finally {
      await second.close();
    }
  });
});
