// The hosted service's key size limit (32 KB): a command naming a longer key is refused and not run, in every
// form; long values and long arguments that are not keys still go through. A real stack over redis-server,
// through @upstash/redis where an app would meet the limit, raw requests for the exact wire answers.
import { Redis, s } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import type { RespArg } from './resp';
import { monitorLinesOf, useTestService } from './test-support';

const env = useTestService();

const LIMIT = 32_768;
const key = (bytes: number, prefix = 'ks:'): string => prefix + 'k'.repeat(bytes - prefix.length);
const refusal = (actual: number): string =>
  `ERR max key size exceeded. Limit: ${LIMIT} bytes, Actual: ${actual} bytes`;

const sdk = (): Redis =>
  new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false, enableAutoPipelining: false });

/** `POST <path>` with a JSON body: status and parsed body. */
const post = (path: string, body: unknown): Promise<{ status: number; body: unknown }> =>
  env.kv.json(path, { method: 'POST', body: JSON.stringify(body) });

/** A command as the admin user, past the bridge: what Redis really holds. */
const redis = (...args: RespArg[]): Promise<unknown> => env.kv.admin(args);

describe('one command (POST /, the SDK form)', () => {
  it('takes a key of exactly 32768 bytes', async () => {
    const k = key(LIMIT);
    expect(await sdk().set(k, 'v')).toBe('OK');
    expect(await sdk().get(k)).toBe('v');
    expect(await redis('DEL', k)).toBe(1);
  });

  it('refuses a key of 32769 bytes with the hosted text, and writes nothing', async () => {
    const k = key(LIMIT + 1);
    expect(await post('/', ['SET', k, 'v'])).toEqual({ status: 400, body: { error: refusal(LIMIT + 1) } });
    await expect(sdk().set(k, 'v')).rejects.toThrow(refusal(LIMIT + 1));
    expect(await redis('EXISTS', k)).toBe(0);
  });

  it('counts bytes, not characters: 16385 × "é" is 32770 bytes', async () => {
    const k = 'é'.repeat(16_385);
    await expect(sdk().set(k, 'v')).rejects.toThrow(refusal(32_770));
    expect(await redis('EXISTS', k)).toBe(0);
  });

  it('takes a 100 KB value under a short key', async () => {
    const value = 'v'.repeat(100_000);
    expect(await sdk().set('ks:big-value', value)).toBe('OK');
    expect(await sdk().get('ks:big-value')).toBe(value);
  });

  it('refuses a long key that is not the first: MSET, EVAL numkeys, XREAD STREAMS, ZUNIONSTORE', async () => {
    const long = key(40_000);
    const actual = refusal(40_000);
    await expect(sdk().mset({ 'ks:mset-1': 'v1', [long]: 'v2' })).rejects.toThrow(actual);
    expect(await redis('EXISTS', 'ks:mset-1')).toBe(0);
    await expect(
      sdk().eval("return redis.call('SET', KEYS[1], 'x')", ['ks:eval-1', long], []),
    ).rejects.toThrow(actual);
    expect(await redis('EXISTS', 'ks:eval-1')).toBe(0);
    expect(await post('/', ['XREAD', 'COUNT', '1', 'STREAMS', 'ks:stream', long, '0', '0'])).toEqual({
      status: 400,
      body: { error: actual },
    });
    await expect(sdk().zunionstore('ks:union', 2, ['ks:z', long])).rejects.toThrow(actual);
    await expect(sdk().zunionstore(long, 1, ['ks:z'])).rejects.toThrow(actual);
  });

  it('runs commands whose long arguments are not keys: a script body, ARGV, a PUBLISH message', async () => {
    const long = 'x'.repeat(40_000);
    const script = `-- ${long}\nreturn redis.call('SET', KEYS[1], ARGV[1])`;
    expect(await sdk().eval(script, ['ks:eval-body'], ['v'])).toBe('OK');
    expect(await sdk().eval('return #ARGV[1]', ['ks:eval-argv'], [long])).toBe(40_000);
    expect(await sdk().publish('ks:channel', long)).toBe(0);
    // Not a command Redis knows: its own answer, not the key size one.
    expect(await post('/', ['NOSUCHCOMMAND', long])).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^ERR unknown command/) as unknown },
    });
  });

  it('refuses JSON.* and the emulated hash commands by their key, not their values', async () => {
    const long = key(LIMIT + 1);
    await expect(sdk().json.set(long, '$', { a: 1 })).rejects.toThrow(refusal(LIMIT + 1));
    expect(await redis('EXISTS', long)).toBe(0);
    const document = { text: 'd'.repeat(40_000) };
    expect(await sdk().json.set('ks:doc', '$', document)).toBe('OK');
    expect(await sdk().json.get('ks:doc')).toEqual(document);
    // JSON.MSET's keys are every third argument (json/commands.ts says so to the script, and so to GETKEYS).
    expect(await post('/', ['JSON.MSET', 'ks:doc-1', '$', '1', long, '$', '2'])).toEqual({
      status: 400,
      body: { error: refusal(LIMIT + 1) },
    });
    expect(await redis('EXISTS', 'ks:doc-1')).toBe(0);
    // HEXPIRE is Redis 7.4's, answered by the bridge's script on an older redis-server.
    expect(await post('/', ['HEXPIRE', long, '100', 'FIELDS', '1', 'f'])).toEqual({
      status: 400,
      body: { error: refusal(LIMIT + 1) },
    });
  });

  it('does not hold a SEARCH index name to it (not a key)', async () => {
    const name = 'i'.repeat(LIMIT + 1);
    const schema = s.object({ title: s.string() });
    await sdk().search.createIndex({ name, schema, dataType: 'hash', prefix: 'ks:search:' });
    expect(await post('/', ['SEARCH.DESCRIBE', name])).toMatchObject({ status: 200 });
  });

  it('leaves its question to Redis out of MONITOR, which shows no refused command', async () => {
    const lines = await monitorLinesOf(env.kv, '"SET"', 'ks:monitor-end', async () => {
      await post('/', ['SET', key(LIMIT + 1, 'ks:monitor-'), 'v']);
      await post('/', ['SET', 'ks:monitor-end', 'v']);
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/"SET" "ks:monitor-end" "v"$/);
  });

  it('answers the refusal as RESP2 bytes when asked', async () => {
    const res = await env.kv.call('/', {
      method: 'POST',
      body: JSON.stringify(['GET', key(LIMIT + 1)]),
      headers: { 'upstash-response-format': 'resp2' },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(`-${refusal(LIMIT + 1)}\r\n`);
  });
});

describe('the path form', () => {
  it('refuses a long key in the path and runs a long value in the body', async () => {
    const long = key(LIMIT + 1);
    expect(await env.kv.json(`/set/${long}/v`)).toEqual({ status: 400, body: { error: refusal(LIMIT + 1) } });
    expect(await redis('EXISTS', long)).toBe(0);
    const value = 'b'.repeat(100_000);
    expect(await env.kv.json('/set/ks:path-value', { method: 'POST', body: value })).toEqual({
      status: 200,
      body: { result: 'OK' },
    });
    expect(await redis('STRLEN', 'ks:path-value')).toBe(100_000);
  });
});

describe('a pipeline', () => {
  it('answers the refusal in place and runs the other commands', async () => {
    const long = key(LIMIT + 1);
    const pipe = sdk().pipeline();
    pipe.set('ks:pipe-1', 'a');
    pipe.set(long, 'b');
    pipe.get('ks:pipe-1');
    expect(await pipe.exec({ keepErrors: true })).toEqual([
      { result: 'OK', error: undefined },
      { result: undefined, error: refusal(LIMIT + 1) },
      { result: 'a', error: undefined },
    ]);
    expect(await redis('EXISTS', long)).toBe(0);
    expect(await post('/pipeline', [['GET', long], ['PING']])).toEqual({
      status: 200,
      body: [{ error: refusal(LIMIT + 1) }, { result: 'PONG' }],
    });
  });
});

describe('a transaction', () => {
  it('is refused whole: 400 with the refusal, nothing run', async () => {
    const long = key(LIMIT + 1);
    expect(
      await post('/multi-exec', [
        ['SET', 'ks:tx-1', 'a'],
        ['SET', long, 'b'],
      ]),
    ).toEqual({
      status: 400,
      body: { error: refusal(LIMIT + 1) },
    });
    await expect(sdk().multi().set('ks:tx-1', 'a').set(long, 'b').exec()).rejects.toThrow(refusal(LIMIT + 1));
    expect(await redis('EXISTS', 'ks:tx-1')).toBe(0);
    expect(await redis('EXISTS', long)).toBe(0);
    // A long value in a transaction still runs.
    expect(
      await post('/multi-exec', [
        ['SET', 'ks:tx-2', 'v'.repeat(40_000)],
        ['STRLEN', 'ks:tx-2'],
      ]),
    ).toEqual({
      status: 200,
      body: [{ result: 'OK' }, { result: 40_000 }],
    });
  });
});
