// HGETDEL (Redis 8.0) emulated by the bridge's hash script for an older redis-server (hash-expiry/): Redis 8.0's replies and
// error texts, atomic, refused to the read-only token, shown as sent in MONITOR, and through @upstash/redis.
import { Redis } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import { HashExpiryRouting } from './hash-expiry/routing';
import type { CommandReply } from './test-support';
import { commandAs, monitorLinesOf, useTestService, SDK_WIRE_MODES } from './test-support';

const env = useTestService();

const runAs = (token: string, ...args: (string | number)[]): Promise<CommandReply> =>
  commandAs(env.kv, token, ...args);

const run = (...command: string[]): Promise<CommandReply> => runAs(env.kv.token, ...command);

describe('HGETDEL on a redis-server older than 8.0', () => {
  it('answers each field and deletes it; the key goes with its last field', async () => {
    await env.kv.admin(['HSET', 'hgd:h', 'a', '1', 'b', '2', 'c', '3']);
    expect(await run('HGETDEL', 'hgd:h', 'FIELDS', '2', 'a', 'nope')).toEqual({ result: ['1', null] });
    expect(await env.kv.admin(['HGETALL', 'hgd:h'])).toEqual([
      Buffer.from('b'),
      Buffer.from('2'),
      Buffer.from('c'),
      Buffer.from('3'),
    ]);
    // A field named twice is read once, as Redis reads and deletes field by field; `fields` in any case.
    expect(await run('HGETDEL', 'hgd:h', 'fields', '3', 'b', 'b', 'c')).toEqual({ result: ['2', null, '3'] });
    expect(await env.kv.admin(['EXISTS', 'hgd:h'])).toBe(0);
    expect(await run('HGETDEL', 'hgd:none', 'FIELDS', '1', 'a')).toEqual({ result: [null] });
  });

  it("answers Redis 8.0's errors, in its order of checks", async () => {
    await env.kv.admin(['SET', 'hgd:str', 'x']);
    await env.kv.admin(['HSET', 'hgd:kept', 'a', '1']);
    const positive = 'ERR Number of fields must be a positive integer';
    const cases: [string[], string][] = [
      [['HGETDEL', 'hgd:kept', 'FIELDS', '1'], "ERR wrong number of arguments for 'hgetdel' command"],
      // The type is checked first, then FIELDS, then the count.
      [
        ['HGETDEL', 'hgd:str', 'NOPE', 'x', 'a'],
        'WRONGTYPE Operation against a key holding the wrong kind of value',
      ],
      [
        ['HGETDEL', 'hgd:kept', 'a', '1', 'a'],
        'ERR Mandatory argument FIELDS is missing or not at the right position',
      ],
      [['HGETDEL', 'hgd:kept', 'FIELDS', '0', 'a'], positive],
      [['HGETDEL', 'hgd:kept', 'FIELDS', '-1', 'a'], positive],
      [['HGETDEL', 'hgd:kept', 'FIELDS', '01', 'a'], positive],
      [['HGETDEL', 'hgd:kept', 'FIELDS', 'one', 'a'], positive],
      [['HGETDEL', 'hgd:kept', 'FIELDS', '9223372036854775808', 'a'], positive],
      [
        ['HGETDEL', 'hgd:kept', 'FIELDS', '2', 'a'],
        'ERR The `numfields` parameter must match the number of arguments',
      ],
      [
        ['HGETDEL', 'hgd:kept', 'FIELDS', '9223372036854775807', 'a'],
        'ERR The `numfields` parameter must match the number of arguments',
      ],
    ];
    for (const [command, error] of cases) expect(await run(...command), command.join(' ')).toEqual({ error });
    expect(await env.kv.admin(['HGET', 'hgd:kept', 'a'])).toEqual(Buffer.from('1'));
  });

  it('is atomic: concurrent callers get each field exactly once, also in pipelines and transactions', async () => {
    const fields = Array.from({ length: 50 }, (_, i) => `f${i}`);
    await env.kv.admin(['HSET', 'hgd:race', ...fields.flatMap((f) => [f, f])]);
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, c) =>
        env.kv.json(c % 2 === 0 ? '/pipeline' : '/multi-exec', {
          method: 'POST',
          body: JSON.stringify([['HGETDEL', 'hgd:race', 'FIELDS', String(fields.length), ...fields]]),
        }),
      ),
    );
    const got: string[] = [];
    for (const { status, body } of replies) {
      expect(status).toBe(200);
      got.push(
        ...((body as { result: (string | null)[] }[])[0]!.result.filter((v) => v !== null) as string[]),
      );
    }
    expect(got.sort()).toEqual([...fields].sort());
    expect(await env.kv.admin(['EXISTS', 'hgd:race'])).toBe(0);
  });

  it('works again after SCRIPT FLUSH, and is sent unchanged to a Redis that has it', async () => {
    await env.kv.admin(['HSET', 'hgd:flush', 'a', '1']);
    await env.kv.admin(['SCRIPT', 'FLUSH']);
    expect(await run('HGETDEL', 'hgd:flush', 'FIELDS', '1', 'a')).toEqual({ result: ['1'] });
    const args = ['HGETDEL', 'k', 'FIELDS', '1', 'a'];
    const routing = (version: string) => new HashExpiryRouting(() => version, { watch() {} });
    expect(routing('8.0.0').mayRoute('hgetdel')).toBe(false);
    expect(routing('7.0.15').mayRoute('hgetdel')).toBe(true);
    expect(routing('7.0.15').call(args, 'hgetdel')![0]).toBe('EVALSHA');
  });

  it('is refused to the read-only token, which deletes nothing', async () => {
    await env.kv.admin(['HSET', 'hgd:ro', 'a', '1']);
    expect(await runAs(env.kv.readOnlyToken, 'HGETDEL', 'hgd:ro', 'FIELDS', '1', 'a')).toEqual({
      error: "NOPERM this user has no permissions to run the 'hgetdel' command",
    });
    expect(await env.kv.admin(['HGET', 'hgd:ro', 'a'])).toEqual(Buffer.from('1'));
  });

  it('shows in MONITOR as the client sent it, without the script or its own commands', async () => {
    await env.kv.admin(['HSET', 'hgd:mon', 'a', '1']);
    const lines = await monitorLinesOf(env.kv, 'hgd:', 'hgd:end', async () => {
      await run('HGETDEL', 'hgd:mon', 'FIELDS', '1', 'a');
      await run('GET', 'hgd:end');
    });
    expect(lines).toEqual([
      '[0 127.0.0.1 default] "HGETDEL" "hgd:mon" "FIELDS" "1" "a"',
      '[0 127.0.0.1 default] "GET" "hgd:end"',
    ]);
  });

  it.each(SDK_WIRE_MODES)('works through @upstash/redis (%s)', async (mode, options) => {
    const redis = new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false, ...options });
    const key = `hgd:sdk:${mode}`;
    await redis.hset(key, { a: 'x', b: { v: 1 }, 123: 'n' });
    expect(await redis.hgetdel(key, 'a', 'missing')).toEqual({ a: 'x', missing: null });
    expect(await redis.hgetdel(key, 'b', 123)).toEqual({ b: { v: 1 }, 123: 'n' });
    expect(await redis.hget(key, 'b')).toBeNull();
    expect(await redis.hgetdel(key, 'a')).toBeNull();
  });
});
