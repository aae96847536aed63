// Thousands of random malformed requests (and raw garbage on the socket): never a 5xx, always a JSON error,
// the server keeps answering, and the data created before is untouched.
import net from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSink, startTestStack, waitForState, type Sink, type TestStack } from './test-support';

let stack: TestStack;
let sink: Sink;
const agent = new Agent({ connections: 16 });

beforeAll(async () => {
  stack = await startTestStack();
  sink = await startSink(() => ({ status: 500 }));
});
afterAll(async () => {
  await agent.close();
  await stack.close();
  await sink.close();
});

/** Deterministic PRNG (mulberry32) so that a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 20261122;
const random = rng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (p: number): boolean => random() < p;

const NASTY = [
  '',
  ' ',
  '-1',
  '0',
  '1e999',
  'NaN',
  '10x',
  '1.5m',
  '99999999999999999999',
  '1d1d1d1d1d1d1d1d',
  'pow(',
  'retried)',
  '((((',
  'max()',
  'true',
  'maybe',
  'http://',
  'ftp://x',
  'parallelism=0',
  'rate=-1,period=9d',
  'header[',
  'body,x',
  'GET',
  'TRACE',
  'a'.repeat(3000),
  '%00',
  '\t',
  '\\',
  '"',
  "'; DROP TABLE messages; --",
  '{}',
  '[]',
  'zz,yy',
];
const CONFIG = [
  'Delay',
  'Not-Before',
  'Retries',
  'Timeout',
  'Retry-Delay',
  'Method',
  'Callback',
  'Failure-Callback',
  'Flow-Control-Key',
  'Flow-Control-Value',
  'Label',
  'Redact-Fields',
  'Deduplication-Id',
  'Content-Based-Deduplication',
  'Header-Forward',
  'Forward-X-Fuzz',
  'Callback-Delay',
  'Callback-Retries',
  'Failure-Callback-Timeout',
  'Queue-Name',
];
const DESTINATIONS = [
  'http://127.0.0.1:1/x',
  'ftp://x',
  'https%3A%2F%2F',
  '%E0%A4%A',
  '',
  'api/llm',
  'no-such-group',
  'http://[::1',
  'http://a b',
  'https:/collapsed.example/x',
  'http://127.0.0.1:1/x?upstash-retries=zz',
  'a/b/c',
  '..',
  '%',
];
const IDS = ['msg_zz', 'zz', '%', '..%2F..', '1-1', 'z'.repeat(300), '%ZZ', 'x%00y'];

function randomPath(): string {
  const name = (): string => pick(['zz-group', 'bad name', '%20', 'z.z', 'z'.repeat(250), '%E0', 'x%2Fy']);
  const templates = [
    () => `/v2/publish/${pick(DESTINATIONS)}`,
    () => `/v2/enqueue/${name()}/${pick(DESTINATIONS)}`,
    () => '/v2/batch',
    () => `/v2/topics/${name()}${pick(['', '/endpoints', '/x'])}`,
    () => `/v2/queues${pick(['', `/${name()}`, `/${name()}/pause`, `/${name()}/resume`])}`,
    () => `/v2/messages${pick(['', `/${pick(IDS)}`])}`,
    () => `/v2/dlq${pick(['', `/${pick(IDS)}`, '/retry', `/retry/${pick(IDS)}`])}`,
    () =>
      pick([
        '/v2/logs',
        '/v2/events',
        '/v2/keys',
        '/v2',
        '/',
        '//',
        '/v3/publish/x',
        '/v2/publish',
        '/v2/publish/',
      ]),
    () =>
      '/' +
      Array.from({ length: 1 + Math.floor(random() * 5) }, () =>
        pick(['v2', '%', '%zz', '..', 'é', 'x']),
      ).join('/'),
  ];
  let path = pick(templates)();
  // A bare bulk cancel, DLQ delete or retry is a well-formed request for "all of them": always give it a filter.
  if (path === '/v2/dlq' || path === '/v2/dlq/retry' || path === '/v2/messages')
    path += `?label=${encodeURIComponent('z' + pick(NASTY))}&`;
  else if (chance(0.5)) path += '?';
  if (path.endsWith('?') || path.endsWith('&')) {
    const params = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
      const key = pick([
        'count',
        'cursor',
        'fromDate',
        'toDate',
        'state',
        'label',
        'messageIds',
        'dlqIds',
        'url',
        'host',
        'responseStatus',
        'upstash-delay',
        'svc-retries',
        'qstash_token',
        '%',
        '',
      ]);
      // Values always contain a letter: no fuzz filter can match (and cancel) the data checked afterwards.
      return `${key}=${encodeURIComponent('z' + pick(NASTY))}`;
    });
    path += params.join('&');
  }
  // Make the path a legal request target for the client library.
  return path.replace(/[^\x21-\x7e]/g, (c) => encodeURIComponent(c));
}

function randomBody(): string | Buffer | undefined {
  return pick<() => string | Buffer | undefined>([
    () => undefined,
    () => '',
    () => Buffer.from(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * 256))),
    () =>
      pick([
        '{',
        '[',
        'null',
        '[{}]',
        '{"endpoints": 5}',
        '{"endpoints": [{"url": 7}]}',
        '[{"destination": 1}]',
        '{"queueName": "zz", "parallelism": "many"}',
        '{"headers": {"x": {}}}',
        '{"messageIds": [[]]}',
        '"str"',
        '1e999',
        '{"dlqIds": {"a": 1}}',
        '[{"destination": "zz-group", "headers": {"Upstash-Delay": "zz"}}]',
      ]),
    () => '['.repeat(5000) + ']'.repeat(5000),
    () => 'x'.repeat(1_048_577),
  ])();
}

function randomHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const count = Math.floor(random() * 5);
  for (let i = 0; i < count; i++) {
    const name = `${pick(['Upstash-', 'Svc-', 'upstash-', 'UPSTASH-'])}${pick(CONFIG)}`;
    // Printable ASCII only: anything else is refused by the client library before it is sent.
    headers[name] = pick(NASTY).replace(/[^\x20-\x7e\t]/g, '');
  }
  if (chance(0.2))
    headers['content-type'] = pick(['application/json', 'text/plain', '', 'x/y; charset=nope']);
  const auth = random();
  if (auth < 0.8) headers.authorization = `Bearer ${stack.token}`;
  else if (auth < 0.9)
    headers.authorization = pick(['Bearer', 'Bearer wrong', 'Basic zz', 'bearer  ', stack.token]);
  return headers;
}

// 3,000 requests plus raw sockets: ~30 s alone on 2 cores, several times that on a loaded machine.
it('survives thousands of random malformed requests with JSON errors and intact data', async () => {
  // Data that must survive the storm untouched.
  await stack.api('POST', '/v2/topics/keep-group/endpoints', {
    body: JSON.stringify({ endpoints: [{ url: `${sink.url}/keep` }] }),
  });
  await stack.api('POST', '/v2/queues', {
    body: JSON.stringify({ queueName: 'keep-queue', parallelism: 3 }),
  });
  const pending = await stack.api('POST', `/v2/publish/${sink.url}/keep`, {
    headers: { 'Upstash-Delay': '7d' },
    body: 'keep me',
  });
  const failed = await stack.api('POST', `/v2/publish/${sink.url}/dead`, {
    headers: { 'Upstash-Retries': '0' },
    body: 'dead',
  });
  await waitForState(stack, failed.json.messageId, 'FAILED');
  const dlqBefore = (await stack.api('GET', `/v2/dlq?messageId=${failed.json.messageId}`)).json.messages;

  const TOTAL = 3000;
  const statuses = new Map<number, number>();
  const problems: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < TOTAL) {
      const n = next++;
      const method = pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'FUZZ']);
      const path = randomPath();
      const body = method === 'GET' || method === 'HEAD' ? undefined : randomBody();
      try {
        const response = await request(stack.url + path, {
          method: method as 'GET',
          headers: randomHeaders(),
          body,
          dispatcher: agent,
        });
        const text = await response.body.text();
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode >= 500)
          problems.push(`#${n} ${method} ${path} → ${response.statusCode} ${text.slice(0, 200)}`);
        if (response.statusCode >= 400 && method !== 'HEAD') {
          const parsed = JSON.parse(text) as { error?: unknown };
          if (typeof parsed.error !== 'string' || parsed.error === '')
            problems.push(`#${n} ${method} ${path}: no error text`);
        }
      } catch (error) {
        problems.push(`#${n} ${method} ${path}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  expect(problems).toEqual([]);
  expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  // The storm really exercised the error paths.
  expect(statuses.get(400) ?? 0).toBeGreaterThan(300);
  expect(statuses.get(404) ?? 0).toBeGreaterThan(300);
  expect(statuses.get(401) ?? 0).toBeGreaterThan(30);
  expect(statuses.get(405) ?? 0).toBeGreaterThan(100);
  expect(statuses.get(413) ?? 0).toBeGreaterThan(5);

  // Raw garbage on the socket gets a 4xx or a closed connection, never a crash.
  const garbage = [
    'GARBAGE\r\n\r\n',
    'GET / HTTP/9.9\r\n\r\n',
    'POST /v2/batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'POST /v2/batch HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
    `GET /v2/keys HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    '\x00\x01\x02\x03\r\n\r\n',
  ];
  for (const payload of garbage) {
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(stack.stack.messages.port, '127.0.0.1', () => socket.write(payload));
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
      setTimeout(() => socket.destroy(), 2_000);
    });
    if (answer !== '') expect(answer, JSON.stringify(payload.slice(0, 40))).toMatch(/^HTTP\/1\.1 4\d\d/);
  }

  // Still alive, data intact.
  expect((await stack.api('GET', '/v2/keys')).status).toBe(200);
  expect((await stack.api('GET', '/v2/topics/keep-group')).json.endpoints).toEqual([
    { url: `${sink.url}/keep` },
  ]);
  expect((await stack.api('GET', '/v2/queues/keep-queue')).json).toMatchObject({
    parallelism: 3,
    paused: false,
  });
  const message = await stack.api('GET', `/v2/messages/${pending.json.messageId}`);
  expect(message.status).toBe(200);
  expect(message.json.body).toBe('keep me');
  expect((await stack.api('GET', `/v2/dlq?messageId=${failed.json.messageId}`)).json.messages).toEqual(
    dlqBefore,
  );
}, 240_000);
