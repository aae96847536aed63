// Compatibility: the vendor's own client, @upstash/redis, against the bridge and a real redis-server.
import { Redis } from '@upstash/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TestService } from './test-support';
import { eventually, startTestService } from './test-support';

let kv: TestService;

beforeAll(async () => {
  kv = await startTestService();
});

afterAll(async () => {
  await kv?.stop();
});

type Options = { enableAutoPipelining?: boolean; responseEncoding?: false | 'base64' };

function client(options: Options = {}, token = kv.token): Redis {
  return new Redis({ url: kv.url, token, enableTelemetry: false, ...options });
}

/** The request paths the SDK sends while `run` runs (it calls the global fetch). */
async function recordPaths<T>(run: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
  const original = globalThis.fetch;
  const paths: string[] = [];
  globalThis.fetch = (input, init) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return original(input, init);
  };
  try {
    return { result: await run(), paths };
  } finally {
    globalThis.fetch = original;
  }
}

const modes: [string, Options][] = [
  ['auto-pipelining, base64', {}],
  ['auto-pipelining, no base64', { responseEncoding: false }],
  ['no auto-pipelining, base64', { enableAutoPipelining: false }],
  ['no auto-pipelining, no base64', { enableAutoPipelining: false, responseEncoding: false }],
];

describe.each(modes)('@upstash/redis with %s', (mode, options) => {
  const p = (key: string): string => `sdk:${mode}:${key}`;

  it('round-trips strings, numbers, objects, emoji and % data', async () => {
    const redis = client(options);
    const values: [string, unknown][] = [
      ['str', 'hello world'],
      ['num', 42],
      ['float', 1.5],
      ['obj', { a: 1, b: [true, null, 'x'] }],
      ['emoji', '😀 ünïcödé'],
      ['percent', '100% %20 %zz'],
      ['ok', 'OK'],
    ];
    for (const [key, value] of values) expect(await redis.set(p(key), value)).toBe('OK');
    for (const [key, value] of values) expect(await redis.get(p(key)), key).toEqual(value);
    expect(await redis.get(p('missing'))).toBeNull();
  });

  it('runs a batch of concurrent commands (one auto-pipeline when enabled)', async () => {
    const redis = client(options);
    await redis.del(p('counter'), p('hash'), p('list'), p('zset'));
    const paths = await recordPaths(() =>
      Promise.all([
        redis.set(p('counter'), 10),
        redis.incrby(p('counter'), 5),
        redis.hset(p('hash'), { f1: 'v1', f2: 2 }),
        redis.lpush(p('list'), 'a', 'b', 'c'),
        redis.zadd(p('zset'), { score: 1, member: 'one' }, { score: 2, member: 'two' }),
      ]),
    );
    expect(paths.result).toEqual(['OK', 15, 2, 3, 2]);
    expect(paths.paths).toEqual(
      options.enableAutoPipelining === false ? ['/', '/', '/', '/', '/'] : ['/pipeline'],
    );
    const [counter, hash, list, zset, mget, exists] = await Promise.all([
      redis.get(p('counter')),
      redis.hgetall(p('hash')),
      redis.lrange(p('list'), 0, -1),
      redis.zrange(p('zset'), 0, -1, { withScores: true }),
      redis.mget(p('counter'), p('missing')),
      redis.exists(p('counter'), p('hash'), p('missing')),
    ]);
    expect(counter).toBe(15);
    expect(hash).toEqual({ f1: 'v1', f2: 2 });
    expect(list).toEqual(['c', 'b', 'a']);
    expect(zset).toEqual(['one', 1, 'two', 2]);
    expect(mget).toEqual([15, null]);
    expect(exists).toBe(2);
  });

  it('surfaces Redis errors as UpstashError with the Redis text', async () => {
    const redis = client(options);
    await redis.set(p('text'), 'abc');
    await expect(redis.incr(p('text'))).rejects.toThrow('ERR value is not an integer or out of range');
  });
});

describe('@upstash/redis pipelines and transactions', () => {
  it('returns pipeline errors in place with keepErrors, and throws without', async () => {
    const redis = client();
    const pipe = redis.pipeline();
    pipe.set('sdk:pipe', 'v');
    pipe.hget('sdk:pipe', 'f');
    pipe.get('sdk:pipe');
    const results = await pipe.exec({ keepErrors: true });
    expect(results).toEqual([
      { result: 'OK', error: undefined },
      { result: undefined, error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
      { result: 'v', error: undefined },
    ]);
    const failing = redis.pipeline();
    failing.set('sdk:pipe', 'v');
    failing.hget('sdk:pipe', 'f');
    await expect(failing.exec()).rejects.toThrow(/Command 2 \[ hget \] failed: WRONGTYPE/);
  });

  it('runs multi() atomically, with a failing command in place', async () => {
    const redis = client();
    await redis.del('sdk:tx');
    const ok = await redis.multi().set('sdk:tx', 1).incr('sdk:tx').get('sdk:tx').exec();
    expect(ok).toEqual(['OK', 2, 2]);
    const tx = redis.multi();
    tx.set('sdk:tx', 'x');
    tx.lpush('sdk:tx', 'y');
    tx.get('sdk:tx');
    const kept = await tx.exec({ keepErrors: true });
    expect(kept.map((e) => e.error ?? e.result)).toEqual([
      'OK',
      'WRONGTYPE Operation against a key holding the wrong kind of value',
      'x',
    ]);
  });

  it('runs scripts, falling back from EVALSHA to EVAL after NOSCRIPT', async () => {
    const redis = client();
    const script = redis.createScript<string>("return ARGV[1] .. ':' .. redis.call('INCR', KEYS[1])");
    await redis.scriptFlush();
    await redis.del('sdk:script');
    expect(await script.exec(['sdk:script'], ['first'])).toBe('first:1');
    expect(await redis.scriptExists(script.sha1)).toEqual([1]);
    expect(await script.exec(['sdk:script'], ['second'])).toBe('second:2');
    await expect(redis.evalsha('0'.repeat(40), [], [])).rejects.toThrow('NOSCRIPT No matching script');
    const readOnly = redis.createScript("return redis.call('GET', KEYS[1])", { readonly: true });
    expect(await readOnly.exec(['sdk:script'], [])).toBe(2);
  });

  it('works with streams and consumer groups', async () => {
    const redis = client();
    await redis.del('sdk:stream');
    const id = await redis.xadd('sdk:stream', '*', { field: 'value', n: 1 });
    expect(id).toMatch(/^\d+-\d+$/);
    expect(await redis.xlen('sdk:stream')).toBe(1);
    expect(await redis.xrange('sdk:stream', '-', '+')).toEqual({ [id]: { field: 'value', n: 1 } });
    expect(await redis.xgroup('sdk:stream', { type: 'CREATE', group: 'g', id: '0' })).toBe('OK');
    const read = (await redis.xreadgroup('g', 'c', 'sdk:stream', '>')) as unknown[];
    expect(JSON.stringify(read)).toContain('value');
    expect(await redis.xack('sdk:stream', 'g', id)).toBe(1);
  });
});

describe('@upstash/redis subscriptions', () => {
  it('subscribes, receives messages (commas and JSON) and unsubscribes', async () => {
    const redis = client();
    const subscriber = redis.subscribe<unknown>(['sdk-chan']);
    const counts: number[] = [];
    const messages: unknown[] = [];
    subscriber.on('subscribe', (count) => counts.push(count));
    subscriber.on('message', ({ message }) => messages.push(message));
    await eventually(() => counts.length === 1);
    expect(counts).toEqual([1]);
    expect(await redis.publish('sdk-chan', 'plain, with commas')).toBe(1);
    expect(await redis.publish('sdk-chan', { a: 1 })).toBe(1);
    await eventually(() => messages.length === 2);
    expect(messages).toEqual(['plain, with commas', { a: 1 }]);
    await subscriber.unsubscribe();
    await eventually(() => kv.connections().dedicated === 0);
  });

  it('psubscribes and receives pmessages', async () => {
    const redis = client();
    const subscriber = redis.psubscribe<unknown>(['sdk-news.*']);
    const events: unknown[] = [];
    let subscribed = false;
    subscriber.on('psubscribe', () => (subscribed = true));
    subscriber.on('pmessage', (event) => events.push(event));
    await eventually(() => subscribed);
    expect(await redis.publish('sdk-news.tech', { title: 'a, b' })).toBe(1);
    await eventually(() => events.length === 1);
    expect(events).toEqual([{ pattern: 'sdk-news.*', channel: 'sdk-news.tech', message: { title: 'a, b' } }]);
    await subscriber.unsubscribe();
    await eventually(() => kv.connections().dedicated === 0);
  });
});

describe('@upstash/redis tokens and read-your-writes', () => {
  it('gets a new sync token from every response: commands, pipelines, transactions and scripts', async () => {
    const redis = client({ enableAutoPipelining: false });
    const seen = new Set<string>();
    const record = (): void => {
      expect(redis.readYourWritesSyncToken).toBeTruthy();
      seen.add(redis.readYourWritesSyncToken!);
    };
    await redis.set('sdk:ryw', 1);
    record();
    await redis.get('sdk:ryw');
    record();
    await redis.pipeline().incr('sdk:ryw').get('sdk:ryw').exec();
    record();
    await redis.multi().incr('sdk:ryw').exec();
    record();
    await redis.eval('return 1', [], []);
    record();
    expect(seen.size).toBe(5);
  });

  it('reads but cannot write with the read-only token', async () => {
    await client().set('sdk:ro', 'v');
    const ro = client({}, kv.readOnlyToken);
    expect(await ro.get('sdk:ro')).toBe('v');
    await expect(ro.set('sdk:ro', 'w')).rejects.toThrow(
      /NOPERM this user has no permissions to run the 'set' command/,
    );
    await expect(client({}, 'wrong-token').get('sdk:ro')).rejects.toThrow(
      /WRONGPASS invalid or missing auth token/,
    );
  });
});
