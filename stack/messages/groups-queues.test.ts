// URL groups, queues (FIFO, parallelism, pause/resume, lag) and flow control, over real HTTP.
import { describe, expect, it } from 'vitest';
import { eventually, settle, useStackAndSink, waitForState, type SinkReply } from './test-support';

const env = useStackAndSink();

const json = (value: unknown) => JSON.stringify(value);

type Endpoint = { name?: string; url?: string };

/** Adds endpoints to the URL group `group` (`POST`, which creates it) or removes them (`DELETE`). */
const changeEndpoints = (method: 'POST' | 'DELETE', group: string, endpoints: Endpoint[]) =>
  env.stack.api(method, `/v2/topics/${group}/endpoints`, { body: json({ endpoints }) });

/** The times every URL group and queue record carries, set by the stack's clock. */
const stamped = { createdAt: expect.any(Number), updatedAt: expect.any(Number) };

/** A gate the sink waits on, so that a test decides when each request completes. */
function gates() {
  const pending: (() => void)[] = [];
  return {
    reply: (): SinkReply => ({ wait: new Promise<void>((resolve) => pending.push(resolve)) }),
    releaseOne: () => pending.shift()?.(),
    releaseAll: () => pending.splice(0).forEach((release) => release()),
    get waiting() {
      return pending.length;
    },
  };
}

describe('URL groups', () => {
  it('creates a group by adding endpoints, lists and gets it', async () => {
    const add = await changeEndpoints('POST', 'team.alerts', [
      { name: 'first', url: `${env.sink.url}/a` },
      { url: `${env.sink.url}/b` },
    ]);
    expect(add.status).toBe(200);
    const group = await env.stack.api('GET', '/v2/topics/team.alerts');
    expect(group.json).toEqual({
      name: 'team.alerts',
      ...stamped,
      endpoints: [{ name: 'first', url: `${env.sink.url}/a` }, { url: `${env.sink.url}/b` }],
    });
    const list = await env.stack.api('GET', '/v2/topics');
    expect(list.json.map((g: { name: string }) => g.name)).toContain('team.alerts');
    // Adding an existing URL again does not duplicate it; a name moves to the new URL.
    await changeEndpoints('POST', 'team.alerts', [
      { url: `${env.sink.url}/b` },
      { name: 'first', url: `${env.sink.url}/a2` },
    ]);
    const after = await env.stack.api('GET', '/v2/topics/team.alerts');
    expect(after.json.endpoints).toEqual([
      { url: `${env.sink.url}/b` },
      { name: 'first', url: `${env.sink.url}/a2` },
    ]);
  });

  it('fans a publish out to every endpoint and answers a top-level array', async () => {
    await changeEndpoints('POST', 'fan', [
      { name: 'e1', url: `${env.sink.url}/f1` },
      { name: 'e2', url: `${env.sink.url}/f2` },
    ]);
    const response = await env.stack.api('POST', '/v2/publish/fan', { body: 'to all' });
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      { messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/f1` },
      { messageId: expect.stringMatching(/^msg_/), url: `${env.sink.url}/f2` },
    ]);
    const deliveries = await env.sink.waitFor(2);
    expect(deliveries.map((d) => d.url).sort()).toEqual(['/f1', '/f2']);
    for (const delivery of deliveries) {
      expect(delivery.headers['upstash-topic-name']).toBe('fan');
      expect(delivery.body.toString()).toBe('to all');
    }
    const log = await waitForState(env.stack, response.json[1].messageId, 'DELIVERED');
    expect(log[0]).toMatchObject({ topicName: 'fan', endpointName: 'e2', url: `${env.sink.url}/f2` });
  });

  it('applies PATCHed default headers to every message, the request’s own headers winning', async () => {
    await changeEndpoints('POST', 'defaults', [{ url: `${env.sink.url}/d` }]);
    const patch = await env.stack.api('PATCH', '/v2/topics/defaults', {
      body: json({
        headers: {
          'Upstash-Forward-X-Team': ['ops'],
          'Upstash-Forward-X-Env': 'prod',
          'Upstash-Retries': '0',
        },
      }),
    });
    expect(patch.status).toBe(200);
    const group = await env.stack.api('GET', '/v2/topics/defaults');
    expect(group.json.headers).toEqual({
      'Upstash-Forward-X-Team': ['ops'],
      'Upstash-Forward-X-Env': ['prod'],
      'Upstash-Retries': ['0'],
    });
    const response = await env.stack.api('POST', '/v2/publish/defaults', {
      headers: { 'Upstash-Forward-X-Env': 'staging', 'Upstash-Delay': '1h' },
    });
    const message = await env.stack.api('GET', `/v2/messages/${response.json[0].messageId}`);
    expect(message.json.maxRetries).toBe(0);
    env.stack.clock.advance(3_600_000);
    const [delivery] = await env.sink.waitFor(1);
    expect(delivery?.headers['x-team']).toBe('ops');
    expect(delivery?.headers['x-env']).toBe('staging');
  });

  it('refuses a default header a publish would refuse, keeping the defaults it had', async () => {
    await changeEndpoints('POST', 'checked', [{ url: `${env.sink.url}/c` }]);
    const set = (headers: Record<string, string>) =>
      env.stack.api('PATCH', '/v2/topics/checked', { body: json({ headers }) });
    // One half of flow control is a fine default: each publish gives the other half.
    expect((await set({ 'Upstash-Retries': '1', 'Upstash-Flow-Control-Key': 'per-group' })).status).toBe(200);
    const refused: [Record<string, string>, RegExp][] = [
      [{ 'Upstash-Retries': 'x' }, /invalid default headers: invalid Upstash-Retries/],
      [{ 'Upstash-Delay': '10' }, /invalid Upstash-Delay/],
      [{ 'Upstash-Callback': 'not-a-url' }, /invalid callback url/],
      [{ 'Upstash-Callback-Timeout': 'soon' }, /Upstash-Callback-\*: invalid Upstash-Timeout/],
      [{ 'Upstash-Flow-Control-Value': 'parallelism=0' }, /invalid Upstash-Flow-Control-Value/],
    ];
    for (const [headers, message] of refused) {
      const response = await set(headers);
      expect(response.status, JSON.stringify(headers)).toBe(400);
      expect(response.json.error).toMatch(message);
    }
    const group = await env.stack.api('GET', '/v2/topics/checked');
    expect(group.json.headers).toEqual({
      'Upstash-Retries': ['1'],
      'Upstash-Flow-Control-Key': ['per-group'],
    });
    const publish = await env.stack.api('POST', '/v2/publish/checked', {
      // Delayed, so that it is still there to read (the stack's clock does not move by itself in tests).
      headers: { 'Upstash-Flow-Control-Value': 'parallelism=1', 'Upstash-Delay': '1h' },
    });
    expect(publish.status).toBe(200);
    const message = await env.stack.api('GET', `/v2/messages/${publish.json[0].messageId}`);
    expect(message.json).toMatchObject({ maxRetries: 1, flowControlKey: 'per-group', parallelism: 1 });
  });

  it('deletes the group with its last endpoint, and deletes groups', async () => {
    await changeEndpoints('POST', 'shrink', [
      { name: 'one', url: `${env.sink.url}/1` },
      { url: `${env.sink.url}/2` },
    ]);
    await changeEndpoints('DELETE', 'shrink', [{ name: 'one' }]);
    expect((await env.stack.api('GET', '/v2/topics/shrink')).json.endpoints).toEqual([
      { url: `${env.sink.url}/2` },
    ]);
    const last = await changeEndpoints('DELETE', 'shrink', [{ url: `${env.sink.url}/2` }]);
    expect(last.status).toBe(200);
    expect((await env.stack.api('GET', '/v2/topics/shrink')).status).toBe(404);

    await changeEndpoints('POST', 'gone', [{ url: `${env.sink.url}/g` }]);
    expect((await env.stack.api('DELETE', '/v2/topics/gone')).status).toBe(200);
    expect((await env.stack.api('DELETE', '/v2/topics/gone')).status).toBe(404);
    const publish = await env.stack.api('POST', '/v2/publish/gone', { body: 'x' });
    expect(publish.status).toBe(404);
    expect(publish.json.error).toBe("URL group 'gone' not found");
  });

  it('refuses bad group input', async () => {
    const cases: [string, string, string | undefined, number, RegExp][] = [
      [
        'POST',
        '/v2/topics/bad%20name/endpoints',
        json({ endpoints: [{ url: `${env.sink.url}/x` }] }),
        400,
        /invalid URL group name/,
      ],
      ['POST', '/v2/topics/g/endpoints', json({ endpoints: [] }), 400, /non-empty list/],
      ['POST', '/v2/topics/g/endpoints', json({ endpoints: [{ name: 'n' }] }), 400, /'url' is required/],
      ['POST', '/v2/topics/g/endpoints', json({ endpoints: [{ url: 'ftp://x' }] }), 400, /invalid scheme/],
      [
        'POST',
        '/v2/topics/g/endpoints',
        json({ endpoints: [{ url: 'http://ok', name: 'a b' }] }),
        400,
        /invalid endpoint name/,
      ],
      ['POST', '/v2/topics/g/endpoints', '{not json', 400, /not valid JSON/],
      ['POST', '/v2/topics/g/endpoints', undefined, 400, /empty/],
      ['DELETE', '/v2/topics/nope/endpoints', json({ endpoints: [{ url: 'http://x' }] }), 404, /not found/],
      ['DELETE', '/v2/topics/g/endpoints', json({ endpoints: [{}] }), 400, /give its 'url' or its 'name'/],
      ['PATCH', '/v2/topics/nope', json({ headers: { A: 'b' } }), 404, /not found/],
      ['PATCH', '/v2/topics/g', json({ headers: 'x' }), 400, /'headers' must be an object/],
      ['PATCH', '/v2/topics/g', json({ headers: { 'bad name': 'x' } }), 400, /invalid header name/],
      ['GET', '/v2/topics/nope', undefined, 404, /URL group 'nope' not found/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const response = await env.stack.api(method, path, { body });
      expect(response.status, `${method} ${path} ${body}`).toBe(status);
      expect(response.json.error, `${method} ${path}`).toMatch(message);
    }
  });
});

describe('queues', () => {
  it('creates an unknown queue on enqueue and reports all six fields', async () => {
    const response = await env.stack.api('POST', `/v2/enqueue/auto-q/${env.sink.url}/q`, {
      headers: { 'Upstash-Delay': '1h' },
    });
    expect(response.status).toBe(200);
    const queue = await env.stack.api('GET', '/v2/queues/auto-q');
    expect(queue.json).toEqual({
      name: 'auto-q',
      ...stamped,
      parallelism: 1,
      lag: 1,
      paused: false,
    });
    const message = await env.stack.api('GET', `/v2/messages/${response.json.messageId}`);
    expect(message.json.queueName).toBe('auto-q');
    env.stack.clock.advance(3_600_000);
    await env.sink.waitFor(1);
    await eventually(async () => (await env.stack.api('GET', '/v2/queues/auto-q')).json.lag === 0, 'lag 0');
  });

  it('delivers FIFO, one at a time, with parallelism 1', async () => {
    const gate = gates();
    env.behaviour = gate.reply;
    await env.stack.api('POST', '/v2/queues', { body: json({ queueName: 'fifo', parallelism: 1 }) });
    for (let i = 0; i < 5; i++)
      await env.stack.api('POST', `/v2/enqueue/fifo/${env.sink.url}/fifo-${i}`, { body: String(i) });
    expect((await env.stack.api('GET', '/v2/queues/fifo')).json.lag).toBe(5);
    for (let i = 1; i <= 5; i++) {
      await env.sink.waitFor(i);
      await settle(30);
      expect(env.sink.open).toBe(1);
      gate.releaseOne();
    }
    expect(env.sink.received.map((r) => r.url)).toEqual([
      '/fifo-0',
      '/fifo-1',
      '/fifo-2',
      '/fifo-3',
      '/fifo-4',
    ]);
    expect(env.sink.maxOpen).toBe(1);
    await eventually(async () => (await env.stack.api('GET', '/v2/queues/fifo')).json.lag === 0, 'lag 0');
  });

  it('holds the next message while the head of the queue waits for its retry', async () => {
    let first = true;
    env.behaviour = (path) => {
      if (path === '/head' && first) {
        first = false;
        return { status: 500 };
      }
      return {};
    };
    const head = await env.stack.api('POST', `/v2/enqueue/strict/${env.sink.url}/head`, {
      headers: { 'Upstash-Retries': '1', 'Upstash-Retry-Delay': '60000' },
    });
    await env.stack.api('POST', `/v2/enqueue/strict/${env.sink.url}/second`);
    await waitForState(env.stack, head.json.messageId, 'RETRY');
    await settle();
    expect(env.sink.received.map((r) => r.url)).toEqual(['/head']);
    env.stack.clock.advance(60_000);
    await env.sink.waitFor(3);
    expect(env.sink.received.map((r) => r.url)).toEqual(['/head', '/head', '/second']);
  });

  it('runs at most `parallelism` at once', async () => {
    const gate = gates();
    env.behaviour = gate.reply;
    await env.stack.api('POST', '/v2/queues', { body: json({ queueName: 'par3', parallelism: 3 }) });
    for (let i = 0; i < 8; i++) await env.stack.api('POST', `/v2/enqueue/par3/${env.sink.url}/p${i}`);
    await env.sink.waitFor(3);
    await settle(50);
    expect(env.sink.open).toBe(3);
    while (env.sink.received.length < 8 || gate.waiting > 0) {
      gate.releaseAll();
      await settle(20);
    }
    expect(env.sink.maxOpen).toBe(3);
    expect(
      env.sink.received
        .slice(0, 3)
        .map((r) => r.url)
        .sort(),
    ).toEqual(['/p0', '/p1', '/p2']);
  });

  it('accepts but does not deliver while paused, and resumes in order', async () => {
    await env.stack.api('POST', '/v2/queues', {
      body: json({ queueName: 'paused-q', parallelism: 1, paused: true }),
    });
    for (let i = 0; i < 3; i++) {
      expect((await env.stack.api('POST', `/v2/enqueue/paused-q/${env.sink.url}/z${i}`)).status).toBe(200);
    }
    await settle();
    expect(env.sink.received).toHaveLength(0);
    const paused = await env.stack.api('GET', '/v2/queues/paused-q');
    expect(paused.json).toMatchObject({ paused: true, lag: 3 });
    expect((await env.stack.api('POST', '/v2/queues/paused-q/resume')).status).toBe(200);
    await env.sink.waitFor(3);
    expect(env.sink.received.map((r) => r.url)).toEqual(['/z0', '/z1', '/z2']);
    expect((await env.stack.api('POST', '/v2/queues/paused-q/pause')).status).toBe(200);
    expect((await env.stack.api('GET', '/v2/queues/paused-q')).json.paused).toBe(true);
  });

  it('lists and deletes queues, and refuses bad queue input', async () => {
    await env.stack.api('POST', '/v2/queues', { body: json({ queueName: 'to-delete', parallelism: 2 }) });
    const list = await env.stack.api('GET', '/v2/queues');
    expect(list.json.find((q: { name: string }) => q.name === 'to-delete')).toMatchObject({
      parallelism: 2,
      lag: 0,
      paused: false,
    });
    expect((await env.stack.api('DELETE', '/v2/queues/to-delete')).status).toBe(200);
    expect((await env.stack.api('GET', '/v2/queues/to-delete')).status).toBe(404);
    expect((await env.stack.api('DELETE', '/v2/queues/never-existed')).status).toBe(200);
    const cases: [string, string, string | undefined, number, RegExp][] = [
      ['POST', '/v2/queues', json({ queueName: 'bad name', parallelism: 1 }), 400, /invalid queue name/],
      ['POST', '/v2/queues', json({ queueName: 'q', parallelism: 0 }), 400, /parallelism/],
      ['POST', '/v2/queues', json({ queueName: 'q', parallelism: 1.5 }), 400, /parallelism/],
      ['POST', '/v2/queues', json({ parallelism: 1 }), 400, /queueName/],
      ['POST', '/v2/queues', json({ queueName: 'q', paused: 'yes' }), 400, /paused/],
      ['POST', '/v2/queues', json([1]), 400, /JSON object/],
      ['GET', '/v2/queues/unknown-q', undefined, 404, /queue 'unknown-q' not found/],
      ['POST', '/v2/queues/unknown-q/pause', undefined, 404, /not found/],
      ['POST', '/v2/queues/unknown-q/resume', undefined, 404, /not found/],
      ['POST', `/v2/enqueue/bad%20q/${env.sink.url}/x`, 'x', 400, /invalid queue name/],
    ];
    for (const [method, path, body, status, message] of cases) {
      const response = await env.stack.api(method, path, { body });
      expect(response.status, `${method} ${path} ${body}`).toBe(status);
      expect(response.json.error).toMatch(message);
    }
  });
});

describe('flow control', () => {
  it('never runs more than `parallelism` deliveries of one key at once', async () => {
    const gate = gates();
    let open = 0;
    let maxOpen = 0;
    env.behaviour = (path) => {
      if (!path.startsWith('/fp')) return {};
      open++;
      maxOpen = Math.max(maxOpen, open);
      const held = gate.reply();
      return { wait: held.wait?.then(() => void open--) };
    };
    const headers = { 'Upstash-Flow-Control-Key': 'fk-par', 'Upstash-Flow-Control-Value': 'parallelism=2' };
    for (let i = 0; i < 6; i++)
      await env.stack.api('POST', `/v2/publish/${env.sink.url}/fp${i}`, { headers });
    // Another key is not held back by the first.
    await env.stack.api('POST', `/v2/publish/${env.sink.url}/other`, {
      headers: { 'Upstash-Flow-Control-Key': 'fk-other', 'Upstash-Flow-Control-Value': 'parallelism=1' },
    });
    await env.sink.waitFor(1, { match: (r) => r.url === '/other' });
    await env.sink.waitFor(2, { match: (r) => r.url.startsWith('/fp') });
    await settle(50);
    expect(env.sink.received.filter((r) => r.url.startsWith('/fp'))).toHaveLength(2);
    while (env.sink.received.filter((r) => r.url.startsWith('/fp')).length < 6 || gate.waiting > 0) {
      gate.releaseOne();
      await settle(20);
    }
    expect(maxOpen).toBe(2);
  });

  it('starts at most `rate` deliveries per period', async () => {
    const headers = {
      'Upstash-Flow-Control-Key': 'fk-rate',
      'Upstash-Flow-Control-Value': 'rate=3, period=1m',
    };
    for (let i = 0; i < 7; i++) await env.stack.api('POST', `/v2/publish/${env.sink.url}/r${i}`, { headers });
    await env.sink.waitFor(3);
    await settle();
    expect(env.sink.received).toHaveLength(3);
    env.stack.clock.advance(59_999);
    await settle();
    expect(env.sink.received).toHaveLength(3);
    env.stack.clock.advance(1);
    await env.sink.waitFor(6);
    await settle();
    expect(env.sink.received).toHaveLength(6);
    env.stack.clock.advance(60_000);
    await env.sink.waitFor(7);
    expect(env.sink.received.map((r) => r.url)).toEqual(['/r0', '/r1', '/r2', '/r3', '/r4', '/r5', '/r6']);
  });
});
