// Binary members of collections, read and edited through the kv.keys.* handlers and main's KV client against
// the real local stack (a real redis-server): the read model carries the exact bytes, never U+FFFD, and
// removals and score edits hit those bytes.
import { describe, expect, it } from 'vitest';
import { procedures } from '../../../../shared/bridge/procedures';
import { type KvBytes, toHex } from '../../../../shared/kv/bytes';
import { base64ToBytes } from '../../../../shared/kv/resp2';
import { KvClient } from './client';
import { kvProfile, useKvHandlers, useKvStack } from './kv-test-stack';

const env = useKvStack();
const { callKv } = useKvHandlers(env, 'kv-binary-');

const BIN = Buffer.from([0xff, 0x00, 0xfe]);
const BIN_B64 = BIN.toString('base64');
const value = (key: string, type: string) => callKv('kv.keys.value', { profileId: 'p', key, type });
const edit = (e: object) => callKv('kv.keys.edit', { profileId: 'p', edit: e });

describe('binary collection members', () => {
  it('reads the exact bytes of binary members of every collection type, text stays text', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    await kv.call(['DEL', 'b:h', 'b:l', 'b:s', 'b:z', 'b:x']);
    // JSON bodies cannot carry these bytes; a script builds them inside redis, sent in one /pipeline.
    const bin = 'string.char(255, 0, 254)';
    const rows = [
      ['EVAL', `redis.call('HSET', KEYS[1], 'f', ${bin}, ${bin}, 'v'); return 1`, 1, 'b:h'],
      ['EVAL', `redis.call('RPUSH', KEYS[1], 'a', ${bin}); return 1`, 1, 'b:l'],
      ['EVAL', `redis.call('SADD', KEYS[1], ${bin}); return 1`, 1, 'b:s'],
      ['EVAL', `redis.call('ZADD', KEYS[1], 1, ${bin}, 2, 'z'); return 1`, 1, 'b:z'],
      ['EVAL', `return redis.call('XADD', KEYS[1], '*', ${bin}, ${bin}, 't', 'x')`, 1, 'b:x'],
    ];
    const written = await kv.pipeline(rows);
    expect(written.entries.every((entry) => entry.error === undefined)).toBe(true);

    const hash = await value('b:h', 'hash');
    const byField = (entries: [KvBytes, KvBytes][]) =>
      new Map<string, KvBytes>(entries.map(([f, v]) => [JSON.stringify(f), v]));
    expect(hash.type === 'hash' && byField(hash.entries)).toEqual(
      new Map<string, KvBytes>([
        [JSON.stringify('f'), { base64: BIN_B64 }],
        [JSON.stringify({ base64: BIN_B64 }), 'v'],
      ]),
    );
    expect(await value('b:l', 'list')).toMatchObject({
      items: [
        { index: 0, value: 'a' },
        { index: 1, value: { base64: BIN_B64 } },
      ],
    });
    expect(await value('b:s', 'set')).toMatchObject({ members: [{ base64: BIN_B64 }] });
    expect(await value('b:z', 'zset')).toMatchObject({
      entries: [
        { member: { base64: BIN_B64 }, score: '1' },
        { member: 'z', score: '2' },
      ],
    });
    const stream = await value('b:x', 'stream');
    expect(stream.type === 'stream' && stream.entries[0]!.fields).toEqual([
      [{ base64: BIN_B64 }, { base64: BIN_B64 }],
      ['t', 'x'],
    ]);
    expect(stream.type === 'stream' && stream.entries[0]!.id).toBe(written.entries[4]!.result);
    // The hex the viewers show, from the same helper as the string editor.
    expect(toHex(base64ToBytes(BIN_B64))).toBe('ff 00 fe');
  });

  it('removes and re-scores binary members by their exact bytes, leaving look-alikes alone', async () => {
    const kv = new KvClient(kvProfile(env.kv));
    await kv.call(['DEL', 'e:h', 'e:s', 'e:z']);
    // U+FFFD is what a lossy read would have produced: it must survive the removal of the binary member.
    const lossy = '\uFFFD\u0000\uFFFD';
    await kv.pipeline([
      [
        'EVAL',
        `redis.call('HSET', KEYS[1], string.char(255, 0, 254), 'bin', ARGV[1], 'text')`,
        1,
        'e:h',
        lossy,
      ],
      ['EVAL', `redis.call('SADD', KEYS[1], string.char(255, 0, 254), ARGV[1])`, 1, 'e:s', lossy],
      ['EVAL', `redis.call('ZADD', KEYS[1], 1, string.char(255, 0, 254), 5, ARGV[1])`, 1, 'e:z', lossy],
    ]);
    const target = { base64: BIN_B64 };
    expect((await edit({ op: 'hash.delete', key: 'e:h', field: target })).result).toBe(1);
    expect((await edit({ op: 'set.remove', key: 'e:s', member: target })).result).toBe(1);
    expect((await edit({ op: 'zset.add', key: 'e:z', member: target, score: '7' })).result).toBe(0);
    expect(await value('e:z', 'zset')).toMatchObject({
      entries: [
        { member: lossy, score: '5' },
        { member: target, score: '7' },
      ],
    });
    expect((await edit({ op: 'zset.remove', key: 'e:z', member: target })).result).toBe(1);
    expect(await value('e:h', 'hash')).toMatchObject({ entries: [[lossy, 'text']], total: 1 });
    expect(await value('e:s', 'set')).toMatchObject({ members: [lossy], total: 1 });
    expect(await value('e:z', 'zset')).toMatchObject({ entries: [{ member: lossy, score: '5' }], total: 1 });
    expect(() =>
      procedures['kv.keys.edit'].input.parse({
        profileId: 'p',
        edit: { op: 'set.remove', key: 'k', member: { base64: 'not base64!' } },
      }),
    ).toThrow(/not base64/);
  });
});
