// Hash-field expiry (Redis 7.4's HEXPIRE, HPEXPIRE, HEXPIREAT, HPEXPIREAT, HTTL, HPTTL, HEXPIRETIME,
// HPEXPIRETIME, HPERSIST; Redis 8.0's HSETEX, HGETEX, HGETDEL) emulated by the bridge for redis-server 7.0:
// the replies and error texts Redis documents; every other hash command as Redis 7.4+ answers it once a field
// has a TTL (expired fields and the bridge's bookkeeping never show); expired fields swept actively and the
// key gone with its last field; TTLs kept across RENAME; atomic under concurrent callers; read-only token;
// MONITOR lines as sent; and through @upstash/redis. Expiry is waited for, never timed.
import { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import { BOOKKEEPING_FIELD } from './hash-expiry/plain-reads';
import { RespError } from './resp';
import type { CommandReply } from './test-support';
import { commandAs, eventually, monitorLinesOf, useTestService, SDK_WIRE_MODES } from './test-support';

const env = useTestService();

const runAs = (token: string, ...args: (string | number)[]): Promise<CommandReply> =>
  commandAs(env.kv, token, ...args);

const run = (...command: (string | number)[]): Promise<CommandReply> => runAs(env.kv.token, ...command);
const admin = (...command: string[]) => env.kv.admin(command);

/** The result of a command that must succeed (its error, if any, fails the test with the command). */
async function okAs(token: string, ...command: (string | number)[]): Promise<unknown> {
  const reply = await runAs(token, ...command);
  expect(reply.error, command.join(' ')).toBeUndefined();
  return reply.result;
}

const ok = (...command: (string | number)[]): Promise<unknown> => okAs(env.kv.token, ...command);

/** HGETALL through the bridge, as an object. */
async function hashOf(key: string, token = env.kv.token): Promise<Record<string, string>> {
  const reply = await runAs(token, 'HGETALL', key);
  expect(reply.error, `HGETALL ${key}`).toBeUndefined();
  return pairs(reply.result as string[]);
}

function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  expect(Object.keys(out)).toHaveLength(flat.length / 2);
  return out;
}

/** Every field and value HSCAN (with `options`) walks through, cursor after cursor. */
async function hscanAll(key: string, ...options: string[]): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  let cursor = '0';
  do {
    const [next, flat] = (await ok('HSCAN', key, cursor, ...options)) as [string, string[]];
    Object.assign(seen, pairs(flat));
    cursor = next;
  } while (cursor !== '0');
  return seen;
}

const httl = async (key: string, ...fields: string[]): Promise<number[]> =>
  (await ok('HTTL', key, 'FIELDS', fields.length, ...fields)) as number[];

const hpttl = async (key: string, ...fields: string[]): Promise<number[]> =>
  (await ok('HPTTL', key, 'FIELDS', fields.length, ...fields)) as number[];

/** A TTL set to `seconds` (long, e.g. 100) not long ago: in (seconds - 10, seconds]. */
function expectTtlNear(ttl: number | undefined, seconds: number): void {
  expect(ttl).toBeGreaterThan(seconds - 10);
  expect(ttl).toBeLessThanOrEqual(seconds);
}

const exists = async (key: string): Promise<number> => (await admin('EXISTS', key)) as number;

/** Waits until `key` is gone from redis-server itself (the sweeper deleted it, not only the bridge hides it). */
async function untilGone(key: string): Promise<void> {
  await eventually(async () => (await exists(key)) === 0);
}

let sentinels = 0;
/**
 * Returns once the sweeper has run past every deadline set before the call: a new key whose one field gets
 * PX 400 now (a later deadline than any set before) is waited for until redis-server no longer has it.
 */
async function sweptPastEarlierDeadlines(): Promise<void> {
  const key = `hfe:sentinel:${++sentinels}`;
  expect(await run('HSET', key, 'x', '1')).toEqual({ result: 1 });
  expect(await run('HPEXPIRE', key, '400', 'FIELDS', '1', 'x')).toEqual({ result: [1] });
  await untilGone(key);
}

describe('HEXPIRE, HPEXPIRE, HEXPIREAT, HPEXPIREAT', () => {
  it('answer per field: 1 set, -2 no such field, -2 for every field of a missing key', async () => {
    await ok('HSET', 'hfe:set', 'a', '1', 'b', '2', 'c', '3');
    expect(await run('HEXPIRE', 'hfe:set', '100', 'FIELDS', '2', 'a', 'nope')).toEqual({ result: [1, -2] });
    expect(await run('HPEXPIRE', 'hfe:set', '200000', 'FIELDS', '1', 'b')).toEqual({ result: [1] });
    const [a, b, c, nope] = await httl('hfe:set', 'a', 'b', 'c', 'nope');
    expectTtlNear(a, 100);
    expectTtlNear(b, 200);
    expect([c, nope]).toEqual([-1, -2]);
    expect(await run('HEXPIRE', 'hfe:missing', '100', 'FIELDS', '2', 'a', 'b')).toEqual({ result: [-2, -2] });
    expect(await run('HPEXPIRE', 'hfe:missing', '100', 'FIELDS', '1', 'a')).toEqual({ result: [-2] });
    expect(await exists('hfe:missing')).toBe(0);
    // The values and the field count are untouched; `fields` in any case.
    expect(await hashOf('hfe:set')).toEqual({ a: '1', b: '2', c: '3' });
    expect(await run('HLEN', 'hfe:set')).toEqual({ result: 3 });
    expect(await run('hexpire', 'hfe:set', '100', 'fields', '1', 'c')).toEqual({ result: [1] });
  });

  it('HEXPIREAT and HPEXPIREAT set an absolute time, read back exactly by HEXPIRETIME and HPEXPIRETIME', async () => {
    await ok('HSET', 'hfe:at', 'a', '1', 'b', '2', 'c', '3');
    const seconds = Math.floor(Date.now() / 1000) + 1000;
    // A time 1 ms past a whole second: HEXPIRETIME rounds it up, as httlGenericCommand does for it too.
    const ms = Math.floor(Date.now() / 1000) * 1000 + 1_999_001;
    expect(await run('HEXPIREAT', 'hfe:at', seconds, 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HPEXPIREAT', 'hfe:at', ms, 'FIELDS', '2', 'b', 'nope')).toEqual({ result: [1, -2] });
    expect(await run('HEXPIRETIME', 'hfe:at', 'FIELDS', '4', 'a', 'b', 'c', 'nope')).toEqual({
      result: [seconds, (ms + 999) / 1000, -1, -2],
    });
    expect(await run('HPEXPIRETIME', 'hfe:at', 'FIELDS', '3', 'a', 'b', 'c')).toEqual({
      result: [seconds * 1000, ms, -1],
    });
    const [pa, pb, pc] = await hpttl('hfe:at', 'a', 'b', 'c');
    expect(pa).toBeGreaterThan(990_000);
    expect(pa).toBeLessThanOrEqual(1_000_000);
    expect(pb).toBeGreaterThan(1_990_000);
    expect(pb).toBeLessThanOrEqual(2_000_000);
    expect(pc).toBe(-1);
    expect(await run('HEXPIRETIME', 'hfe:none', 'FIELDS', '2', 'a', 'b')).toEqual({ result: [-2, -2] });
    expect(await run('HPTTL', 'hfe:none', 'FIELDS', '1', 'a')).toEqual({ result: [-2] });
    expect(await run('HTTL', 'hfe:none', 'FIELDS', '1', 'a')).toEqual({ result: [-2] });
  });

  it('answer 2 and delete the field at once for a time of 0 or in the past; the key goes with its last field', async () => {
    await ok('HSET', 'hfe:past', 'a', '1', 'b', '2', 'c', '3', 'd', '4');
    expect(await run('HEXPIRE', 'hfe:past', '0', 'FIELDS', '2', 'a', 'nope')).toEqual({ result: [2, -2] });
    expect(await run('HPEXPIRE', 'hfe:past', '0', 'FIELDS', '1', 'b')).toEqual({ result: [2] });
    expect(await run('HEXPIREAT', 'hfe:past', '1000', 'FIELDS', '1', 'c')).toEqual({ result: [2] });
    expect(await run('HEXISTS', 'hfe:past', 'a')).toEqual({ result: 0 });
    expect(await hashOf('hfe:past')).toEqual({ d: '4' });
    expect(await run('HLEN', 'hfe:past')).toEqual({ result: 1 });
    expect(await run('HTTL', 'hfe:past', 'FIELDS', '2', 'a', 'd')).toEqual({ result: [-2, -1] });
    expect(await run('HPEXPIREAT', 'hfe:past', Date.now() - 1000, 'FIELDS', '1', 'd')).toEqual({
      result: [2],
    });
    expect(await exists('hfe:past')).toBe(0);
    expect(await run('EXISTS', 'hfe:past')).toEqual({ result: 0 });
  });

  it('NX, XX, GT and LT: a field without a TTL counts as never expiring', async () => {
    await ok('HSET', 'hfe:cond', 'ttl', '1', 'plain', '2');
    expect(await run('HEXPIRE', 'hfe:cond', '100', 'FIELDS', '1', 'ttl')).toEqual({ result: [1] });
    // NX: only fields without a TTL.
    expect(await run('HEXPIRE', 'hfe:cond', '300', 'NX', 'FIELDS', '3', 'ttl', 'plain', 'nope')).toEqual({
      result: [0, 1, -2],
    });
    expectTtlNear((await httl('hfe:cond', 'ttl'))[0], 100);
    expectTtlNear((await httl('hfe:cond', 'plain'))[0], 300);
    await ok('HPERSIST', 'hfe:cond', 'FIELDS', '1', 'plain');
    // XX: only fields with a TTL.
    expect(await run('HEXPIRE', 'hfe:cond', '200', 'xx', 'FIELDS', '2', 'ttl', 'plain')).toEqual({
      result: [1, 0],
    });
    expectTtlNear((await httl('hfe:cond', 'ttl'))[0], 200);
    expect(await httl('hfe:cond', 'plain')).toEqual([-1]);
    // GT: only a later time; never for a field without a TTL.
    expect(await run('HEXPIRE', 'hfe:cond', '100', 'GT', 'FIELDS', '2', 'ttl', 'plain')).toEqual({
      result: [0, 0],
    });
    expectTtlNear((await httl('hfe:cond', 'ttl'))[0], 200);
    expect(await run('HPEXPIRE', 'hfe:cond', '400000', 'GT', 'FIELDS', '1', 'ttl')).toEqual({ result: [1] });
    expectTtlNear((await httl('hfe:cond', 'ttl'))[0], 400);
    // LT: only an earlier time; always for a field without a TTL.
    expect(await run('HEXPIRE', 'hfe:cond', '500', 'LT', 'FIELDS', '1', 'ttl')).toEqual({ result: [0] });
    expectTtlNear((await httl('hfe:cond', 'ttl'))[0], 400);
    expect(await run('HEXPIRE', 'hfe:cond', '150', 'lt', 'FIELDS', '2', 'ttl', 'plain')).toEqual({
      result: [1, 1],
    });
    const [ttl, plain] = await httl('hfe:cond', 'ttl', 'plain');
    expectTtlNear(ttl, 150);
    expectTtlNear(plain, 150);
    const at = Math.floor(Date.now() / 1000) + 5000;
    expect(await run('HEXPIREAT', 'hfe:cond', at, 'GT', 'FIELDS', '1', 'ttl')).toEqual({ result: [1] });
    expect(await run('HEXPIRETIME', 'hfe:cond', 'FIELDS', '1', 'ttl')).toEqual({ result: [at] });
    expect(await hashOf('hfe:cond')).toEqual({ ttl: '1', plain: '2' });
  });

  it("answer Redis's errors and change nothing then", async () => {
    await ok('HSET', 'hfe:err', 'a', '1');
    await admin('SET', 'hfe:err:str', 'x');
    await admin('RPUSH', 'hfe:err:list', 'x');
    const wrongType = 'WRONGTYPE Operation against a key holding the wrong kind of value';
    const fieldsMissing = 'ERR Mandatory argument FIELDS is missing or not at the right position';
    const positive = 'ERR Number of fields must be a positive integer';
    const greaterThanZero = 'ERR Parameter `numFields` should be greater than 0';
    const cases: [(string | number)[], string][] = [
      [['HEXPIRE', 'hfe:err:str', '10', 'FIELDS', '1', 'a'], wrongType],
      [['HPEXPIRE', 'hfe:err:list', '10', 'FIELDS', '1', 'a'], wrongType],
      [['HEXPIREAT', 'hfe:err:str', '10', 'FIELDS', '1', 'a'], wrongType],
      [['HPEXPIREAT', 'hfe:err:str', '10', 'FIELDS', '1', 'a'], wrongType],
      [['HTTL', 'hfe:err:str', 'FIELDS', '1', 'a'], wrongType],
      [['HPTTL', 'hfe:err:str', 'FIELDS', '1', 'a'], wrongType],
      [['HEXPIRETIME', 'hfe:err:str', 'FIELDS', '1', 'a'], wrongType],
      [['HPEXPIRETIME', 'hfe:err:list', 'FIELDS', '1', 'a'], wrongType],
      [['HPERSIST', 'hfe:err:str', 'FIELDS', '1', 'a'], wrongType],
      [['HSETEX', 'hfe:err:str', 'EX', '10', 'FIELDS', '1', 'a', '1'], wrongType],
      [['HGETEX', 'hfe:err:list', 'EX', '10', 'FIELDS', '1', 'a'], wrongType],
      [['HEXPIRE', 'hfe:err', '10', 'FIELDS', '1'], "ERR wrong number of arguments for 'hexpire' command"],
      [['HPEXPIRE', 'hfe:err', '10', 'FIELDS'], "ERR wrong number of arguments for 'hpexpire' command"],
      [['HTTL', 'hfe:err', 'FIELDS', '1'], "ERR wrong number of arguments for 'httl' command"],
      [['HPERSIST', 'hfe:err', 'FIELDS'], "ERR wrong number of arguments for 'hpersist' command"],
      [['HEXPIRE', 'hfe:err', '10', 'FIELD', '1', 'a'], fieldsMissing],
      [['HEXPIRE', 'hfe:err', '10', '1', 'FIELDS', 'a'], fieldsMissing],
      [['HEXPIRE', 'hfe:err', '10', 'NX', 'XX', 'FIELDS', '1', 'a'], fieldsMissing],
      [['HTTL', 'hfe:err', 'NOPE', '1', 'a'], fieldsMissing],
      [['HPERSIST', 'hfe:err', '1', 'FIELDS', 'a'], fieldsMissing],
      // The HEXPIRE family words its count error differently from HTTL, HPERSIST, HGETEX and HGETDEL.
      [['HEXPIRE', 'hfe:err', '10', 'FIELDS', '0', 'a'], greaterThanZero],
      [['HPEXPIREAT', 'hfe:err', '10', 'NX', 'FIELDS', '-1', 'a'], greaterThanZero],
      [['HEXPIRE', 'hfe:err', '10', 'FIELDS', 'one', 'a'], greaterThanZero],
      [['HTTL', 'hfe:err', 'FIELDS', '0', 'a'], positive],
      [['HPERSIST', 'hfe:err', 'FIELDS', '-1', 'a'], positive],
      [['HGETEX', 'hfe:err', 'FIELDS', 'one', 'a'], positive],
      [['HEXPIRE', 'hfe:err', '-1', 'FIELDS', '1', 'a'], 'ERR invalid expire time, must be >= 0'],
      [['HPEXPIREAT', 'hfe:err', '-5', 'FIELDS', '1', 'a'], 'ERR invalid expire time, must be >= 0'],
      [['HEXPIRE', 'hfe:err', 'ten', 'FIELDS', '1', 'a'], 'ERR value is not an integer or out of range'],
      [['HPEXPIRE', 'hfe:err', '1.5', 'FIELDS', '1', 'a'], 'ERR value is not an integer or out of range'],
      // Integers as Redis's string2ll reads them: no leading zero, no sign but '-', within 64 bits.
      [['HEXPIRE', 'hfe:err', '010', 'FIELDS', '1', 'a'], 'ERR value is not an integer or out of range'],
      [['HPEXPIRE', 'hfe:err', '-0', 'FIELDS', '1', 'a'], 'ERR value is not an integer or out of range'],
      [['HPEXPIRE', 'hfe:err', '+5', 'FIELDS', '1', 'a'], 'ERR value is not an integer or out of range'],
      [
        ['HGETEX', 'hfe:err', 'EX', '9223372036854775808', 'FIELDS', '1', 'a'],
        'ERR value is not an integer or out of range',
      ],
      [
        ['HPEXPIREAT', 'hfe:err', '-9223372036854775808', 'FIELDS', '1', 'a'],
        'ERR invalid expire time, must be >= 0',
      ],
    ];
    for (const [command, error] of cases) expect(await run(...command), command.join(' ')).toEqual({ error });
    // numfields other than the number of fields given.
    for (const command of [
      ['HEXPIRE', 'hfe:err', '10', 'FIELDS', '2', 'a'],
      ['HEXPIRE', 'hfe:err', '10', 'FIELDS', '1', 'a', 'b'],
      ['HPEXPIRE', 'hfe:err', '10', 'GT', 'FIELDS', '3', 'a', 'b'],
      ['HTTL', 'hfe:err', 'FIELDS', '2', 'a'],
      ['HPERSIST', 'hfe:err', 'FIELDS', '1', 'a', 'b'],
    ]) {
      const reply = await run(...command);
      expect(reply.result, command.join(' ')).toBeUndefined();
      expect(reply.error, command.join(' ')).toMatch(/^ERR .*numfields/);
    }
    expect(await httl('hfe:err', 'a')).toEqual([-1]);
    expect(await hashOf('hfe:err')).toEqual({ a: '1' });
    expect(await admin('GET', 'hfe:err:str')).toEqual(Buffer.from('x'));
    expect(await admin('LRANGE', 'hfe:err:list', '0', '-1')).toEqual([Buffer.from('x')]);
  });

  it('take any field name: empty, non-ASCII, with a NUL byte, or a word of the syntax', async () => {
    const names = { '': 'empty', 'ü 😀': 'u', 'nul\0byte': 'n', FIELDS: 'f', '1': 'one' };
    await ok('HSET', 'hfe:names', ...Object.entries(names).flat());
    expect(await run('HEXPIRE', 'hfe:names', '100', 'FIELDS', '5', ...Object.keys(names))).toEqual({
      result: [1, 1, 1, 1, 1],
    });
    const ttls = await httl('hfe:names', ...Object.keys(names));
    expect(ttls).toHaveLength(5);
    for (const ttl of ttls) expectTtlNear(ttl, 100);
    expect(await hashOf('hfe:names')).toEqual(names);
    expect(await run('HGET', 'hfe:names', 'nul\0byte')).toEqual({ result: 'n' });
    expect(await run('HGET', 'hfe:names', 'nul\0other')).toEqual({ result: null });
    expect(await run('HLEN', 'hfe:names')).toEqual({ result: 5 });
    expect(await run('HPEXPIRE', 'hfe:names', '300', 'FIELDS', '2', '', 'nul\0byte')).toEqual({
      result: [1, 1],
    });
    await eventually(async () => (await run('HLEN', 'hfe:names')).result === 3);
    expect(await hashOf('hfe:names')).toEqual({ 'ü 😀': 'u', FIELDS: 'f', '1': 'one' });
  });
});

describe('edge cases', () => {
  it('a field named twice is handled twice, in order, as Redis does', async () => {
    await ok('HSET', 'hfe:twice', 'a', '1', 'b', '2', 'c', '3');
    expect(await run('HEXPIRE', 'hfe:twice', '100', 'NX', 'FIELDS', '2', 'a', 'a')).toEqual({
      result: [1, 0],
    });
    expect(await run('HPERSIST', 'hfe:twice', 'FIELDS', '2', 'a', 'a')).toEqual({ result: [1, -1] });
    expect(await run('HEXPIRE', 'hfe:twice', '0', 'FIELDS', '2', 'b', 'b')).toEqual({ result: [2, -2] });
    expect(await run('HSETEX', 'hfe:twice', 'EX', '100', 'FIELDS', '2', 'c', 'x', 'c', 'y')).toEqual({
      result: 1,
    });
    expect(await hashOf('hfe:twice')).toEqual({ a: '1', c: 'y' });
    expect(await httl('hfe:twice', 'a')).toEqual([-1]);
    expectTtlNear((await httl('hfe:twice', 'c'))[0], 100);
  });

  it('GT and LT are strict: the same time again is not set', async () => {
    await ok('HSET', 'hfe:strict', 'a', '1');
    const at = Date.now() + 1_000_000;
    expect(await run('HPEXPIREAT', 'hfe:strict', at, 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HPEXPIREAT', 'hfe:strict', at, 'GT', 'FIELDS', '1', 'a')).toEqual({ result: [0] });
    expect(await run('HPEXPIREAT', 'hfe:strict', at, 'LT', 'FIELDS', '1', 'a')).toEqual({ result: [0] });
    expect(await run('HPEXPIREAT', 'hfe:strict', at, 'XX', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HPEXPIREAT', 'hfe:strict', at + 1, 'GT', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HPEXPIRETIME', 'hfe:strict', 'FIELDS', '1', 'a')).toEqual({ result: [at + 1] });
  });

  it('refuse a time beyond what Redis can hold', async () => {
    await ok('HSET', 'hfe:far', 'a', '1');
    expect(await run('HEXPIRE', 'hfe:far', '1000000000000000', 'FIELDS', '1', 'a')).toEqual({
      error: "ERR invalid expire time in 'hexpire' command",
    });
    expect(await run('HPEXPIREAT', 'hfe:far', '100000000000000000', 'FIELDS', '1', 'a')).toEqual({
      error: "ERR invalid expire time in 'hpexpireat' command",
    });
    // Redis's largest field time is 2^46 - 1 ms (HFE_MAX_ABS_TIME_MSEC, a quarter of its 48 bits).
    const max = 2 ** 46 - 1;
    for (const [command, time] of [
      ['HPEXPIREAT', max + 1],
      ['HEXPIREAT', Math.ceil((max + 1) / 1000)],
    ] as const) {
      expect(await run(command, 'hfe:far', time, 'FIELDS', '1', 'a')).toEqual({
        error: `ERR invalid expire time in '${command.toLowerCase()}' command`,
      });
    }
    expect(await run('HSETEX', 'hfe:far', 'PXAT', max + 1, 'FIELDS', '1', 'a', '1')).toEqual({
      error: "ERR invalid expire time in 'hsetex' command",
    });
    expect(await run('HGETEX', 'hfe:far', 'EXAT', Math.ceil((max + 1) / 1000), 'FIELDS', '1', 'a')).toEqual({
      error: "ERR invalid expire time in 'hgetex' command",
    });
    expect(await httl('hfe:far', 'a')).toEqual([-1]);
    expect(await run('HPEXPIREAT', 'hfe:far', max, 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HPEXPIRETIME', 'hfe:far', 'FIELDS', '1', 'a')).toEqual({ result: [max] });
  });

  it('the bookkeeping a hash holds in redis-server cannot be read or deleted as a field', async () => {
    await ok('HSET', 'hfe:meta', 'a', '1', 'b', '2');
    expect(await run('HEXPIRE', 'hfe:meta', '100', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    const stored = ((await admin('HKEYS', 'hfe:meta')) as Buffer[]).map(String);
    const own = stored.filter((field) => field !== 'a' && field !== 'b');
    for (const field of own) {
      // All the answers at once, so that a failure shows each; and what follows is checked even then.
      expect
        .soft({
          HGET: await run('HGET', 'hfe:meta', field),
          HMGET: await run('HMGET', 'hfe:meta', field, 'b'),
          HEXISTS: await run('HEXISTS', 'hfe:meta', field),
          HSTRLEN: await run('HSTRLEN', 'hfe:meta', field),
          HTTL: await run('HTTL', 'hfe:meta', 'FIELDS', '1', field),
          HEXPIRE: await run('HEXPIRE', 'hfe:meta', '5', 'FIELDS', '1', field),
          HGETEX: await run('HGETEX', 'hfe:meta', 'FIELDS', '1', field),
          HDEL: await run('HDEL', 'hfe:meta', field),
          HSCAN: await hscanAll('hfe:meta', 'MATCH', field),
        })
        .toEqual({
          HGET: { result: null },
          HMGET: { result: [null, '2'] },
          HEXISTS: { result: 0 },
          HSTRLEN: { result: 0 },
          HTTL: { result: [-2] },
          HEXPIRE: { result: [-2] },
          HGETEX: { result: [null] },
          HDEL: { result: 0 },
          HSCAN: {},
        });
    }
    expect.soft(await hashOf('hfe:meta')).toEqual({ a: '1', b: '2' });
    expectTtlNear((await httl('hfe:meta', 'a'))[0], 100);
  });

  it("Redis's own hash commands answer Redis's own errors on a hash with field TTLs", async () => {
    await admin('HSET', 'hfe:own:plain', 'a', '1', 'n', '5', 'f', 'x');
    await ok('HSET', 'hfe:own:ttl', 'a', '1', 'n', '5', 'f', 'x');
    expect(await run('HEXPIRE', 'hfe:own:ttl', '100', 'FIELDS', '3', 'a', 'n', 'f')).toEqual({
      result: [1, 1, 1],
    });
    await admin('SET', 'hfe:own:str', 'x');
    const onHash = [
      ['HSET', 'a'],
      ['HSET'],
      ['HMSET', 'a'],
      ['HSETNX', 'a'],
      ['HGET'],
      ['HMGET'],
      ['HDEL'],
      ['HSTRLEN'],
      ['HEXISTS'],
      ['HINCRBY', 'n', 'x'],
      ['HINCRBY', 'f', '1'],
      ['HINCRBY', 'n', '9223372036854775807'],
      ['HINCRBYFLOAT', 'f', '1'],
      ['HINCRBYFLOAT', 'n', 'x'],
      ['HRANDFIELD', 'x'],
      ['HRANDFIELD', '1', 'NOPE'],
      ['HSCAN', 'x'],
      ['HSCAN', '0', 'COUNT', '0'],
      ['HSCAN', '0', 'NOPE'],
      ['HGETALL', 'extra'],
      ['HLEN', 'extra'],
      ['HKEYS', 'extra'],
      ['HVALS', 'extra'],
      ['HGET', 'a', 'b'],
      ['HEXISTS', 'a', 'b'],
      ['HSTRLEN', 'a', 'b'],
      ['HSETNX', 'a', 'b', 'c'],
      ['HINCRBY', 'n', '1', '2'],
      ['HINCRBYFLOAT', 'n', '1', '2'],
      ['HRANDFIELD', '1', 'WITHVALUES', 'x'],
    ];
    const onString = [
      ['HGET', 'a'],
      ['HGETALL'],
      ['HLEN'],
      ['HSET', 'a', '1'],
      ['HDEL', 'a'],
      ['HSCAN', '0'],
    ];
    const cases = [
      ...onHash.map(([name, ...args]) => [name!, 'hfe:own:plain', 'hfe:own:ttl', ...args]),
      ...onString.map(([name, ...args]) => [name!, 'hfe:own:str', 'hfe:own:str', ...args]),
    ];
    const expected: Record<string, CommandReply> = {};
    const got: Record<string, CommandReply> = {};
    for (const [name, plainKey, ttlKey, ...args] of cases) {
      const redis = await env.kv.admin([name!, plainKey!, ...args]);
      const label = [name, plainKey, ...args].join(' ');
      expect(redis, label).toBeInstanceOf(RespError);
      expected[label] = { error: (redis as RespError).message };
      got[label] = await run(name!, ttlKey!, ...args);
    }
    expect(got).toEqual(expected);
    expect(await hashOf('hfe:own:ttl')).toEqual({ a: '1', n: '5', f: 'x' });
  });

  it('HSCAN and HRANDFIELD page through a big hash (not a listpack) without the bookkeeping', async () => {
    const fields = Array.from({ length: 200 }, (_, i) => `f${i}`);
    await ok('HSET', 'hfe:big', ...fields.flatMap((f) => [f, `v${f}`]));
    const short = fields.slice(0, 50);
    expect(await run('HEXPIRE', 'hfe:big', '100', 'FIELDS', '50', ...fields.slice(50, 100))).toEqual({
      result: Array(50).fill(1),
    });
    expect(await run('HPEXPIRE', 'hfe:big', '300', 'FIELDS', '50', ...short)).toEqual({
      result: Array(50).fill(1),
    });
    expect(await admin('OBJECT', 'ENCODING', 'hfe:big')).toEqual(Buffer.from('hashtable'));
    await eventually(async () => (await run('HLEN', 'hfe:big')).result === 150);
    const live = fields.slice(50);
    const expected = Object.fromEntries(live.map((f) => [f, `v${f}`]));
    expect(await hscanAll('hfe:big', 'COUNT', '7')).toEqual(expected);
    expect(await hashOf('hfe:big')).toEqual(expected);
    expect(((await ok('HRANDFIELD', 'hfe:big', '1000')) as string[]).sort()).toEqual([...live].sort());
    const some = (await ok('HRANDFIELD', 'hfe:big', '100', 'WITHVALUES')) as string[];
    expect(some).toHaveLength(200);
    for (const [f, v] of Object.entries(pairs(some))) expect(expected[f]).toBe(v);
    const repeated = (await ok('HRANDFIELD', 'hfe:big', '-500')) as string[];
    expect(repeated).toHaveLength(500);
    for (const f of repeated) expect(expected).toHaveProperty([f]);
  });
});

describe('HTTL, HPTTL and HPERSIST', () => {
  it('HTTL answers -2, -1 or the seconds left rounded up; HPTTL the milliseconds left', async () => {
    await ok('HSET', 'hfe:ttl', 'a', '1', 'b', '2');
    expect(await run('HPEXPIRE', 'hfe:ttl', '10000', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    const [a, b, nope] = await httl('hfe:ttl', 'a', 'b', 'nope');
    expect(a).toBeGreaterThanOrEqual(9);
    expect(a).toBeLessThanOrEqual(10);
    expect([b, nope]).toEqual([-1, -2]);
    const [pa, pb] = await hpttl('hfe:ttl', 'a', 'b');
    expect(pa).toBeGreaterThan(0);
    expect(pa).toBeLessThanOrEqual(10_000);
    expect(pb).toBe(-1);
    // Rounded up: 5.5 s left is 6 (and anything above 5 s still is, read after it).
    expect(await run('HPEXPIRE', 'hfe:ttl', '5500', 'FIELDS', '1', 'b')).toEqual({ result: [1] });
    const [ttlB] = await httl('hfe:ttl', 'b');
    const [pttlB] = await hpttl('hfe:ttl', 'b');
    if (pttlB! > 5000) expect(ttlB).toBe(6);
    expect(ttlB).toBeGreaterThanOrEqual(1);
    expect(ttlB).toBeLessThanOrEqual(6);
  });

  it('HPERSIST answers -2, -1 or 1, and the field then outlives its old time', async () => {
    await ok('HSET', 'hfe:persist', 'a', '1', 'b', '2', 'c', '3');
    expect(await run('HPEXPIRE', 'hfe:persist', '300', 'FIELDS', '2', 'a', 'c')).toEqual({ result: [1, 1] });
    expect(await run('HPERSIST', 'hfe:persist', 'FIELDS', '3', 'a', 'b', 'nope')).toEqual({
      result: [1, -1, -2],
    });
    expect(await run('HPERSIST', 'hfe:persist', 'FIELDS', '1', 'a')).toEqual({ result: [-1] });
    expect(await run('HPERSIST', 'hfe:none', 'FIELDS', '2', 'a', 'b')).toEqual({ result: [-2, -2] });
    expect(await httl('hfe:persist', 'a')).toEqual([-1]);
    await eventually(async () => (await run('HEXISTS', 'hfe:persist', 'c')).result === 0);
    await sweptPastEarlierDeadlines();
    expect(await hashOf('hfe:persist')).toEqual({ a: '1', b: '2' });
    expect(await httl('hfe:persist', 'a', 'b', 'c')).toEqual([-1, -1, -2]);
    // No TTL left: HDEL of the last fields deletes the key at once.
    expect(await run('HDEL', 'hfe:persist', 'a', 'b')).toEqual({ result: 2 });
    expect(await exists('hfe:persist')).toBe(0);
  });
});

describe('expiry', () => {
  it('hides an expired field from every read, and the sweeper removes it from redis-server', async () => {
    await ok('HSET', 'hfe:exp', 'keep', 'k', 'long', 'l', 'short', 's', 'also', 'x');
    expect(await run('HEXPIRE', 'hfe:exp', '100', 'FIELDS', '1', 'long')).toEqual({ result: [1] });
    expect(await run('HPEXPIRE', 'hfe:exp', '300', 'FIELDS', '2', 'short', 'also')).toEqual({
      result: [1, 1],
    });
    // Before expiry, everything is there and only the user's fields show.
    expect(await run('HLEN', 'hfe:exp')).toEqual({ result: 4 });
    expect(await hashOf('hfe:exp')).toEqual({ keep: 'k', long: 'l', short: 's', also: 'x' });
    await eventually(async () => (await run('HGET', 'hfe:exp', 'short')).result === null);
    await eventually(async () => (await run('HLEN', 'hfe:exp')).result === 2);
    // Swept from redis-server itself, not only hidden (the key stays: it has fields left).
    await eventually(async () => (await admin('HEXISTS', 'hfe:exp', 'short')) === 0);
    expect(await exists('hfe:exp')).toBe(1);

    const live = { keep: 'k', long: 'l' };
    expect(await hashOf('hfe:exp')).toEqual(live);
    expect(await run('HGET', 'hfe:exp', 'also')).toEqual({ result: null });
    expect(await run('HMGET', 'hfe:exp', 'short', 'keep', 'also', 'long')).toEqual({
      result: [null, 'k', null, 'l'],
    });
    expect(await run('HEXISTS', 'hfe:exp', 'short')).toEqual({ result: 0 });
    expect(await run('HEXISTS', 'hfe:exp', 'long')).toEqual({ result: 1 });
    expect(await run('HSTRLEN', 'hfe:exp', 'short')).toEqual({ result: 0 });
    expect(await run('HSTRLEN', 'hfe:exp', 'long')).toEqual({ result: 1 });
    expect(((await ok('HKEYS', 'hfe:exp')) as string[]).sort()).toEqual(['keep', 'long']);
    expect(((await ok('HVALS', 'hfe:exp')) as string[]).sort()).toEqual(['k', 'l']);
    expect(await httl('hfe:exp', 'short', 'keep')).toEqual([-2, -1]);
    expectTtlNear((await httl('hfe:exp', 'long'))[0], 100);
  });

  it('HSCAN and HRANDFIELD show exactly the live fields, never the bookkeeping', async () => {
    const fields = Array.from({ length: 12 }, (_, i) => `f${i}`);
    await ok('HSET', 'hfe:scan', ...fields.flatMap((f) => [f, `v-${f}`]));
    expect(await run('HEXPIRE', 'hfe:scan', '100', 'FIELDS', '3', 'f0', 'f1', 'f2')).toEqual({
      result: [1, 1, 1],
    });
    expect(await run('HPEXPIRE', 'hfe:scan', '300', 'FIELDS', '3', 'f3', 'f4', 'f5')).toEqual({
      result: [1, 1, 1],
    });
    await eventually(async () => (await run('HLEN', 'hfe:scan')).result === 9);
    const live = fields.filter((f) => !['f3', 'f4', 'f5'].includes(f));
    const expected = Object.fromEntries(live.map((f) => [f, `v-${f}`]));

    for (const count of ['1', '3', '100']) {
      expect(await hscanAll('hfe:scan', 'COUNT', count), `COUNT ${count}`).toEqual(expected);
    }
    expect(await hscanAll('hfe:scan', 'MATCH', 'f1*')).toEqual({ f1: 'v-f1', f10: 'v-f10', f11: 'v-f11' });

    expect(((await ok('HRANDFIELD', 'hfe:scan', '100')) as string[]).sort()).toEqual([...live].sort());
    expect(pairs((await ok('HRANDFIELD', 'hfe:scan', '100', 'WITHVALUES')) as string[])).toEqual(expected);
    const repeated = (await ok('HRANDFIELD', 'hfe:scan', '-50')) as string[];
    expect(repeated).toHaveLength(50);
    for (const f of repeated) expect(live).toContain(f);
    for (let i = 0; i < 20; i++) expect(live).toContain(await ok('HRANDFIELD', 'hfe:scan'));
  });

  it('deletes the key when its last field expires: EXISTS 0, SCAN does not list it, reads answer empty', async () => {
    await ok('HSET', 'hfe:gone:h', 'a', '1', 'b', '2');
    expect(await run('HPEXPIRE', 'hfe:gone:h', '300', 'FIELDS', '2', 'a', 'b')).toEqual({ result: [1, 1] });
    await ok('HSETEX', 'hfe:gone:ex', 'PX', '300', 'FIELDS', '1', 'a', '1');
    await eventually(async () => (await run('HLEN', 'hfe:gone:h')).result === 0);
    expect(await hashOf('hfe:gone:h')).toEqual({});
    expect(await run('HGET', 'hfe:gone:h', 'a')).toEqual({ result: null });
    expect(await run('HTTL', 'hfe:gone:h', 'FIELDS', '1', 'a')).toEqual({ result: [-2] });
    await untilGone('hfe:gone:h');
    await untilGone('hfe:gone:ex');
    expect(await run('EXISTS', 'hfe:gone:h', 'hfe:gone:ex')).toEqual({ result: 0 });
    expect(await run('TYPE', 'hfe:gone:h')).toEqual({ result: 'none' });
    const listed: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = (await ok('SCAN', cursor, 'MATCH', 'hfe:gone:*', 'COUNT', '1000')) as [
        string,
        string[],
      ];
      listed.push(...keys);
      cursor = next;
    } while (cursor !== '0');
    expect(listed).toEqual([]);
  });

  it('a hash recreated after DEL, or a field set again after HDEL, HGETDEL or expiry, has no TTL', async () => {
    await ok('HSET', 'hfe:again', 'del', '1', 'getdel', '2', 'expired', '3', 'other', '4');
    await ok('HSET', 'hfe:again:key', 'a', '1');
    expect(
      await run('HPEXPIRE', 'hfe:again', '400', 'FIELDS', '4', 'del', 'getdel', 'expired', 'other'),
    ).toEqual({ result: [1, 1, 1, 1] });
    expect(await run('HPEXPIRE', 'hfe:again:key', '400', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HDEL', 'hfe:again', 'del')).toEqual({ result: 1 });
    expect(await run('HGETDEL', 'hfe:again', 'FIELDS', '1', 'getdel')).toEqual({ result: ['2'] });
    expect(await httl('hfe:again', 'del', 'getdel')).toEqual([-2, -2]);
    expect(await run('DEL', 'hfe:again:key')).toEqual({ result: 1 });
    expect(await run('HSET', 'hfe:again', 'del', 'd', 'getdel', 'g')).toEqual({ result: 2 });
    expect(await run('HSET', 'hfe:again:key', 'a', 'new')).toEqual({ result: 1 });
    await eventually(async () => (await run('HEXISTS', 'hfe:again', 'expired')).result === 0);
    await eventually(async () => (await run('HLEN', 'hfe:again')).result === 2);
    expect(await run('HSET', 'hfe:again', 'expired', 'e')).toEqual({ result: 1 });
    await sweptPastEarlierDeadlines();
    expect(await hashOf('hfe:again')).toEqual({ del: 'd', getdel: 'g', expired: 'e' });
    expect(await httl('hfe:again', 'del', 'getdel', 'expired', 'other')).toEqual([-1, -1, -1, -2]);
    expect(await hashOf('hfe:again:key')).toEqual({ a: 'new' });
    expect(await httl('hfe:again:key', 'a')).toEqual([-1]);
  });

  it('HINCRBY, HINCRBYFLOAT and HSETNX on an expired field start afresh, without a TTL', async () => {
    await ok('HSET', 'hfe:fresh', 'n', '10', 'f', '1.5', 'nx', 'old', 'keep', 'k');
    expect(await run('HPEXPIRE', 'hfe:fresh', '300', 'FIELDS', '3', 'n', 'f', 'nx')).toEqual({
      result: [1, 1, 1],
    });
    await eventually(async () => (await run('HLEN', 'hfe:fresh')).result === 1);
    expect(await run('HINCRBY', 'hfe:fresh', 'n', '5')).toEqual({ result: 5 });
    expect(await run('HINCRBYFLOAT', 'hfe:fresh', 'f', '0.25')).toEqual({ result: '0.25' });
    expect(await run('HSETNX', 'hfe:fresh', 'nx', 'new')).toEqual({ result: 1 });
    expect(await httl('hfe:fresh', 'n', 'f', 'nx')).toEqual([-1, -1, -1]);
    await sweptPastEarlierDeadlines();
    expect(await hashOf('hfe:fresh')).toEqual({ n: '5', f: '0.25', nx: 'new', keep: 'k' });
  });
});

describe('the other hash commands on fields with a TTL', () => {
  it('HSET and HMSET overwriting a field drop its TTL; HSETNX on it changes nothing', async () => {
    await ok('HSET', 'hfe:write', 'a', '1', 'b', '2', 'c', '3', 'd', '4');
    expect(await run('HEXPIRE', 'hfe:write', '100', 'FIELDS', '4', 'a', 'b', 'c', 'd')).toEqual({
      result: [1, 1, 1, 1],
    });
    // HSET counts only new fields, also on a hash with TTLs.
    expect(await run('HSET', 'hfe:write', 'a', 'A', 'new', 'n')).toEqual({ result: 1 });
    expect(await run('HMSET', 'hfe:write', 'b', 'B')).toEqual({ result: 'OK' });
    expect(await run('HSETNX', 'hfe:write', 'c', 'C')).toEqual({ result: 0 });
    const [a, b, c, d, added] = await httl('hfe:write', 'a', 'b', 'c', 'd', 'new');
    expect([a, b, added]).toEqual([-1, -1, -1]);
    expectTtlNear(c, 100);
    expectTtlNear(d, 100);
    expect(await hashOf('hfe:write')).toEqual({ a: 'A', b: 'B', c: '3', d: '4', new: 'n' });
    expect(await run('HLEN', 'hfe:write')).toEqual({ result: 5 });
    // The overwritten field outlives its old time.
    expect(await run('HPEXPIRE', 'hfe:write', '300', 'FIELDS', '2', 'a', 'c')).toEqual({ result: [1, 1] });
    expect(await run('HSET', 'hfe:write', 'a', 'again')).toEqual({ result: 0 });
    await eventually(async () => (await run('HEXISTS', 'hfe:write', 'c')).result === 0);
    await sweptPastEarlierDeadlines();
    expect(await hashOf('hfe:write')).toEqual({ a: 'again', b: 'B', d: '4', new: 'n' });
  });

  it('HINCRBY and HINCRBYFLOAT keep the TTL; HDEL removes field and TTL', async () => {
    await ok('HSET', 'hfe:incr', 'n', '1', 'f', '1.5', 'x', 'y');
    expect(await run('HEXPIRE', 'hfe:incr', '100', 'FIELDS', '3', 'n', 'f', 'x')).toEqual({
      result: [1, 1, 1],
    });
    expect(await run('HINCRBY', 'hfe:incr', 'n', '41')).toEqual({ result: 42 });
    expect(await run('HINCRBYFLOAT', 'hfe:incr', 'f', '1')).toEqual({ result: '2.5' });
    for (const ttl of await httl('hfe:incr', 'n', 'f')) expectTtlNear(ttl, 100);
    expect(await run('HDEL', 'hfe:incr', 'x', 'nope')).toEqual({ result: 1 });
    expect(await httl('hfe:incr', 'x')).toEqual([-2]);
    expect(await hashOf('hfe:incr')).toEqual({ n: '42', f: '2.5' });
    expect(await run('HINCRBY', 'hfe:incr', 'x', '1')).toEqual({ result: 1 });
    expect(await httl('hfe:incr', 'x')).toEqual([-1]);
    // An increment does not reset a short TTL either: the field still expires.
    expect(await run('HPEXPIRE', 'hfe:incr', '300', 'FIELDS', '1', 'n')).toEqual({ result: [1] });
    expect(await run('HINCRBY', 'hfe:incr', 'n', '1')).toEqual({ result: 43 });
    await eventually(async () => (await run('HEXISTS', 'hfe:incr', 'n')).result === 0);
    await eventually(async () => (await run('HLEN', 'hfe:incr')).result === 2);
    expect(await hashOf('hfe:incr')).toEqual({ f: '2.5', x: '1' });
    // HDEL of the last fields deletes the key, TTLs or not.
    expect(await run('HDEL', 'hfe:incr', 'f', 'x')).toEqual({ result: 2 });
    expect(await exists('hfe:incr')).toBe(0);
  });

  it('a hash never given a field TTL is as before, in redis-server too', async () => {
    await ok('HSET', 'hfe:plain', 'a', '1', 'b', '2');
    expect(await run('HTTL', 'hfe:plain', 'FIELDS', '3', 'a', 'b', 'c')).toEqual({ result: [-1, -1, -2] });
    expect(await run('HPERSIST', 'hfe:plain', 'FIELDS', '1', 'a')).toEqual({ result: [-1] });
    expect(await run('HGETEX', 'hfe:plain', 'FIELDS', '1', 'a')).toEqual({ result: ['1'] });
    expect(await hashOf('hfe:plain')).toEqual({ a: '1', b: '2' });
    expect(await run('HLEN', 'hfe:plain')).toEqual({ result: 2 });
    expect(await run('HINCRBY', 'hfe:plain', 'a', '1')).toEqual({ result: 2 });
    expect(((await ok('HKEYS', 'hfe:plain')) as string[]).sort()).toEqual(['a', 'b']);
    // Exactly the user's fields in redis-server: nothing was added for bookkeeping.
    expect(pairs(((await admin('HGETALL', 'hfe:plain')) as Buffer[]).map(String))).toEqual({
      a: '2',
      b: '2',
    });
    expect(await run('HDEL', 'hfe:plain', 'a', 'b')).toEqual({ result: 2 });
    expect(await exists('hfe:plain')).toBe(0);
  });

  it('RENAME and COPY keep the fields’ TTLs, and they still expire under the new name', async () => {
    await ok('HSET', 'hfe:ren:old', 'long', 'l', 'short', 's', 'plain', 'p');
    expect(await run('HEXPIRE', 'hfe:ren:old', '100', 'FIELDS', '1', 'long')).toEqual({ result: [1] });
    expect(await run('HPEXPIRE', 'hfe:ren:old', '400', 'FIELDS', '1', 'short')).toEqual({ result: [1] });
    expect(await run('COPY', 'hfe:ren:old', 'hfe:ren:copy')).toEqual({ result: 1 });
    await ok('HSET', 'hfe:ren:all', 'a', '1');
    expect(await run('HPEXPIRE', 'hfe:ren:all', '400', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('RENAME', 'hfe:ren:old', 'hfe:ren:new')).toEqual({ result: 'OK' });
    expect(await run('RENAME', 'hfe:ren:all', 'hfe:ren:all2')).toEqual({ result: 'OK' });
    expect(await exists('hfe:ren:old')).toBe(0);
    const [long, plain] = await httl('hfe:ren:new', 'long', 'plain');
    expectTtlNear(long, 100);
    expect(plain).toBe(-1);
    await eventually(async () => (await run('HEXISTS', 'hfe:ren:new', 'short')).result === 0);
    await eventually(async () => (await run('HLEN', 'hfe:ren:new')).result === 2);
    await eventually(async () => (await admin('HEXISTS', 'hfe:ren:new', 'short')) === 0);
    expect(await hashOf('hfe:ren:new')).toEqual({ long: 'l', plain: 'p' });
    await eventually(async () => (await run('HLEN', 'hfe:ren:copy')).result === 2);
    expect(await hashOf('hfe:ren:copy')).toEqual({ long: 'l', plain: 'p' });
    expectTtlNear((await httl('hfe:ren:copy', 'long'))[0], 100);
    await untilGone('hfe:ren:all2');
    expect(await run('EXISTS', 'hfe:ren:old', 'hfe:ren:all', 'hfe:ren:all2')).toEqual({ result: 0 });
  });
});

describe('HSETEX, HGETEX and HGETDEL', () => {
  it('HSETEX sets fields with a TTL: FNX only when none exists, FXX only when all do; 1 or 0', async () => {
    expect(await run('HSETEX', 'hfe:setex', 'FXX', 'EX', '100', 'FIELDS', '1', 'a', '1')).toEqual({
      result: 0,
    });
    expect(await exists('hfe:setex')).toBe(0);
    expect(await run('HSETEX', 'hfe:setex', 'FNX', 'EX', '100', 'FIELDS', '2', 'a', '1', 'b', '2')).toEqual({
      result: 1,
    });
    for (const ttl of await httl('hfe:setex', 'a', 'b')) expectTtlNear(ttl, 100);
    expect(await run('HSETEX', 'hfe:setex', 'FNX', 'FIELDS', '2', 'c', '3', 'a', 'x')).toEqual({ result: 0 });
    expect(
      await run('HSETEX', 'hfe:setex', 'FXX', 'PX', '200000', 'FIELDS', '2', 'a', 'A', 'c', '3'),
    ).toEqual({
      result: 0,
    });
    expect(await hashOf('hfe:setex')).toEqual({ a: '1', b: '2' });
    expect(await run('HSETEX', 'hfe:setex', 'FXX', 'PX', '200000', 'FIELDS', '1', 'a', 'A')).toEqual({
      result: 1,
    });
    expectTtlNear((await httl('hfe:setex', 'a'))[0], 200);
    // KEEPTTL keeps each field's TTL; no TTL option drops it, as HSET does.
    expect(await run('HSETEX', 'hfe:setex', 'KEEPTTL', 'FIELDS', '2', 'a', 'AA', 'c', 'C')).toEqual({
      result: 1,
    });
    const [a, c] = await httl('hfe:setex', 'a', 'c');
    expectTtlNear(a, 200);
    expect(c).toBe(-1);
    expect(await run('HSETEX', 'hfe:setex', 'FIELDS', '1', 'b', 'B')).toEqual({ result: 1 });
    expect(await httl('hfe:setex', 'b')).toEqual([-1]);
    const seconds = Math.floor(Date.now() / 1000) + 3000;
    const ms = Date.now() + 4_000_000;
    expect(await run('HSETEX', 'hfe:setex', 'EXAT', seconds, 'FIELDS', '1', 'b', 'b')).toEqual({ result: 1 });
    expect(await run('HSETEX', 'hfe:setex', 'PXAT', ms, 'FIELDS', '1', 'c', 'c')).toEqual({ result: 1 });
    expect(await run('HPEXPIRETIME', 'hfe:setex', 'FIELDS', '2', 'b', 'c')).toEqual({
      result: [seconds * 1000, ms],
    });
    expect(await run('HSETEX', 'hfe:setex', 'PX', '300', 'FIELDS', '1', 'short', 's')).toEqual({ result: 1 });
    expect(await hashOf('hfe:setex')).toEqual({ a: 'AA', b: 'b', c: 'c', short: 's' });
    await eventually(async () => (await run('HLEN', 'hfe:setex')).result === 3);
    expect(await hashOf('hfe:setex')).toEqual({ a: 'AA', b: 'b', c: 'c' });
  });

  it("HSETEX checks its arguments as Redis 8.0's hsetexParseArgs does, before the key's type", async () => {
    await ok('HSET', 'hfe:setex:err', 'a', '1');
    await admin('SET', 'hfe:setex:str', 'x');
    const oneTime = 'ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified';
    const oneCondition = 'ERR Only one of FXX or FNX arguments can be specified';
    const count = 'ERR invalid number of fields';
    const arity = "ERR wrong number of arguments for 'hsetex' command";
    const key = 'hfe:setex:err';
    const cases: [string[], string][] = [
      [[key, 'EX', '60', 'KEEPTTL', 'FIELDS', '1', 'a', 'v'], oneTime],
      [[key, 'KEEPTTL', 'EX', '60', 'FIELDS', '1', 'a', 'v'], oneTime],
      [[key, 'PX', '10', 'PX', '10', 'FIELDS', '1', 'a', 'v'], oneTime],
      [[key, 'KEEPTTL', 'KEEPTTL', 'FIELDS', '1', 'a', 'v'], oneTime],
      [[key, 'FNX', 'FXX', 'EX', '60', 'FIELDS', '1', 'a', 'v'], oneCondition],
      [[key, 'fxx', 'fxx', 'FIELDS', '1', 'a', 'v'], oneCondition],
      [[key, 'nx', 'FIELDS', '1', 'a', 'v'], 'ERR unknown argument: nx'],
      [[key, '1', 'FIELDS', '1', 'a', 'v'], 'ERR unknown argument: 1'],
      [[key, 'FIELDS', '0', 'a', 'v'], count],
      [[key, 'FIELDS', '-1', 'a', 'v'], count],
      [[key, 'FIELDS', 'x', 'a', 'v'], count],
      [[key, 'FIELDS', '2147483648', 'a', 'v'], count],
      [[key, 'FIELDS', '2', 'a', 'v'], arity],
      [[key, 'FIELDS', '1', 'a', 'v', 'x'], arity],
      [[key, 'FIELDS', '1', 'a', 'v', 'EX', '10'], arity],
      [[key, 'FNX', 'KEEPTTL', 'FIELDS', '1', 'a'], arity],
      [[key, 'EX', 'FIELDS', '1', 'a', 'v'], 'ERR value is not an integer or out of range'],
      [[key, 'EX', '-1', 'FIELDS', '1', 'a', 'v'], 'ERR invalid expire time, must be >= 0'],
      [[key, 'PXAT', '-1', 'FIELDS', '1', 'a', 'v'], 'ERR invalid expire time, must be >= 0'],
      // The arguments are checked before the key's type.
      [['hfe:setex:str', 'EX', '60', 'KEEPTTL', 'FIELDS', '1', 'a', 'v'], oneTime],
      [['hfe:setex:str', 'FIELDS', '0', 'a', 'v'], count],
    ];
    for (const [args, error] of cases) {
      expect(await run('HSETEX', ...args), args.join(' ')).toEqual({ error });
    }
    expect(await hashOf(key)).toEqual({ a: '1' });
    expect(await httl(key, 'a')).toEqual([-1]);
    // A time of 0 (or in the past) is taken: the fields are set and gone at once; 1 all the same.
    expect(await run('HSETEX', key, 'EX', '0', 'FIELDS', '1', 'a', 'v')).toEqual({ result: 1 });
    expect(await run('HSETEX', key, 'PX', '0', 'FIELDS', '1', 'b', 'v')).toEqual({ result: 1 });
    expect(await run('HSETEX', 'hfe:setex:zero', 'EX', '0', 'FIELDS', '1', 'a', 'v')).toEqual({ result: 1 });
    expect(await exists(key)).toBe(0);
    expect(await exists('hfe:setex:zero')).toBe(0);
  });

  it('HGETEX answers the values and sets or removes (PERSIST) the TTL of the fields that exist', async () => {
    await ok('HSET', 'hfe:getex', 'a', '1', 'b', '2', 'c', '3');
    expect(await run('HGETEX', 'hfe:getex', 'EX', '100', 'FIELDS', '2', 'a', 'nope')).toEqual({
      result: ['1', null],
    });
    const [a, nope] = await httl('hfe:getex', 'a', 'nope');
    expectTtlNear(a, 100);
    expect(nope).toBe(-2);
    expect(await exists('hfe:getex')).toBe(1);
    // Without an option only reads.
    expect(await run('HGETEX', 'hfe:getex', 'FIELDS', '2', 'a', 'b')).toEqual({ result: ['1', '2'] });
    expectTtlNear((await httl('hfe:getex', 'a'))[0], 100);
    expect(await httl('hfe:getex', 'b')).toEqual([-1]);
    expect(await run('HGETEX', 'hfe:getex', 'PERSIST', 'FIELDS', '1', 'a')).toEqual({ result: ['1'] });
    expect(await httl('hfe:getex', 'a')).toEqual([-1]);
    const ms = Date.now() + 5_000_000;
    expect(await run('HGETEX', 'hfe:getex', 'PXAT', ms, 'FIELDS', '1', 'b')).toEqual({ result: ['2'] });
    expect(await run('HPEXPIRETIME', 'hfe:getex', 'FIELDS', '1', 'b')).toEqual({ result: [ms] });
    expect(await run('HGETEX', 'hfe:getex', 'PX', '300', 'FIELDS', '1', 'c')).toEqual({ result: ['3'] });
    await eventually(async () => (await run('HLEN', 'hfe:getex')).result === 2);
    expect(await hashOf('hfe:getex')).toEqual({ a: '1', b: '2' });
    expect(await run('HGETEX', 'hfe:getex', 'FIELDS', '1', 'c')).toEqual({ result: [null] });
    expect(await run('HGETEX', 'hfe:none', 'EX', '100', 'FIELDS', '2', 'a', 'b')).toEqual({
      result: [null, null],
    });
    expect(await exists('hfe:none')).toBe(0);
  });

  it("HGETEX takes one option right after the key, as Redis 8.0's hgetexCommand; a time of 0 deletes", async () => {
    await ok('HSET', 'hfe:getex:err', 'a', '1', 'b', '2', 'c', '3');
    const fieldsMissing = 'ERR Mandatory argument FIELDS is missing or not at the right position';
    const key = 'hfe:getex:err';
    const cases: [string[], string][] = [
      [[key, 'EX', '60', 'PERSIST', 'FIELDS', '1', 'a'], fieldsMissing],
      [[key, 'PERSIST', 'EX', '60', 'FIELDS', '1', 'a'], fieldsMissing],
      [[key, 'PERSIST', '1', 'FIELDS', '1', 'a'], fieldsMissing],
      [[key, 'KEEPTTL', 'FIELDS', '1', 'a'], fieldsMissing],
      [[key, 'PXAT', '1', '1'], fieldsMissing],
      [[key, 'EX', 'bla', 'FIELDS', '1', 'a'], 'ERR value is not an integer or out of range'],
      [[key, 'PX', '-1', 'FIELDS', '1', 'a'], 'ERR invalid expire time, must be >= 0'],
      [[key, 'EXAT', '-1', 'FIELDS', '1', 'a'], 'ERR invalid expire time, must be >= 0'],
    ];
    for (const [args, error] of cases) {
      expect(await run('HGETEX', ...args), args.join(' ')).toEqual({ error });
    }
    expect(await httl(key, 'a', 'b', 'c')).toEqual([-1, -1, -1]);
    // EX 0 or PX 0, or EXAT / PXAT in the past: the values come back and the fields are gone.
    expect(await run('HGETEX', key, 'EX', '0', 'FIELDS', '2', 'a', 'nope')).toEqual({ result: ['1', null] });
    expect(await run('HGETEX', key, 'PX', '0', 'FIELDS', '1', 'b')).toEqual({ result: ['2'] });
    expect(await hashOf(key)).toEqual({ c: '3' });
    expect(await run('HGETEX', key, 'PXAT', '1', 'FIELDS', '1', 'c')).toEqual({ result: ['3'] });
    expect(await exists(key)).toBe(0);
  });

  it('HGETDEL answers the values and deletes the fields with their TTLs, never an expired one', async () => {
    await ok('HSET', 'hfe:getdel', 'a', '1', 'b', '2', 'c', '3');
    expect(await run('HEXPIRE', 'hfe:getdel', '100', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HPEXPIRE', 'hfe:getdel', '300', 'FIELDS', '1', 'c')).toEqual({ result: [1] });
    expect(await run('HGETDEL', 'hfe:getdel', 'FIELDS', '2', 'a', 'nope')).toEqual({ result: ['1', null] });
    expect(await httl('hfe:getdel', 'a')).toEqual([-2]);
    await eventually(async () => (await run('HLEN', 'hfe:getdel')).result === 1);
    expect(await run('HGETDEL', 'hfe:getdel', 'FIELDS', '2', 'c', 'b')).toEqual({ result: [null, '2'] });
    // Its last field gone, the key is gone at once, as with HDEL.
    expect(await exists('hfe:getdel')).toBe(0);
  });
});

describe('callers', () => {
  it('an ACL token that may run hash reads but not the script gets them as its own commands, bookkeeping hidden', async () => {
    await ok(
      'ACL',
      'SETUSER',
      'hfe-reader',
      'on',
      '>hfe-pw',
      '~hfe:*',
      '+@hash',
      '-@write',
      '+hexists',
      '+ping',
    );
    const token = (await ok('ACL', 'RESTTOKEN', 'hfe-reader', 'hfe-pw')) as string;
    await ok('HSET', 'hfe:acl', 'a', '1', 'b', '2');
    expect(await run('HEXPIRE', 'hfe:acl', '100', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    // The script keeps the times in the field plain-reads.ts names (the two must agree).
    expect(((await admin('HKEYS', 'hfe:acl')) as Buffer[]).some((f) => f.equals(BOOKKEEPING_FIELD))).toBe(
      true,
    );
    const reader = (...command: string[]) => okAs(token, ...command);
    expect(pairs((await reader('HGETALL', 'hfe:acl')) as string[])).toEqual({ a: '1', b: '2' });
    expect(((await reader('HKEYS', 'hfe:acl')) as string[]).sort()).toEqual(['a', 'b']);
    expect(((await reader('HVALS', 'hfe:acl')) as string[]).sort()).toEqual(['1', '2']);
    expect(await reader('HLEN', 'hfe:acl')).toBe(2);
    const [, flat] = (await reader('HSCAN', 'hfe:acl', '0')) as [string, string[]];
    expect(pairs(flat)).toEqual({ a: '1', b: '2' });
    expect(((await reader('HRANDFIELD', 'hfe:acl', '10')) as string[]).sort()).toEqual(['a', 'b']);
    expect(await reader('HGET', 'hfe:acl', 'a')).toBe('1');
    // Its refusals stay its own: it may not write.
    expect((await runAs(token, 'HSET', 'hfe:acl', 'c', '3')).error).toMatch(/^NOPERM/);
  });

  it('the read-only token reads hashes with TTLs and is refused the commands that set them', async () => {
    const ro = env.kv.readOnlyToken;
    await ok('HSET', 'hfe:ro', 'a', '1', 'b', '2', 'short', 's');
    expect(await run('HEXPIRE', 'hfe:ro', '100', 'FIELDS', '1', 'a')).toEqual({ result: [1] });
    expect(await run('HPEXPIRE', 'hfe:ro', '300', 'FIELDS', '1', 'short')).toEqual({ result: [1] });
    const ttl = (await okAs(ro, 'HTTL', 'hfe:ro', 'FIELDS', '3', 'a', 'b', 'nope')) as number[];
    expectTtlNear(ttl[0], 100);
    expect(ttl.slice(1)).toEqual([-1, -2]);
    const pttl = (await okAs(ro, 'HPTTL', 'hfe:ro', 'FIELDS', '1', 'a')) as number[];
    expect(pttl[0]).toBeGreaterThan(90_000);
    expect(await runAs(ro, 'HGET', 'hfe:ro', 'a')).toEqual({ result: '1' });
    await eventually(async () => (await runAs(ro, 'HGET', 'hfe:ro', 'short')).result === null);
    expect(await hashOf('hfe:ro', ro)).toEqual({ a: '1', b: '2' });
    for (const command of [
      ['HEXPIRE', 'hfe:ro', '1', 'FIELDS', '1', 'b'],
      ['HPEXPIRE', 'hfe:ro', '1', 'FIELDS', '1', 'b'],
      ['HEXPIREAT', 'hfe:ro', '1', 'FIELDS', '1', 'b'],
      ['HPERSIST', 'hfe:ro', 'FIELDS', '1', 'a'],
      ['HSETEX', 'hfe:ro', 'EX', '1', 'FIELDS', '1', 'b', 'x'],
      ['HGETEX', 'hfe:ro', 'PERSIST', 'FIELDS', '1', 'a'],
      ['HGETEX', 'hfe:ro', 'FIELDS', '1', 'a'],
    ]) {
      const reply = await runAs(ro, ...command);
      expect(reply.result, command.join(' ')).toBeUndefined();
      expect(reply.error, command.join(' ')).toMatch(/^NOPERM/);
    }
    expectTtlNear((await httl('hfe:ro', 'a'))[0], 100);
    expect(await httl('hfe:ro', 'b')).toEqual([-1]);
    expect(await hashOf('hfe:ro')).toEqual({ a: '1', b: '2' });
  });

  it('concurrent HINCRBYs of a field with a TTL all count, and the TTL stays', async () => {
    await ok('HSET', 'hfe:race', 'n', '0', 'other', 'o');
    expect(await run('HEXPIRE', 'hfe:race', '100', 'FIELDS', '1', 'n')).toEqual({ result: [1] });
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let round = 0; round < 10; round++) {
          expect((await run('HINCRBY', 'hfe:race', 'n', '1')).error).toBeUndefined();
        }
      }),
    );
    expect(await run('HGET', 'hfe:race', 'n')).toEqual({ result: '200' });
    expectTtlNear((await httl('hfe:race', 'n'))[0], 100);
    expect(await hashOf('hfe:race')).toEqual({ n: '200', other: 'o' });
  });

  it('callers setting short TTLs while the sweeper deletes leave nothing behind', async () => {
    await Promise.all(
      Array.from({ length: 10 }, async (_, c) => {
        for (let round = 0; round < 10; round++) {
          const reply = await run('HSETEX', 'hfe:churn', 'PX', '100', 'FIELDS', '1', `c${c}`, `r${round}`);
          expect(reply).toEqual({ result: 1 });
          expect(await run('HINCRBY', 'hfe:churn', 'n', '1')).not.toHaveProperty('error');
          await run('HPEXPIRE', 'hfe:churn', '50', 'FIELDS', '1', 'n');
        }
      }),
    );
    await untilGone('hfe:churn');
    expect(await hashOf('hfe:churn')).toEqual({});
  });

  it('concurrent HSETEX FNX of one field: exactly one caller wins', async () => {
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        run('HSETEX', 'hfe:lock', 'FNX', 'EX', '100', 'FIELDS', '1', 'owner', `c${i}`),
      ),
    );
    const winners = replies.flatMap((reply, i) => (reply.result === 1 ? [`c${i}`] : []));
    expect(replies.filter((reply) => reply.result !== 0 && reply.result !== 1)).toEqual([]);
    expect(winners).toHaveLength(1);
    expect(await hashOf('hfe:lock')).toEqual({ owner: winners[0] });
    expectTtlNear((await httl('hfe:lock', 'owner'))[0], 100);
  });

  it('a transaction and a pipeline see the TTLs they set', async () => {
    // Redis forgot the bridge's scripts: a transaction cannot retry a NOSCRIPT, so the bridge loads the script
    // its calls need before MULTI.
    await admin('SCRIPT', 'FLUSH');
    const res = await env.kv.json('/multi-exec', {
      method: 'POST',
      body: JSON.stringify([
        ['HSET', 'hfe:tx', 'a', '1', 'b', '2'],
        ['HPEXPIRE', 'hfe:tx', '100000', 'FIELDS', '1', 'a'],
        ['HPEXPIRE', 'hfe:tx', '0', 'FIELDS', '1', 'b'],
        ['HTTL', 'hfe:tx', 'FIELDS', '2', 'a', 'b'],
        ['HGETALL', 'hfe:tx'],
      ]),
    });
    expect(res.status).toBe(200);
    const body = res.body as CommandReply[];
    expect(body.slice(0, 3)).toEqual([{ result: 2 }, { result: [1] }, { result: [2] }]);
    expectTtlNear((body[3]!.result as number[])[0], 100);
    expect((body[3]!.result as number[])[1]).toBe(-2);
    expect(body[4]).toEqual({ result: ['a', '1'] });

    const piped = await env.kv.json('/pipeline', {
      method: 'POST',
      body: JSON.stringify([
        ['HSETEX', 'hfe:pipe', 'EX', '100', 'FIELDS', '1', 'x', 'y'],
        ['HEXPIRETIME', 'hfe:pipe', 'FIELDS', '1', 'x'],
        ['HLEN', 'hfe:pipe'],
      ]),
    });
    expect(piped.status).toBe(200);
    const [set, time, len] = piped.body as CommandReply[];
    expect(set).toEqual({ result: 1 });
    expect((time!.result as number[])[0]).toBeGreaterThan(Date.now() / 1000 + 90);
    expect(len).toEqual({ result: 1 });
  });

  it('MONITOR shows the commands as the client sent them, not the script', async () => {
    await ok('HSET', 'hfe:mon', 'a', '1');
    const lines = await monitorLinesOf(env.kv, 'hfe:mon', 'hfe:mon:end', async () => {
      await run('HEXPIRE', 'hfe:mon', '100', 'FIELDS', '1', 'a');
      await run('HTTL', 'hfe:mon', 'FIELDS', '1', 'a');
      await run('HGETALL', 'hfe:mon');
      await run('GET', 'hfe:mon:end');
    });
    expect(lines.filter((line) => line.includes('127.0.0.1 default'))).toEqual([
      '[0 127.0.0.1 default] "HEXPIRE" "hfe:mon" "100" "FIELDS" "1" "a"',
      '[0 127.0.0.1 default] "HTTL" "hfe:mon" "FIELDS" "1" "a"',
      '[0 127.0.0.1 default] "HGETALL" "hfe:mon"',
      '[0 127.0.0.1 default] "GET" "hfe:mon:end"',
    ]);
    expect(lines.filter((line) => /evalsha/i.test(line))).toEqual([]);
  });
});

describe('through @upstash/redis', () => {
  it.each(SDK_WIRE_MODES)(
    'hexpire, httl, hpersist, hsetex, hgetex and an expired hget (%s)',
    async (mode, options) => {
      const redis = new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false, ...options });
      const key = `hfe:sdk:${mode}`;
      await redis.hset(key, { a: 'x', b: { v: 1 }, c: 'z' });
      expect(await redis.hexpire(key, ['a', 'b', 'missing'], 100)).toEqual([1, 1, -2]);
      expect(await redis.hexpire(key, 'a', 50, 'GT')).toEqual([0]);
      const [a, c] = await redis.httl(key, ['a', 'c']);
      expectTtlNear(a, 100);
      expect(c).toBe(-1);
      expect(await redis.hpersist(key, ['a', 'c'])).toEqual([1, -1]);
      expect(await redis.httl(key, 'a')).toEqual([-1]);
      const at = Date.now() + 3_000_000;
      expect(await redis.hpexpireat(key, 'c', at)).toEqual([1]);
      expect(await redis.hpexpiretime(key, 'c')).toEqual([at]);
      const [pttl] = await redis.hpttl(key, 'b');
      expect(pttl).toBeGreaterThan(90_000);
      expect(await redis.hsetex(key, { expiration: { px: 300 } }, { d: 'gone' })).toBe(1);
      expect(await redis.hsetex(key, { conditional: 'FNX', expiration: { ex: 100 } }, { a: 'no' })).toBe(0);
      expect(await redis.hgetex(key, { ex: 200 }, 'a', 'missing')).toEqual({ a: 'x', missing: null });
      expectTtlNear((await redis.httl(key, 'a'))[0], 200);
      expect(await redis.hgetex(key, { persist: true }, 'a')).toEqual({ a: 'x' });
      expect(await redis.httl(key, 'a')).toEqual([-1]);
      await eventually(async () => (await redis.hget(key, 'd')) === null);
      expect(await redis.hget(key, 'd')).toBeNull();
      expect(await redis.hgetall(key)).toEqual({ a: 'x', b: { v: 1 }, c: 'z' });
      expect(await redis.hlen(key)).toBe(3);
    },
  );
});
