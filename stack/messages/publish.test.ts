// Publish over real HTTP into a real SQLite store, delivered to a local sink: headers, destinations, timing
// (with a manual clock), signatures, and every kind of bad input.
import { Receiver } from '@upstash/qstash';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { settle, startSink, startTestStack, useStackAndSink, waitForState } from './test-support';

const env = useStackAndSink();

const publish = (destination: string, headers: Record<string, string> = {}, body = 'hello') =>
  env.stack.api('POST', `/v2/publish/${destination}`, { headers, body });

describe('publish to a URL', () => {
  it('delivers the body with forwarded headers only, and the delivery headers', async () => {
    const response = await publish(`${env.sink.url}/hook`, {
      'Content-Type': 'text/plain',
      'Upstash-Forward-X-Api-Key': 'secret',
      'Svc-Forward-X-Other': 'two',
      'X-Not-Forwarded': 'nope',
      'Upstash-Forward-Connection': 'close',
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/hook` });
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.method).toBe('POST');
    expect(delivery?.url).toBe('/hook');
    expect(delivery?.body.toString()).toBe('hello');
    expect(delivery?.headers['content-type']).toBe('text/plain');
    expect(delivery?.headers['x-api-key']).toBe('secret');
    expect(delivery?.headers['x-other']).toBe('two');
    expect(delivery?.headers['x-not-forwarded']).toBeUndefined();
    expect(delivery?.headers.authorization).toBeUndefined();
    expect(delivery?.headers['upstash-message-id']).toBe(response.json.messageId);
    expect(delivery?.headers['upstash-retried']).toBe('0');
    expect(delivery?.headers['user-agent']).toBe('Upstash-QStash');
    expect(delivery?.headers['upstash-caller-ip']).toBe('127.0.0.1');
    expect(delivery?.headers['upstash-signature']).toMatch(/^ey/);
  });

  it('keeps the destination query string and strips configuration and token parameters', async () => {
    const response = await env.stack.api(
      'POST',
      `/v2/publish/${env.sink.url}/path/with//double?a=1&b=x%20y&upstash-method=PUT&svc-forward-x-q=from-query&qstash_token=${env.stack.token}`,
      { body: 'q', auth: false },
    );
    expect(response.status).toBe(200);
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.method).toBe('PUT');
    expect(delivery?.url).toBe('/path/with//double?a=1&b=x%20y');
    expect(delivery?.headers['x-q']).toBe('from-query');
  });

  it('forwards every incoming header with Header-Forward, except hop-by-hop ones and the token', async () => {
    await publish(
      `${env.sink.url}/wh`,
      { 'Upstash-Header-Forward': 'true', 'X-Github-Event': 'push', 'Content-Type': 'application/json' },
      '{}',
    );
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.headers['x-github-event']).toBe('push');
    expect(delivery?.headers['content-type']).toBe('application/json');
    expect(delivery?.headers.authorization).toBeUndefined();
    expect(delivery?.headers['upstash-header-forward']).toBeUndefined();
  });

  it('accepts the token as ?svc_token= and the encoded-destination form', async () => {
    const response = await env.stack.api(
      'POST',
      `/v2/publish/${encodeURIComponent(`${env.sink.url}/enc`)}?svc_token=${env.stack.token}`,
      {
        auth: false,
        body: 'x',
      },
    );
    expect(response.status).toBe(200);
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.url).toBe('/enc');
  });

  it('signs deliveries so that the vendor Receiver verifies them (and rejects tampering)', async () => {
    await publish(`${env.sink.url}/signed?x=1`, { 'Content-Type': 'application/json' }, '{"a":1}');
    const [delivery] = await env.sink.waitFor(1);
    const keys = (await env.stack.api('GET', '/v2/keys')).json;
    const receiver = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next });
    const signature = delivery?.headers['upstash-signature'] as string;
    await expect(
      receiver.verify({ signature, body: '{"a":1}', url: `${env.sink.url}/signed?x=1` }),
    ).resolves.toBe(true);
    await expect(receiver.verify({ signature, body: '{"a":2}' })).rejects.toThrow(/body hash does not match/);
    await expect(
      receiver.verify({ signature, body: '{"a":1}', url: `${env.sink.url}/other` }),
    ).rejects.toThrow(/invalid subject/);
    const wrong = new Receiver({ currentSigningKey: 'sig_wrong', nextSigningKey: 'sig_wrong2' });
    await expect(wrong.verify({ signature, body: '{"a":1}' })).rejects.toThrow();
  });

  it('uses the method and an empty body for GET', async () => {
    await publish(`${env.sink.url}/get`, { 'Upstash-Method': 'get' }, '');
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.method).toBe('GET');
    expect(delivery?.body.length).toBe(0);
  });

  it('delivers a binary body byte for byte and reports it as bodyBase64', async () => {
    const bytes = Buffer.from([0, 255, 128, 10, 13, 0xc3]);
    const delay = await env.stack.api('POST', `/v2/publish/${env.sink.url}/bin`, {
      headers: { 'Upstash-Delay': '1h', 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    const message = await env.stack.api('GET', `/v2/messages/${delay.json.messageId}`);
    expect(message.json.bodyBase64).toBe(bytes.toString('base64'));
    expect(message.json.body).toBeUndefined();
    env.stack.clock.advance(3_600_000);
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.body.equals(bytes)).toBe(true);
  });
});

describe('due time', () => {
  it('waits for Upstash-Delay (combined units) and delivers once the clock gets there', async () => {
    const response = await publish(`${env.sink.url}/later`, { 'Upstash-Delay': '1h30m' });
    const message = await env.stack.api('GET', `/v2/messages/${response.json.messageId}`);
    expect(message.json.notBefore - message.json.createdAt).toBe(5_400_000);
    env.stack.clock.advance(5_399_000);
    await settle();
    expect(env.sink.received).toHaveLength(0);
    env.stack.clock.advance(1_000);
    await env.sink.waitFor(1);
  });

  it('lets Not-Before win over Delay, and accepts the query form', async () => {
    const notBefore = Math.floor(env.stack.clock.now() / 1000) + 120;
    const response = await env.stack.api(
      'POST',
      `/v2/publish/${env.sink.url}/nb?upstash-not-before=${notBefore}&upstash-delay=1d`,
      { body: 'x' },
    );
    const message = await env.stack.api('GET', `/v2/messages/${response.json.messageId}`);
    expect(message.json.notBefore).toBe(notBefore * 1000);
    env.stack.clock.set(notBefore * 1000);
    await env.sink.waitFor(1);
  });

  it('delivers a Not-Before in the past at once', async () => {
    await publish(`${env.sink.url}/past`, { 'Upstash-Not-Before': '1000' });
    await env.sink.waitFor(1);
  });
});

describe('the record of a pending message', () => {
  it('shows every setting the way the real service does', async () => {
    const response = await publish(`${env.sink.url}/rec`, {
      'Upstash-Delay': '10m',
      'Upstash-Retries': '5',
      'Upstash-Timeout': '30',
      'Upstash-Retry-Delay': 'pow(2, retried) * 1000',
      'Upstash-Callback': `${env.sink.url}/cb`,
      'Upstash-Callback-Forward-X-Cb': 'yes',
      'Upstash-Failure-Callback': `${env.sink.url}/fcb`,
      'Upstash-Label': 'first,second',
      'Upstash-Flow-Control-Key': 'fk',
      'Upstash-Flow-Control-Value': 'parallelism=2, rate=10, period=1m',
      'Upstash-Forward-Authorization': 'Bearer abc',
      'Upstash-Redact-Fields': 'body,header[Authorization]',
      'Content-Type': 'application/json',
    });
    const { json } = await env.stack.api('GET', `/v2/messages/${response.json.messageId}`);
    expect(json).toMatchObject({
      messageId: response.json.messageId,
      url: `${env.sink.url}/rec`,
      method: 'POST',
      maxRetries: 5,
      timeout: 30_000,
      retryDelayExpression: 'pow(2, retried) * 1000',
      callback: `${env.sink.url}/cb`,
      callbackHeader: { 'X-Cb': ['yes'] },
      failureCallback: `${env.sink.url}/fcb`,
      label: 'first',
      labels: ['first', 'second'],
      flowControlKey: 'fk',
      parallelism: 2,
      rate: 10,
      period: 60,
      callerIP: '127.0.0.1',
      body: expect.stringMatching(/^REDACTED:[0-9a-f]{64}$/),
      header: {
        Authorization: [expect.stringMatching(/^REDACTED:/)],
        'Content-Type': ['application/json'],
      },
    });
    expect(typeof json.createdAt).toBe('number');
    // Redaction hides values in the API only; the destination gets the real ones.
    env.stack.clock.advance(600_000);
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.headers.authorization).toBe('Bearer abc');
    expect(delivery?.body.toString()).toBe('hello');
  });
});

describe('an empty setting', () => {
  it('is no setting: the default applies, in a header or in the query', async () => {
    const empty = Object.fromEntries(
      [
        'Method',
        'Retries',
        'Timeout',
        'Retry-Delay',
        'Not-Before',
        'Callback',
        'Failure-Callback',
        'Callback-Retries',
        'Deduplication-Id',
        'Content-Based-Deduplication',
        'Header-Forward',
        'Flow-Control-Key',
        'Flow-Control-Value',
        'Redact-Fields',
      ].map((name) => [`Upstash-${name}`, '']),
    );
    const response = await publish(`${env.sink.url}/empty`, { ...empty, 'Upstash-Delay': '1h' });
    expect(response.status).toBe(200);
    const { json } = await env.stack.api('GET', `/v2/messages/${response.json.messageId}`);
    expect(json).toMatchObject({ method: 'POST', maxRetries: 3, body: 'hello' });
    for (const field of [
      'callback',
      'failureCallback',
      'timeout',
      'retryDelayExpression',
      'flowControlKey',
    ]) {
      expect(json, field).not.toHaveProperty(field);
    }
    // The webhook form: `?upstash-retries=` left empty is the default too.
    const webhook = await publish(`${env.sink.url}/hook?upstash-retries=&upstash-delay=1h`);
    expect(webhook.status).toBe(200);
    const hooked = await env.stack.api('GET', `/v2/messages/${webhook.json.messageId}`);
    expect(hooked.json).toMatchObject({ url: `${env.sink.url}/hook`, maxRetries: 3 });
  });

  it('gives a schedule a generated id and no queue', async () => {
    const response = await env.stack.api('POST', `/v2/schedules/${env.sink.url}/tick`, {
      headers: { 'Upstash-Cron': '0 0 1 1 *', 'Upstash-Schedule-Id': '', 'Upstash-Queue-Name': '' },
      body: 'x',
    });
    expect(response.status).toBe(200);
    expect(response.json.scheduleId).toMatch(/^scd_/);
    const schedule = await env.stack.api('GET', `/v2/schedules/${response.json.scheduleId}`);
    expect(schedule.json).not.toHaveProperty('queueName');
  });
});

describe('bad input', () => {
  const cases: [string, Record<string, string>, number, RegExp][] = [
    ['delay unit', { 'Upstash-Delay': '10x' }, 400, /invalid Upstash-Delay: unknown unit 'x' in '10x'/],
    ['delay without unit', { 'Upstash-Delay': '10' }, 400, /missing unit/],
    ['not-before', { 'Upstash-Not-Before': 'tomorrow' }, 400, /Upstash-Not-Before/],
    ['retries', { 'Upstash-Retries': '-1' }, 400, /Upstash-Retries: expected a whole number/],
    ['too many retries', { 'Upstash-Retries': '1000' }, 400, /Upstash-Retries/],
    ['timeout', { 'Upstash-Timeout': '0s' }, 400, /Upstash-Timeout/],
    ['method', { 'Upstash-Method': 'FETCH' }, 400, /invalid Upstash-Method 'FETCH'/],
    [
      'retry-delay',
      { 'Upstash-Retry-Delay': 'pow(2, retried' },
      400,
      /invalid Upstash-Retry-Delay .*expected '\)'/,
    ],
    ['retry-delay name', { 'Upstash-Retry-Delay': 'require(1)' }, 400, /unknown name 'require'/],
    ['callback url', { 'Upstash-Callback': 'not a url' }, 400, /invalid callback url/],
    ['failure callback scheme', { 'Upstash-Failure-Callback': 'ftp://x' }, 400, /failure callback url/],
    [
      'callback options',
      { 'Upstash-Callback-Delay': 'soon' },
      400,
      /Upstash-Callback-\*: invalid Upstash-Delay/,
    ],
    [
      'flow value alone',
      { 'Upstash-Flow-Control-Value': 'rate=1' },
      400,
      /needs an Upstash-Flow-Control-Key/,
    ],
    ['flow key alone', { 'Upstash-Flow-Control-Key': 'k' }, 400, /needs an Upstash-Flow-Control-Value/],
    [
      'flow value',
      { 'Upstash-Flow-Control-Key': 'k', 'Upstash-Flow-Control-Value': 'rate=x' },
      400,
      /rate must be/,
    ],
    ['redact', { 'Upstash-Redact-Fields': 'everything' }, 400, /unknown field 'everything'/],
    ['dedup flag', { 'Upstash-Content-Based-Deduplication': 'maybe' }, 400, /expected true or false/],
  ];
  for (const [name, headers, status, message] of cases) {
    it(`refuses a bad ${name} with ${status} and a JSON error`, async () => {
      const response = await publish(`${env.sink.url}/never`, headers);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.json.error).toMatch(message);
    });
  }

  it('refuses invalid destinations', async () => {
    const bad: [string, number, RegExp][] = [
      ['ftp://example.com/x', 400, /invalid destination url: endpoint has invalid scheme/],
      ['http://', 400, /invalid destination url/],
      ['example.com/hook', 400, /neither a URL .* nor a URL group name/],
      ['no-such-group', 404, /URL group 'no-such-group' not found/],
      ['api/llm', 400, /api\/llm is not configured on this stack: start it with --llm-url/],
    ];
    for (const [destination, status, message] of bad) {
      const response = await publish(destination);
      expect(response.status, destination).toBe(status);
      expect(response.json.error, destination).toMatch(message);
    }
    await settle();
    expect(env.sink.received).toHaveLength(0);
  });

  it('refuses missing and wrong tokens with 401', async () => {
    const missing = await env.stack.api('POST', `/v2/publish/${env.sink.url}/x`, { auth: false, body: 'x' });
    expect(missing.status).toBe(401);
    expect(missing.json.error).toMatch(/missing token/);
    const wrong = await env.stack.api('POST', `/v2/publish/${env.sink.url}/x`, {
      auth: false,
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid token');
    const wrongQuery = await env.stack.api('GET', '/v2/keys?qstash_token=nope', { auth: false });
    expect(wrongQuery.status).toBe(401);
    const basic = await env.stack.api('GET', '/v2/keys', {
      auth: false,
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.status).toBe(401);
  });

  it('keeps web pages out: foreign Host, foreign Origin or a cross-site fetch get 403', async () => {
    const send = async (headers: Record<string, string>) => {
      const response = await request(`${env.stack.url}/v2/keys`, {
        headers: { authorization: `Bearer ${env.stack.token}`, ...headers },
      });
      return { status: response.statusCode, body: (await response.body.json()) as { error?: string } };
    };
    const rebinding = await send({ host: 'evil.example' });
    expect(rebinding.status).toBe(403);
    expect(rebinding.body.error).toMatch(/Host "evil.example" is not this machine/);
    const page = await send({ origin: 'https://evil.example' });
    expect(page.status).toBe(403);
    expect(page.body.error).toMatch(/requests from web pages on https:\/\/evil.example are refused/);
    expect((await send({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await send({ origin: 'http://localhost:3000' })).status).toBe(200);
    expect((await send({ host: 'localhost:1234' })).status).toBe(200);
    const tunnel = await startTestStack({ allowedHosts: ['tunnel.example'] });
    try {
      const response = await request(`${tunnel.url}/v2/keys`, {
        headers: { authorization: `Bearer ${tunnel.token}`, host: 'tunnel.example' },
      });
      expect(response.statusCode).toBe(200);
      await response.body.dump();
    } finally {
      await tunnel.close();
    }
  });

  it('answers unknown routes 404, wrong methods 405 and big bodies 413, all in JSON', async () => {
    const unknown = await env.stack.api('GET', '/v2/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatch(/not found/);
    const root = await env.stack.api('GET', '/');
    expect(root.status).toBe(404);
    const method = await env.stack.api('PUT', '/v2/batch');
    expect(method.status).toBe(405);
    expect(method.headers.get('allow')).toBe('POST');
    expect(method.json.error).toMatch(/method PUT is not allowed/);
    const big = await env.stack.api('POST', `/v2/publish/${env.sink.url}/big`, {
      body: 'x'.repeat(1_048_577),
    });
    expect(big.status).toBe(413);
    expect(big.json.error).toMatch(/larger than the limit of 1048576 bytes/);
    const exactly = await env.stack.api('POST', `/v2/publish/${env.sink.url}/big`, {
      body: 'x'.repeat(1_048_576),
    });
    expect(exactly.status).toBe(200);
    await env.sink.waitFor(1);
  });
});

describe('deduplication', () => {
  it('answers 202 with the first id for a repeated Deduplication-Id within 10 minutes', async () => {
    const first = await publish(`${env.sink.url}/d`, { 'Upstash-Deduplication-Id': 'dd-1' });
    const second = await publish(`${env.sink.url}/d`, { 'Upstash-Deduplication-Id': 'dd-1' });
    expect(first.status).toBe(200);
    expect(second.status).toBe(202);
    expect(second.json).toEqual({
      messageId: first.json.messageId,
      url: `${env.sink.url}/d`,
      deduplicated: true,
    });
    await env.sink.waitFor(1);
    env.stack.clock.advance(10 * 60_000 + 1);
    const third = await publish(`${env.sink.url}/d`, { 'Upstash-Deduplication-Id': 'dd-1' });
    expect(third.status).toBe(200);
    expect(third.json.messageId).not.toBe(first.json.messageId);
    await env.sink.waitFor(2);
    expect(env.sink.received).toHaveLength(2);
  });

  it('derives content-based ids from destination, body, Content-Type and forwarded headers', async () => {
    const headers = { 'Upstash-Content-Based-Deduplication': 'true', 'Content-Type': 'text/plain' };
    const a = await publish(`${env.sink.url}/c`, headers, 'same');
    const b = await publish(`${env.sink.url}/c`, headers, 'same');
    expect(b.status).toBe(202);
    expect(b.json.messageId).toBe(a.json.messageId);
    const variants = await Promise.all([
      publish(`${env.sink.url}/c`, headers, 'other body'),
      publish(`${env.sink.url}/c2`, headers, 'same'),
      publish(`${env.sink.url}/c`, { ...headers, 'Content-Type': 'application/json' }, 'same'),
      publish(`${env.sink.url}/c`, { ...headers, 'Upstash-Forward-X-A': '1' }, 'same'),
    ]);
    const ids = new Set([a.json.messageId, ...variants.map((v) => v.json.messageId)]);
    expect(variants.map((v) => v.status)).toEqual([200, 200, 200, 200]);
    expect(ids.size).toBe(5);
  });

  it('deduplicates concurrent publishes with the same id to exactly one message', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        publish(`${env.sink.url}/race`, { 'Upstash-Deduplication-Id': 'race-1' }),
      ),
    );
    const ids = new Set(responses.map((r) => r.json.messageId));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    await env.sink.waitFor(1);
    await settle();
    expect(env.sink.received.filter((r) => r.url === '/race')).toHaveLength(1);
  });
});

describe('logs of a delivery', () => {
  it('records CREATED, ACTIVE and DELIVERED', async () => {
    const { json } = await publish(`${env.sink.url}/logged`);
    await waitForState(env.stack, json.messageId, 'DELIVERED');
    const logs = await env.stack.api('GET', `/v2/logs?messageId=${json.messageId}`);
    expect(logs.json.events.map((e: { state: string }) => e.state)).toEqual([
      'DELIVERED',
      'ACTIVE',
      'CREATED',
    ]);
    expect(logs.json.logs).toEqual(logs.json.events);
    const gone = await env.stack.api('GET', `/v2/messages/${json.messageId}`);
    expect(gone.status).toBe(404);
  });

  it('shows a long attempt as ACTIVE while it is still running', async () => {
    let release: () => void = () => undefined;
    const slow = await startSink(() => ({ wait: new Promise<void>((resolve) => (release = resolve)) }));
    try {
      const { json } = await env.stack.api('POST', `/v2/publish/${slow.url}/slow`, { body: 'x' });
      await slow.waitFor(1);
      const active = await waitForState(env.stack, json.messageId, 'ACTIVE');
      expect(active).toHaveLength(1);
      expect(
        (await env.stack.api('GET', `/v2/logs?messageId=${json.messageId}&state=DELIVERED`)).json.events,
      ).toEqual([]);
      release();
      await waitForState(env.stack, json.messageId, 'DELIVERED');
      const all = await env.stack.api('GET', `/v2/logs?messageId=${json.messageId}`);
      expect(all.json.events.map((e: { state: string }) => e.state)).toEqual([
        'DELIVERED',
        'ACTIVE',
        'CREATED',
      ]);
    } finally {
      await slow.close();
    }
  });
});
