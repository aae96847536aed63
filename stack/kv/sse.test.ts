// Server-sent event streams against a real redis-server: formats, one Redis connection per stream (and
// none left after 1,000 streams), and a MONITOR client too slow to keep up.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MonitorView } from './monitor-view';
import { droppedNotice, sseEvent } from './sse';
import type { TestService } from './test-support';
import { eventually, startTestService } from './test-support';

let kv: TestService;

beforeAll(async () => {
  kv = await startTestService();
});

afterAll(async () => {
  await kv?.stop();
});

/** An SSE client on fetch: `next()` resolves with the next event's data (data lines joined by \n). */
class SseClient {
  private buffer = '';
  readonly raw: string[] = [];
  private constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly abort: AbortController,
  ) {}

  static async open(service: TestService, path: string, token = service.token): Promise<SseClient> {
    const abort = new AbortController();
    const res = await fetch(service.url + path, {
      method: 'POST',
      body: '[]',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'text/event-stream',
        'upstash-encoding': 'base64',
      },
      signal: abort.signal,
    });
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('upstash-sync-token')).toBeTruthy();
    return new SseClient(res.body!.getReader(), abort);
  }

  async next(): Promise<string> {
    const decoder = new TextDecoder();
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        this.raw.push(block);
        if (block.startsWith(':')) continue;
        return block
          .split('\n')
          .map((line) => line.replace(/^data: /, ''))
          .join('\n');
      }
      const { value, done } = await this.reader.read();
      if (done) throw new Error('stream ended');
      this.buffer += decoder.decode(value, { stream: true });
    }
  }

  /** Reads events until one matches; returns all events read. */
  async until(match: (data: string) => boolean): Promise<string[]> {
    const seen: string[] = [];
    for (;;) {
      const data = await this.next();
      seen.push(data);
      if (match(data)) return seen;
    }
  }

  close(): void {
    this.abort.abort();
  }
}

describe('SSE framing helpers', () => {
  it('splits payloads with line breaks into several data lines', () => {
    expect(sseEvent('a,b')).toBe('data: a,b\n\n');
    expect(sseEvent('a\nb\r\nc\rd')).toBe('data: a\ndata: b\ndata: c\ndata: d\n\n');
  });

  it('masks the client address of MONITOR lines and drops AUTH lines', () => {
    const view = new MonitorView({ isOwn: () => false });
    expect(view.line('1721284005.242090 [0 127.0.0.1:5000] "GET" "k"')).toBe(
      '1721284005.242090 [0 0.0.0.0:0] "GET" "k"',
    );
    expect(view.line('1721284005.242090 [3 lua] "set" "k" "v"')).toBe(
      '1721284005.242090 [3 lua] "set" "k" "v"',
    );
    expect(
      view.line('1721284005.242090 [0 127.0.0.1:5000] "AUTH" "(redacted)" "(redacted)"'),
    ).toBeUndefined();
    expect(view.line('1721284005.242090 [0 127.0.0.1:5000] "auth" "(redacted)"')).toBeUndefined();
  });

  it('names the REST caller of a connection the bridge labelled, and masks every other client', () => {
    const labels = new Map([['127.0.0.1:5000', '127.0.0.1 read-only']]);
    const view = new MonitorView(
      { isOwn: () => false },
      { of: (address) => labels.get(address), hidden: () => false },
    );
    expect(view.line('1.000001 [0 127.0.0.1:5000] "GET" "k"')).toBe(
      '1.000001 [0 127.0.0.1 read-only] "GET" "k"',
    );
    expect(view.line('1.000002 [0 127.0.0.1:5001] "GET" "k"')).toBe('1.000002 [0 0.0.0.0:0] "GET" "k"');
  });

  it("shows the bridge's script calls as the client's command, without the script's own commands", () => {
    const own = 'a'.repeat(40);
    const view = new MonitorView({ isOwn: (sha) => sha === own });
    const lines = [
      `1.000001 [0 127.0.0.1:5000] "EVALSHA" "${own}" "1" "k\\"1" "JSON.SET" "k\\"1" "$" "{\\"a\\":1}"`,
      '1.000002 [0 lua] "HGET" "k\\"1" "ReJSON-RL"',
      '1.000003 [0 lua] "HSET" "k\\"1" "ReJSON-RL" "{\\"a\\":1}"',
      `1.000004 [0 127.0.0.1:5000] "EVALSHA_RO" "${own}" "2" "a" "b" "JSON.MGET" "a" "b" "$"`,
      '1.000005 [0 lua] "HGET" "a" "ReJSON-RL"',
      `1.000006 [0 127.0.0.1:5001] "EVALSHA" "${'b'.repeat(40)}" "0"`,
      '1.000007 [0 lua] "GET" "x"',
    ];
    expect(lines.map((l) => view.line(l))).toEqual([
      '1.000001 [0 0.0.0.0:0] "JSON.SET" "k\\"1" "$" "{\\"a\\":1}"',
      undefined,
      undefined,
      '1.000004 [0 0.0.0.0:0] "JSON.MGET" "a" "b" "$"',
      undefined,
      // A client's own script and its commands are shown as they are.
      `1.000006 [0 0.0.0.0:0] "EVALSHA" "${'b'.repeat(40)}" "0"`,
      '1.000007 [0 lua] "GET" "x"',
    ]);
  });
});

describe('/monitor', () => {
  it('starts with "OK" and then shows every command with its REST caller and no AUTH lines', async () => {
    const monitor = await SseClient.open(kv, '/monitor');
    expect(await monitor.next()).toBe('"OK"');
    // A new Redis connection (its AUTH must not show) and commands with commas, quotes and newlines.
    const other = await SseClient.open(kv, '/subscribe/mon-chan');
    await kv.call('/set/mon:k', { method: 'POST', body: 'a,b "c"\nd' });
    const seen = await monitor.until((line) => line.includes('"mon:k"'));
    expect(seen.at(-1)).toMatch(/^\d+\.\d+ \[0 127\.0\.0\.1 default\] "set" "mon:k" "a,b \\"c\\"\\nd"$/);
    expect(seen.some((line) => /"auth"/i.test(line))).toBe(false);
    expect(seen.some((line) => line.includes('"SUBSCRIBE" "mon-chan"'))).toBe(true);
    other.close();
    monitor.close();
    await eventually(() => kv.streamStats().open === 0 && kv.connections().dedicated === 0);
  });

  it('opens cleanly while Redis is busy: lines that arrive right behind "+OK" are streamed, not fatal', async () => {
    // Other clients keep Redis busy, so MONITOR's "+OK" and the first lines share one read. That once
    // dropped the connection ("a reply nobody asked for") and ended the stream with an error at once.
    let busy = true;
    const sets = JSON.stringify(Array.from({ length: 50 }, (_, i) => ['SET', `busy:${i}`, 'v']));
    const traffic = Array.from({ length: 4 }, async () => {
      while (busy) await (await kv.call('/pipeline', { method: 'POST', body: sets })).text();
    });
    try {
      for (let round = 0; round < 40; round++) {
        const monitor = await SseClient.open(kv, '/monitor');
        expect(await monitor.next()).toBe('"OK"');
        // Still streaming: a few more command lines, none of them the error event.
        for (let i = 0; i < 3; i++) expect(await monitor.next()).toMatch(/^\d+\.\d+ \[0 /);
        monitor.close();
      }
    } finally {
      busy = false;
      await Promise.all(traffic);
    }
    await eventually(() => kv.streamStats().open === 0 && kv.connections().dedicated === 0);
  });

  it('is refused to the read-only token before streaming (MONITOR is not a read command)', async () => {
    const res = await kv.json('/monitor', {
      method: 'POST',
      headers: { authorization: `Bearer ${kv.readOnlyToken}` },
    });
    expect(res).toEqual({
      status: 400,
      body: { error: "NOPERM this user has no permissions to run the 'monitor' command" },
    });
  });

  it('answers a missing token with the JSON 401 before streaming', async () => {
    const res = await fetch(`${kv.url}/monitor`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'WRONGPASS invalid or missing auth token' });
  });
});

describe('/subscribe and /psubscribe', () => {
  it('streams subscribe and message lines; payloads keep commas and split at newlines', async () => {
    const sub = await SseClient.open(kv, '/subscribe/chat');
    expect(await sub.next()).toBe('subscribe,chat,1');
    expect(await kv.json('/publish/chat/hello')).toEqual({ status: 200, body: { result: 1 } });
    expect(await sub.next()).toBe('message,chat,hello');
    await kv.call('/publish/chat', { method: 'POST', body: 'a,b,c\nsecond line' });
    expect(await sub.next()).toBe('message,chat,a,b,c\nsecond line');
    expect(sub.raw.at(-1)).toBe('data: message,chat,a,b,c\ndata: second line');
    sub.close();
  });

  it('gives every stream its own Redis connection (a second subscriber counts 1 too)', async () => {
    const one = await SseClient.open(kv, '/subscribe/shared');
    const two = await SseClient.open(kv, '/subscribe/shared');
    expect(await one.next()).toBe('subscribe,shared,1');
    expect(await two.next()).toBe('subscribe,shared,1');
    expect(kv.connections().dedicated).toBe(2);
    expect((await kv.json('/publish/shared/x')).body).toEqual({ result: 2 });
    expect(await one.next()).toBe('message,shared,x');
    expect(await two.next()).toBe('message,shared,x');
    one.close();
    two.close();
  });

  it.each([
    {
      what: 'takes everything after /subscribe/ as the channel, percent-decoded',
      path: '/subscribe/room/a%20b',
      publish: ['PUBLISH', 'room/a b', 'hi'],
      lines: ['subscribe,room/a b,1', 'message,room/a b,hi'],
    },
    {
      what: 'streams psubscribe and pmessage lines',
      path: '/psubscribe/news.*',
      publish: ['PUBLISH', 'news.tech', '{"a":1,"b":2}'],
      lines: ['psubscribe,news.*,1', 'pmessage,news.*,news.tech,{"a":1,"b":2}'],
    },
  ])('$what', async ({ path, publish, lines }) => {
    const sub = await SseClient.open(kv, path);
    expect(await sub.next()).toBe(lines[0]);
    await kv.call('/', { method: 'POST', body: JSON.stringify(publish) });
    expect(await sub.next()).toBe(lines[1]);
    sub.close();
  });

  it('leaks no Redis connection over 1,000 open/close cycles', async () => {
    await kv.admin(['PING']);
    await eventually(() => kv.connections().dedicated === 0 && kv.streamStats().open === 0);
    const clients = async (): Promise<number> => {
      const info = ((await kv.admin(['INFO', 'clients'])) as Buffer).toString();
      return Number(/connected_clients:(\d+)/.exec(info)![1]);
    };
    const baseline = await clients();
    let cycles = 0;
    const worker = async (): Promise<void> => {
      while (cycles < 1000) {
        cycles++;
        const sub = await SseClient.open(kv, `/subscribe/leak-${cycles % 7}`);
        expect(await sub.next()).toMatch(/^subscribe,leak-\d,\d+$/);
        sub.close();
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    expect(cycles).toBe(1000);
    await eventually(async () => kv.connections().dedicated === 0 && kv.streamStats().open === 0);
    await eventually(async () => (await clients()) === baseline);
    const channels = (await kv.admin(['PUBSUB', 'CHANNELS', 'leak-*'])) as unknown[];
    expect(channels).toEqual([]);
    // 1,000 streams take 7 s alone and 13-24 s at load 7-9 (30 s, the default, timed out at load 9).
  }, 120_000);
});

describe('a MONITOR client too slow to keep up', () => {
  let slow: TestService;
  const cap = 64 * 1024;

  beforeAll(async () => {
    slow = await startTestService({ sseBufferBytes: cap });
  });

  afterAll(async () => {
    await slow?.stop();
  });

  it('gets lines dropped with a notice, while the bridge buffers at most about the cap', async () => {
    // A raw socket we can stop reading from: the kernel buffers fill, then the bridge's own buffer.
    const socket = net.connect(Number(new URL(slow.url).port), '127.0.0.1');
    let received = '';
    const waitFor = (text: string): Promise<void> => eventually(() => received.includes(text), 5);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
    });
    socket.write(
      `POST /monitor HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${slow.token}\r\nContent-Length: 0\r\n\r\n`,
    );
    await waitFor('data: "OK"');
    socket.pause();

    // One EVAL makes Redis run 3,000 SETs with a 10 KB value: about 30 MB of MONITOR output.
    const value = 'v'.repeat(10_000);
    const script = "for i = 1, 3000 do redis.call('SET', 'slow:k', ARGV[1]) end return 1";
    const res = await slow.json('/', { method: 'POST', body: JSON.stringify(['EVAL', script, '0', value]) });
    expect(res.body).toEqual({ result: 1 });
    await eventually(() => slow.streamStats().dropped > 0);

    socket.resume();
    // Once the client has caught up, the notice comes and new lines flow again. (A command run before
    // that may itself be dropped, so the marker is repeated until one arrives.)
    await waitFor('data: "DROPPED ');
    await eventually(async () => {
      await slow.call('/set/slow:marker/done');
      return received.includes('"slow:marker"');
    }, 50);
    const notices = [...received.matchAll(/data: "DROPPED (\d+) lines: the client reads too slowly"/g)];
    expect(notices.length).toBeGreaterThan(0);
    const reported = notices.reduce((sum, m) => sum + Number(m[1]), 0);
    expect(reported).toBe(slow.streamStats().dropped);
    expect(received).toContain(`data: ${droppedNotice(Number(notices[0]![1]))}`);
    // Bounded: the cap plus at most one line (10 KB, escaped) beyond it.
    expect(slow.streamStats().maxBuffered).toBeLessThan(cap + 12_000);
    socket.destroy();
    await eventually(() => slow.streamStats().open === 0 && slow.connections().dedicated === 0);
    // About 30 MB of MONITOR output: 5 s alone, 11-22 s at load 7-9 (30 s timed out at load 9).
  }, 120_000);
});
