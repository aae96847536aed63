// XREADGROUP … NOACK leaves no consumer entry, as on the hosted service (xreadgroup-noack.ts): the entries are
// still read and the group moves on, an existing consumer stays, errors and refusals read as the client's
// XREADGROUP, MONITOR shows the XREADGROUP, and reads without NOACK are Redis's own.
import { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import type { CommandReply } from './test-support';
import { commandAs, monitorLinesOf, useTestService, SDK_WIRE_MODES } from './test-support';
import { noAckCall, XREADGROUP_NOACK_SHA } from './xreadgroup-noack';

const env = useTestService();

const runAs = (token: string, ...args: (string | number)[]): Promise<CommandReply> =>
  commandAs(env.kv, token, ...args);
const run = (...command: string[]): Promise<CommandReply> => runAs(env.kv.token, ...command);

/** A stream with `count` entries (ids 1-0 …) and group `g` at 0. */
async function streamWithGroup(key: string, count: number): Promise<void> {
  for (let n = 1; n <= count; n++) await env.kv.admin(['XADD', key, `${n}-0`, 'n', String(n)]);
  await env.kv.admin(['XGROUP', 'CREATE', key, 'g', '0']);
}

/** XINFO CONSUMERS as name → pending count. */
async function consumers(key: string, group = 'g'): Promise<Record<string, number>> {
  const reply = (await env.kv.admin(['XINFO', 'CONSUMERS', key, group])) as unknown[][];
  const out: Record<string, number> = {};
  for (const entry of reply) out[String(entry[1])] = Number(entry[3]);
  return out;
}

/** XINFO GROUPS's fields of group `g`, as text. */
async function groupInfo(key: string): Promise<Record<string, string>> {
  const reply = (await env.kv.admin(['XINFO', 'GROUPS', key])) as unknown[][];
  const entry = reply.find((e) => String(e[1]) === 'g')!;
  const out: Record<string, string> = {};
  for (let k = 0; k < entry.length; k += 2) out[String(entry[k])] = String(entry[k + 1]);
  return out;
}

describe('XREADGROUP … NOACK', () => {
  it("reads as a new consumer without creating it (the SDK suite's case), and the group moves on", async () => {
    await streamWithGroup('xna:s', 2);
    expect(await run('XREADGROUP', 'GROUP', 'g', 'new', 'NOACK', 'STREAMS', 'xna:s', '>')).toEqual({
      result: [
        [
          'xna:s',
          [
            ['1-0', ['n', '1']],
            ['2-0', ['n', '2']],
          ],
        ],
      ],
    });
    expect(await run('XINFO', 'CONSUMERS', 'xna:s', 'g')).toEqual({ result: [] });
    expect(await groupInfo('xna:s')).toMatchObject({
      consumers: '0',
      pending: '0',
      'last-delivered-id': '2-0',
      'entries-read': '2',
    });
    // Nothing new: the same (Redis's null) as without the script; `noack` and `streams` in any case.
    expect(await run('XREADGROUP', 'group', 'g', 'new', 'noack', 'streams', 'xna:s', '>')).toEqual({
      result: null,
    });
    expect(await consumers('xna:s')).toEqual({});
  });

  it('keeps a consumer that existed, with its pending entries; COUNT still applies', async () => {
    await streamWithGroup('xna:kept', 3);
    await run('XREADGROUP', 'GROUP', 'g', 'old', 'COUNT', '1', 'STREAMS', 'xna:kept', '>');
    expect(await consumers('xna:kept')).toEqual({ old: 1 });
    const read = await run(
      'XREADGROUP',
      'GROUP',
      'g',
      'old',
      'COUNT',
      '1',
      'NOACK',
      'STREAMS',
      'xna:kept',
      '>',
    );
    expect(read).toEqual({ result: [['xna:kept', [['2-0', ['n', '2']]]]] });
    expect(await consumers('xna:kept')).toEqual({ old: 1 });
    expect((await groupInfo('xna:kept'))['last-delivered-id']).toBe('2-0');
  });

  it('reads several streams; only the groups that lacked the consumer lose it again', async () => {
    await streamWithGroup('xna:m1', 1);
    await streamWithGroup('xna:m2', 2);
    await run('XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', '1', 'STREAMS', 'xna:m2', '>');
    const read = await run('XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'xna:m1', 'xna:m2', '>', '>');
    expect(read).toEqual({
      result: [
        ['xna:m1', [['1-0', ['n', '1']]]],
        ['xna:m2', [['2-0', ['n', '2']]]],
      ],
    });
    expect(await consumers('xna:m1')).toEqual({});
    expect(await consumers('xna:m2')).toEqual({ c: 1 });
  });

  it('reads a stream named NOACK as a stream, and a read without NOACK as Redis does (consumer, pending)', async () => {
    await streamWithGroup('NOACK', 1);
    expect(await run('XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'NOACK', '>')).toEqual({
      result: [['NOACK', [['1-0', ['n', '1']]]]],
    });
    expect(await consumers('NOACK')).toEqual({ c: 1 });
    expect(noAckCall(['XREADGROUP', 'GROUP', 'g', 'c', 'STREAMS', 'NOACK', '>'])).toBeUndefined();
    expect(noAckCall(['XREADGROUP', 'GROUP', 'noack', 'noack', 'COUNT', 'noack', 'STREAMS', 's', '>'])).toBe(
      undefined,
    );
    expect(noAckCall(['XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'a', 'b', '>', '>'])).toEqual([
      'EVALSHA',
      XREADGROUP_NOACK_SHA,
      '2',
      'a',
      'b',
      'XREADGROUP',
      'GROUP',
      'g',
      'c',
      'NOACK',
      'STREAMS',
      'a',
      'b',
      '>',
      '>',
    ]);
  });

  it("answers Redis's own errors, naming XREADGROUP", async () => {
    await streamWithGroup('xna:err', 1);
    const cases: [string[], string][] = [
      [
        ['XREADGROUP', 'GROUP', 'nogroup', 'c', 'NOACK', 'STREAMS', 'xna:err', '>'],
        "NOGROUP No such key 'xna:err' or consumer group 'nogroup' in XREADGROUP with GROUP option",
      ],
      [
        ['XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'xna:missing', '>'],
        "NOGROUP No such key 'xna:missing' or consumer group 'g' in XREADGROUP with GROUP option",
      ],
      [
        ['XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', 'x', 'NOACK', 'STREAMS', 'xna:err', '>'],
        'ERR value is not an integer or out of range',
      ],
      [
        ['XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'xna:err', 'xna:err', '>'],
        "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.",
      ],
      [
        ['XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS'],
        "ERR wrong number of arguments for 'xreadgroup' command",
      ],
      [['XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'NOPE', 'STREAMS', 'xna:err', '>'], 'ERR syntax error'],
    ];
    for (const [command, error] of cases) expect(await run(...command), command.join(' ')).toEqual({ error });
    expect(await consumers('xna:err')).toEqual({});
  });

  it('refuses BLOCK with NOACK as every blocking read (so no consumer either)', async () => {
    await streamWithGroup('xna:block', 1);
    expect(
      await run('XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '10', 'NOACK', 'STREAMS', 'xna:block', '>'),
    ).toEqual({
      error: "ERR blocking command 'xreadgroup' is not supported by the REST API",
    });
    expect(noAckCall(['XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '10', 'NOACK', 'STREAMS', 's', '>'])).toBe(
      undefined,
    );
  });

  it("refuses the read-only token with Redis's NOPERM for xreadgroup; an ACL user without EVALSHA reads as in Redis", async () => {
    await streamWithGroup('xna:acl', 2);
    expect(
      await runAs(env.kv.readOnlyToken, 'XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'xna:acl', '>'),
    ).toEqual({ error: "NOPERM this user has no permissions to run the 'xreadgroup' command" });
    await env.kv.admin(['ACL', 'SETUSER', 'xnastream', 'on', '>xna-pass', '~xna:*', '+@stream']);
    const token = (await run('ACL', 'RESTTOKEN', 'xnastream', 'xna-pass')).result as string;
    expect(
      await runAs(token, 'XREADGROUP', 'GROUP', 'g', 'c', 'COUNT', '1', 'NOACK', 'STREAMS', 'xna:acl', '>'),
    ).toEqual({
      result: [['xna:acl', [['1-0', ['n', '1']]]]],
    });
    // Sent as the user's own command: Redis's consumer entry (documented).
    expect(await consumers('xna:acl')).toEqual({ c: 0 });
    await env.kv.admin(['ACL', 'DELUSER', 'xnastream']);
  });

  it('works in a pipeline and in a transaction', async () => {
    await streamWithGroup('xna:p', 2);
    const pipeline = await env.kv.json('/pipeline', {
      method: 'POST',
      body: JSON.stringify([
        ['XREADGROUP', 'GROUP', 'g', 'p', 'COUNT', '1', 'NOACK', 'STREAMS', 'xna:p', '>'],
        ['XINFO', 'CONSUMERS', 'xna:p', 'g'],
        ['XREADGROUP', 'GROUP', 'nope', 'p', 'NOACK', 'STREAMS', 'xna:p', '>'],
      ]),
    });
    expect(pipeline).toEqual({
      status: 200,
      body: [
        { result: [['xna:p', [['1-0', ['n', '1']]]]] },
        { result: [] },
        { error: "NOGROUP No such key 'xna:p' or consumer group 'nope' in XREADGROUP with GROUP option" },
      ],
    });
    // SCRIPT FLUSH first: the transaction loads the script before MULTI.
    await env.kv.admin(['SCRIPT', 'FLUSH']);
    const multi = await env.kv.json('/multi-exec', {
      method: 'POST',
      body: JSON.stringify([
        ['XREADGROUP', 'GROUP', 'g', 't', 'NOACK', 'STREAMS', 'xna:p', '>'],
        ['XINFO', 'CONSUMERS', 'xna:p', 'g'],
        ['XREADGROUP', 'GROUP', 'g', 't', 'NOACK', 'STREAMS', 'xna:p', '>'],
      ]),
    });
    expect(multi).toEqual({
      status: 200,
      body: [{ result: [['xna:p', [['2-0', ['n', '2']]]]] }, { result: [] }, { result: null }],
    });
  });

  it("sends RESP2 output with the bytes of Redis's own reply (a null array when nothing is new)", async () => {
    await streamWithGroup('xna:r2', 1);
    const resp2 = async (...command: string[]): Promise<string> => {
      const res = await env.kv.call('/', {
        method: 'POST',
        body: JSON.stringify(command),
        headers: { 'upstash-response-format': 'resp2' },
      });
      return Buffer.from(await res.arrayBuffer()).toString('latin1');
    };
    const read = ['XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'xna:r2', '>'];
    expect(await resp2(...read)).toBe(
      '*1\r\n*2\r\n$6\r\nxna:r2\r\n*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nn\r\n$1\r\n1\r\n',
    );
    expect(await resp2(...read)).toBe('*-1\r\n');
    expect(await consumers('xna:r2')).toEqual({});
  });

  it('shows in MONITOR as the XREADGROUP the client sent', async () => {
    await streamWithGroup('xna:mon', 1);
    const lines = await monitorLinesOf(env.kv, 'xna:', 'xna:end', async () => {
      await run('XREADGROUP', 'GROUP', 'g', 'c', 'NOACK', 'STREAMS', 'xna:mon', '>');
      await run('GET', 'xna:end');
    });
    expect(lines).toEqual([
      '[0 127.0.0.1 default] "XREADGROUP" "GROUP" "g" "c" "NOACK" "STREAMS" "xna:mon" ">"',
      '[0 127.0.0.1 default] "GET" "xna:end"',
    ]);
  });

  it.each(SDK_WIRE_MODES)('works through @upstash/redis (%s)', async (mode, options) => {
    const redis = new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false, ...options });
    const key = `xna:sdk:${mode}`;
    await redis.xadd(key, '*', { a: 1 });
    await redis.xgroup(key, { type: 'CREATE', group: 'g', id: '0' });
    const read = (await redis.xreadgroup('g', 'sdk', key, '>', { NOACK: true })) as unknown[][];
    expect(read).toHaveLength(1);
    expect(read[0]![0]).toBe(key);
    expect(await redis.xinfo(key, { type: 'CONSUMERS', group: 'g' })).toEqual([]);
    expect(await redis.xreadgroup('g', 'sdk', key, '>', { NOACK: true })).toBeNull();
    // Without NOACK: Redis's consumer with its pending entry.
    await redis.xadd(key, '*', { b: 2 });
    await redis.xreadgroup('g', 'sdk', key, '>');
    expect(await consumers(key)).toEqual({ sdk: 1 });
  });
});
