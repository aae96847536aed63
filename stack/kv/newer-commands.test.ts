// Redis 8.2's XDELEX, XACKDEL and BITOP DIFF / DIFF1 / ANDOR / ONE, emulated by the bridge's script for an
// older redis-server (json/lua-newer.ts): the replies Redis 8.2 documents, checked against the stream's and
// the groups' state afterwards, BITOP against the same operations computed here; atomic; refused to the
// read-only token; and through @upstash/redis, whose own suite uses them.
import { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import { jsonScriptCall } from './json/commands';
import type { CommandReply } from './test-support';
import { commandAs, useTestService, SDK_WIRE_MODES } from './test-support';

const env = useTestService();

const runAs = (token: string, ...args: (string | number)[]): Promise<CommandReply> =>
  commandAs(env.kv, token, ...args);

const run = (...command: string[]): Promise<CommandReply> => runAs(env.kv.token, ...command);
const admin = (...command: string[]) => env.kv.admin(command);

/** A stream with `n` entries (ids 1-0 … n-0) and the groups given, each having read `read` entries. */
async function stream(key: string, n: number, groups: Record<string, number> = {}): Promise<void> {
  for (let i = 1; i <= n; i++) await admin('XADD', key, `${i}-0`, 'f', String(i));
  for (const [group, read] of Object.entries(groups)) {
    await admin('XGROUP', 'CREATE', key, group, '0');
    if (read > 0) await admin('XREADGROUP', 'GROUP', group, 'c', 'COUNT', String(read), 'STREAMS', key, '>');
  }
}

async function ids(key: string): Promise<string[]> {
  const entries = (await admin('XRANGE', key, '-', '+')) as [Buffer, unknown][];
  return entries.map(([id]) => id.toString());
}

async function pending(key: string, group: string): Promise<string[]> {
  const entries = (await admin('XPENDING', key, group, '-', '+', '100')) as [Buffer, ...unknown[]][];
  return entries.map(([id]) => id.toString());
}

describe('XDELEX on a redis-server older than 8.2', () => {
  it('KEEPREF (the default) deletes entries and keeps the groups’ pending references; -1 for an unknown id', async () => {
    await stream('xd:keep', 3, { g: 3 });
    expect(await run('XDELEX', 'xd:keep', 'IDS', '2', '1-0', '9-0')).toEqual({ result: [1, -1] });
    expect(await run('XDELEX', 'xd:keep', 'keepref', 'IDS', '1', '2')).toEqual({ result: [1] });
    expect(await ids('xd:keep')).toEqual(['3-0']);
    expect(await pending('xd:keep', 'g')).toEqual(['1-0', '2-0', '3-0']);
    expect(await run('XDELEX', 'xd:none', 'IDS', '2', '1-0', '2-0')).toEqual({ result: [-1, -1] });
  });

  it('DELREF also takes the ids out of every group’s pending list, even when the entry is gone', async () => {
    await stream('xd:del', 3, { g1: 3, g2: 2 });
    await admin('XDEL', 'xd:del', '3-0');
    expect(await run('XDELEX', 'xd:del', 'DELREF', 'IDS', '2', '1-0', '3-0')).toEqual({ result: [1, -1] });
    expect(await ids('xd:del')).toEqual(['2-0']);
    expect(await pending('xd:del', 'g1')).toEqual(['2-0']);
    expect(await pending('xd:del', 'g2')).toEqual(['2-0']);
  });

  it('ACKED deletes only what no group still needs: pending, or not yet delivered to a group, is kept (2)', async () => {
    await stream('xd:acked', 3, { g1: 2, g2: 3 });
    await admin('XACK', 'xd:acked', 'g1', '1-0');
    await admin('XACK', 'xd:acked', 'g2', '1-0', '2-0', '3-0');
    // 1: acknowledged by both; 2: pending in g1; 3: g1 has not read it yet; 9: not in the stream.
    expect(await run('XDELEX', 'xd:acked', 'ACKED', 'IDS', '4', '1-0', '2-0', '3-0', '9-0')).toEqual({
      result: [1, 2, 2, -1],
    });
    expect(await ids('xd:acked')).toEqual(['2-0', '3-0']);
    // Without groups nothing holds an entry.
    await stream('xd:free', 1);
    expect(await run('XDELEX', 'xd:free', 'ACKED', 'IDS', '1', '1-0')).toEqual({ result: [1] });
  });

  it('refuses bad arguments and other types, and deletes nothing then', async () => {
    await stream('xd:kept', 1);
    await admin('SET', 'xd:str', 'x');
    const cases: [string[], string][] = [
      [['XDELEX', 'xd:kept', 'IDS', '1'], "ERR wrong number of arguments for 'xdelex' command"],
      [['XDELEX', 'xd:kept', 'IDS', '0', '1-0'], 'ERR Number of IDs must be a positive integer'],
      [['XDELEX', 'xd:kept', 'IDS', 'x', '1-0'], 'ERR Number of IDs must be a positive integer'],
      [
        ['XDELEX', 'xd:kept', 'IDS', '3', '1-0', '2-0'],
        'ERR The `numids` parameter must match the number of arguments',
      ],
      [['XDELEX', 'xd:kept', 'NOPE', 'IDS', '1', '1-0'], 'ERR syntax error'],
      [['XDELEX', 'xd:kept', 'ACKED', 'DELREF', 'IDS', '1', '1-0'], 'ERR syntax error'],
      [
        ['XDELEX', 'xd:kept', 'IDS', '1', '1-x'],
        'ERR Invalid stream ID specified as stream command argument',
      ],
      [
        ['XDELEX', 'xd:kept', 'IDS', '1', '18446744073709551616-0'],
        'ERR Invalid stream ID specified as stream command argument',
      ],
      [
        ['XDELEX', 'xd:str', 'IDS', '1', '1-0'],
        'WRONGTYPE Operation against a key holding the wrong kind of value',
      ],
    ];
    for (const [command, error] of cases) expect(await run(...command), command.join(' ')).toEqual({ error });
    expect(await ids('xd:kept')).toEqual(['1-0']);
    // The policy may follow the IDS block.
    expect(await run('XDELEX', 'xd:kept', 'IDS', '1', '1-0', 'ACKED')).toEqual({ result: [1] });
  });
});

describe('XACKDEL on a redis-server older than 8.2', () => {
  it('acknowledges in the group and deletes; -1 for an id not pending there, or an unknown group or key', async () => {
    await stream('xa:keep', 3, { g: 2, other: 3 });
    expect(await run('XACKDEL', 'xa:keep', 'g', 'KEEPREF', 'IDS', '3', '1-0', '2-0', '3-0')).toEqual({
      result: [1, 1, -1],
    });
    expect(await ids('xa:keep')).toEqual(['3-0']);
    expect(await pending('xa:keep', 'g')).toEqual([]);
    // KEEPREF leaves the other group's references.
    expect(await pending('xa:keep', 'other')).toEqual(['1-0', '2-0', '3-0']);
    expect(await run('XACKDEL', 'xa:keep', 'nope', 'IDS', '1', '3-0')).toEqual({ result: [-1] });
    expect(await run('XACKDEL', 'xa:none', 'g', 'IDS', '1', '3-0')).toEqual({ result: [-1] });
  });

  it('DELREF clears every group; ACKED keeps an entry another group still needs (2), acknowledged anyway', async () => {
    await stream('xa:del', 1, { g1: 1, g2: 1 });
    expect(await run('XACKDEL', 'xa:del', 'g1', 'DELREF', 'IDS', '1', '1-0')).toEqual({ result: [1] });
    expect(await ids('xa:del')).toEqual([]);
    expect(await pending('xa:del', 'g2')).toEqual([]);

    await stream('xa:acked', 1, { g1: 1, g2: 0 });
    expect(await run('XACKDEL', 'xa:acked', 'g1', 'ACKED', 'IDS', '1', '1-0')).toEqual({ result: [2] });
    expect(await ids('xa:acked')).toEqual(['1-0']);
    expect(await pending('xa:acked', 'g1')).toEqual([]);
    await admin('XREADGROUP', 'GROUP', 'g2', 'c', 'STREAMS', 'xa:acked', '>');
    expect(await run('XACKDEL', 'xa:acked', 'g2', 'ACKED', 'IDS', '1', '1-0')).toEqual({ result: [1] });
    expect(await ids('xa:acked')).toEqual([]);
  });

  it('is atomic: two callers acknowledging the same entries at once get each one exactly once', async () => {
    await stream('xa:race', 40, { g: 40 });
    const all = Array.from({ length: 40 }, (_, i) => `${i + 1}-0`);
    const replies = await Promise.all([0, 1].map(() => run('XACKDEL', 'xa:race', 'g', 'IDS', '40', ...all)));
    const won = replies.flatMap((reply) => reply.result as number[]).filter((code) => code === 1);
    expect(won).toHaveLength(40);
    expect(await ids('xa:race')).toEqual([]);
  });
});

/** What Redis 8.2's BITOP computes, byte by byte over the longest source (missing bytes are zeros). */
function expected(op: string, sources: Buffer[]): Buffer {
  const length = Math.max(...sources.map((s) => s.length));
  const out = Buffer.alloc(length);
  for (let j = 0; j < length; j++) {
    const bytes = sources.map((s) => s[j] ?? 0);
    const [x, ...ys] = bytes;
    const y = ys.reduce((a, b) => a | b, 0);
    let once = 0;
    for (let bit = 0; bit < 8; bit++) {
      if (bytes.filter((b) => b & (1 << bit)).length === 1) once |= 1 << bit;
    }
    out[j] = op === 'DIFF' ? x! & ~y : op === 'DIFF1' ? ~x! & y : op === 'ANDOR' ? x! & y : /* ONE */ once;
  }
  return out;
}

describe('BITOP DIFF, DIFF1, ANDOR and ONE on a redis-server older than 8.2', () => {
  it('compute what Redis 8.2 does over sources of different lengths, binary bytes and a missing key', async () => {
    const values = [
      Buffer.from([0xff, 0x0f, 0xa5, 0x81]),
      Buffer.from([0xf0, 0x3c]),
      Buffer.from([0x01, 0x80, 0xff]),
    ];
    for (const [i, value] of values.entries()) await env.kv.admin(['SET', `bo:s${i}`, value]);
    const keys = ['bo:s0', 'bo:s1', 'bo:missing', 'bo:s2'];
    const sources = [...values.slice(0, 2), Buffer.alloc(0), values[2]!];
    for (const op of ['DIFF', 'DIFF1', 'ANDOR', 'ONE']) {
      const answer = await run('BITOP', op.toLowerCase(), `bo:${op}`, ...keys);
      expect(answer, op).toEqual({ result: 4 });
      expect(await admin('GET', `bo:${op}`), op).toEqual(expected(op, sources));
    }
    // ONE of a single key copies it.
    expect(await run('BITOP', 'ONE', 'bo:one1', 'bo:s1')).toEqual({ result: 2 });
    expect(await admin('GET', 'bo:one1')).toEqual(values[1]);
  });

  it('deletes the destination for empty sources, and refuses too few keys and other types', async () => {
    await admin('SET', 'bo:dest', 'old');
    expect(await run('BITOP', 'DIFF', 'bo:dest', 'bo:nope1', 'bo:nope2')).toEqual({ result: 0 });
    expect(await admin('EXISTS', 'bo:dest')).toBe(0);
    await admin('SET', 'bo:x', 'x');
    await admin('LPUSH', 'bo:list', 'x');
    expect(await run('BITOP', 'ANDOR', 'bo:dest', 'bo:x')).toEqual({
      error: 'ERR BITOP DIFF, DIFF1 and ANDOR must be called with at least two source keys.',
    });
    expect(await run('BITOP', 'DIFF', 'bo:dest', 'bo:x', 'bo:list')).toEqual({
      error: 'WRONGTYPE Operation against a key holding the wrong kind of value',
    });
    expect(await run('BITOP', 'ONE', 'bo:dest')).toEqual({
      error: "ERR wrong number of arguments for 'bitop' command",
    });
    expect(await admin('EXISTS', 'bo:dest')).toBe(0);
    // The old operations still go to Redis itself, unchanged.
    expect(jsonScriptCall(['BITOP', 'AND', 'd', 'a'], 'bitop', '7.0.15')).toBeUndefined();
    expect(jsonScriptCall(['BITOP', 'one', 'd', 'a'], 'bitop', '8.2.0')).toBeUndefined();
    expect((jsonScriptCall(['BITOP', 'one', 'd', 'a'], 'bitop', '7.0.15') as string[]).slice(2, 5)).toEqual([
      '2',
      'd',
      'a',
    ]);
  });
});

describe('the emulated commands', () => {
  it('are refused to the read-only token, which changes nothing', async () => {
    await stream('ro:s', 1);
    for (const command of [
      ['XDELEX', 'ro:s', 'IDS', '1', '1-0'],
      ['XACKDEL', 'ro:s', 'g', 'IDS', '1', '1-0'],
      ['BITOP', 'ONE', 'ro:d', 'ro:s2'],
    ]) {
      expect(await runAs(env.kv.readOnlyToken, ...command)).toEqual({
        error: `NOPERM this user has no permissions to run the '${command[0]!.toLowerCase()}' command`,
      });
    }
    expect(await ids('ro:s')).toEqual(['1-0']);
  });

  it.each(SDK_WIRE_MODES)('work through @upstash/redis (%s)', async (mode, options) => {
    const redis = new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false, ...options });
    const key = `sdk:${mode}`;
    const first = (await redis.xadd(key, '*', { a: 1 })) as string;
    const second = (await redis.xadd(key, '*', { b: 2 })) as string;
    await redis.xgroup(key, { type: 'CREATE', group: 'g', id: '0' });
    await redis.xreadgroup('g', 'c', key, '>');
    expect(await redis.xackdel(key, 'g', 'KEEPREF', first)).toEqual([1]);
    expect(await redis.xdelex(key, 'acked', second)).toEqual([2]);
    expect(await redis.xdelex(key, undefined, second, '1-0')).toEqual([1, -1]);
    await redis.set(`${key}:x`, 'ABC');
    await redis.set(`${key}:y`, 'A');
    expect(await redis.bitop('diff', `${key}:d`, `${key}:x`, `${key}:y`)).toBe(3);
  });
});
