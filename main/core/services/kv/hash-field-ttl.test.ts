// Hash field TTLs in the key browser, through the kv.keys.* handlers against the real local stack (its
// redis-server 7.0 with the bridge's Redis 7.4 hash-field expiry): a hash page carries each field's HPTTL,
// binary fields included, and the hash.expire / hash.persist edits set and remove one, refusing bad input
// before anything is sent and a missing field with its name.
import { describe, expect, it } from 'vitest';
import { KV_FIELD_TTL_MAX_MS } from '../../../../shared/bridge/procedures/kv/key-browser';
import type { KvBytes } from '../../../../shared/kv/bytes';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { routerWith } from '../test-stack/router';
import { KvClient } from './client';
import { kvProfile, useKvHandlers, useKvStack } from './kv-test-stack';

const env = useKvStack();
let profile: () => ResolvedProfile = () => kvProfile(env.kv);
const { handlers, callKv } = useKvHandlers(env, 'kv-field-ttl-', () => profile());

const kv = () => new KvClient(kvProfile(env.kv));
const BIN = { base64: Buffer.from([0xff, 0x00, 0xfe]).toString('base64') };
const value = (key: string, count = 100) =>
  callKv('kv.keys.value', { profileId: 'p', key, type: 'hash', count });
const edit = (e: object) => callKv('kv.keys.edit', { profileId: 'p', edit: e });

/** A hash page's TTLs by field (binary fields under their base64). */
function ttlsOf(page: Awaited<ReturnType<typeof value>>): Map<string, number> {
  if (page.type !== 'hash' || !page.ttlMs) throw new Error(`no TTLs on ${JSON.stringify(page)}`);
  expect(page.ttlMs).toHaveLength(page.entries.length);
  const name = (field: KvBytes) => (typeof field === 'string' ? field : `b64:${field.base64}`);
  return new Map(page.entries.map(([field], i) => [name(field), page.ttlMs![i]!]));
}

describe('hash field TTLs', () => {
  it('reads each field TTL of a page, text and binary fields alike, and none for an empty page', async () => {
    const client = kv();
    await client.call(['DEL', 'ft:h', 'ft:empty']);
    // A binary field (not UTF-8) cannot travel in a JSON body: a script writes it inside redis-server. The
    // text field with control characters and a quote checks that text fields reach HPTTL byte for byte.
    await client.call([
      'EVAL',
      `redis.call('HSET', KEYS[1], string.char(255, 0, 254), 'bin', 'plain', '1', ARGV[1], '2', 'short', '3'); return 1`,
      1,
      'ft:h',
      'odd\u0000\n"field',
    ]);
    expect(
      await client.callWithValue(['HPEXPIRE', 'ft:h', 600_000, 'FIELDS', 1], Buffer.from([0xff, 0, 0xfe])),
    ).toEqual([1]);
    expect(
      await client.call(['HPEXPIRE', 'ft:h', 300_000, 'FIELDS', 2, 'odd\u0000\n"field', 'short']),
    ).toEqual([1, 1]);
    expect(await client.call(['HPEXPIRE', 'ft:h', 5_000, 'FIELDS', 1, 'short'])).toEqual([1]);

    const ttls = ttlsOf(await value('ft:h'));
    expect([...ttls.keys()].sort()).toEqual([`b64:${BIN.base64}`, 'odd\u0000\n"field', 'plain', 'short']);
    expect(ttls.get('plain')).toBe(-1);
    expect(ttls.get(`b64:${BIN.base64}`)).toBeGreaterThan(590_000);
    expect(ttls.get(`b64:${BIN.base64}`)).toBeLessThanOrEqual(600_000);
    expect(ttls.get('odd\u0000\n"field')).toBeGreaterThan(290_000);
    expect(ttls.get('odd\u0000\n"field')).toBeLessThanOrEqual(300_000);
    expect(ttls.get('short')).toBeGreaterThan(0);
    expect(ttls.get('short')).toBeLessThanOrEqual(5_000);

    // Pages of one field each: every page has the TTLs of its own fields.
    const seen = new Map<string, number>();
    let cursor = '0';
    do {
      const page = await callKv('kv.keys.value', {
        profileId: 'p',
        key: 'ft:h',
        type: 'hash',
        cursor,
        count: 1,
      });
      for (const [field, ttl] of ttlsOf(page)) seen.set(field, ttl);
      cursor = page.type === 'hash' ? page.cursor : '';
    } while (cursor !== '');
    expect([...seen.keys()].sort()).toEqual([...ttls.keys()].sort());
    expect(seen.get('plain')).toBe(-1);

    // A hash without field times still answers them (all -1); a missing key has no fields and asks nothing.
    await client.call(['HSET', 'ft:plain', 'a', '1']);
    expect(ttlsOf(await value('ft:plain'))).toEqual(new Map([['a', -1]]));
    const empty = await value('ft:empty');
    expect(empty).toEqual({ type: 'hash', entries: [], cursor: '', total: 0 });
  });

  it('shows the page without TTLs when the service refuses HPTTL', async () => {
    const client = kv();
    await client.call(['DEL', 'ft:acl']);
    await client.call(['HSET', 'ft:acl', 'a', '1', 'b', '2']);
    // An ACL token that may scan hashes but not run scripts: the stack's HPTTL (a script on Redis 7.0) is
    // refused with NOPERM, as an older Redis refuses an unknown command, while HSCAN is asked as itself.
    // (This hash has no field times: the stack's plain HSCAN fallback would show its bookkeeping field.)
    await client.call([
      'ACL',
      'SETUSER',
      'ft-no-scripts',
      'on',
      '>ft-no-scripts-secret',
      '~*',
      '+hscan',
      '+hlen',
      '+ping',
    ]);
    const token = (await client.call<string>(['ACL', 'RESTTOKEN', 'ft-no-scripts', 'ft-no-scripts-secret']))!;
    const base = kvProfile(env.kv, { readOnlyToken: false });
    const restricted: ResolvedProfile = {
      ...base,
      secret: (name) => (name === 'kvToken' ? token : undefined),
    };
    const refused = await new KvClient(restricted).command(['HPTTL', 'ft:acl', 'FIELDS', 1, 'a']);
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('NOPERM') as unknown });
    profile = () => restricted;
    try {
      const page = await value('ft:acl');
      expect(page.type === 'hash' && page.entries.map(([f]) => f).sort()).toEqual(['a', 'b']);
      expect(page).not.toHaveProperty('ttlMs');
    } finally {
      profile = () => kvProfile(env.kv);
    }
  });

  it('sets and removes a field TTL, by text and by exact bytes', async () => {
    const client = kv();
    await client.call(['DEL', 'ft:e']);
    await client.call([
      'EVAL',
      `redis.call('HSET', KEYS[1], string.char(255, 0, 254), 'bin', 'theme', 'dark', 'lang', 'en'); return 1`,
      1,
      'ft:e',
    ]);
    expect(await edit({ op: 'hash.expire', key: 'ft:e', field: 'theme', ttlMs: 90_000 })).toEqual({
      result: 1,
    });
    expect(await edit({ op: 'hash.expire', key: 'ft:e', field: BIN, ttlMs: 45_000 })).toEqual({ result: 1 });
    let ttls = ttlsOf(await value('ft:e'));
    expect(ttls.get('theme')).toBeGreaterThan(80_000);
    expect(ttls.get('theme')).toBeLessThanOrEqual(90_000);
    expect(ttls.get(`b64:${BIN.base64}`)).toBeGreaterThan(35_000);
    expect(ttls.get(`b64:${BIN.base64}`)).toBeLessThanOrEqual(45_000);
    expect(ttls.get('lang')).toBe(-1);
    // What the service itself says, asked by the vendor's wire form.
    const [themeTtl] = await client.call<number[]>(['HPTTL', 'ft:e', 'FIELDS', 1, 'theme']);
    expect(themeTtl).toBeGreaterThan(80_000);

    // Persist: the TTL goes, the field stays; a field without one answers -1 (nothing to remove).
    expect(await edit({ op: 'hash.persist', key: 'ft:e', field: 'theme' })).toEqual({ result: 1 });
    expect(await edit({ op: 'hash.persist', key: 'ft:e', field: 'theme' })).toEqual({ result: -1 });
    expect(await edit({ op: 'hash.persist', key: 'ft:e', field: BIN })).toEqual({ result: 1 });
    ttls = ttlsOf(await value('ft:e'));
    expect([...ttls.values()]).toEqual([-1, -1, -1]);
    expect(await client.call(['HGET', 'ft:e', 'theme'])).toBe('dark');
    expect(await client.call(['HLEN', 'ft:e'])).toBe(3);
  });

  it('says which field is missing, and refuses bad TTLs before anything is sent', async () => {
    const client = kv();
    await client.call(['DEL', 'ft:m', 'ft:gone', 'ft:str']);
    await client.call(['HSET', 'ft:m', 'here', '1']);
    await expect(edit({ op: 'hash.expire', key: 'ft:m', field: 'nope', ttlMs: 1000 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'The field "nope" of "ft:m" does not exist (any more).',
    });
    await expect(edit({ op: 'hash.persist', key: 'ft:m', field: 'nope' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'The field "nope" of "ft:m" does not exist (any more).',
    });
    await expect(edit({ op: 'hash.expire', key: 'ft:m', field: BIN, ttlMs: 1000 })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'The field (hex) ff 00 fe of "ft:m" does not exist (any more).',
    });
    // A key that does not exist answers -2 per field too.
    await expect(edit({ op: 'hash.persist', key: 'ft:gone', field: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // Another type: the service's own error.
    await client.call(['SET', 'ft:str', 'v']);
    await expect(edit({ op: 'hash.expire', key: 'ft:str', field: 'x', ttlMs: 1000 })).rejects.toThrow(
      /WRONGTYPE/,
    );

    // Bad TTLs: refused by the bridge's router (the renderer is untrusted), each saying what is wrong.
    const router = routerWith(handlers);
    const message = async (ttlMs: unknown) => {
      const result = await router.call('kv.keys.edit', {
        profileId: 'p',
        edit: { op: 'hash.expire', key: 'ft:m', field: 'here', ttlMs },
      });
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      return result.ok ? '' : result.error.message;
    };
    expect(await message(0)).toBe('Invalid input — edit.ttlMs: a TTL is at least 1 ms');
    expect(await message(-5)).toBe('Invalid input — edit.ttlMs: a TTL is at least 1 ms');
    expect(await message(1.5)).toBe('Invalid input — edit.ttlMs: a TTL is a whole number of milliseconds');
    expect(await message(KV_FIELD_TTL_MAX_MS + 1)).toBe(
      `Invalid input — edit.ttlMs: a TTL is at most ${KV_FIELD_TTL_MAX_MS} ms (about 68 years)`,
    );
    expect(await message('1000')).toBe('Invalid input — edit.ttlMs: a TTL in milliseconds is needed');
    expect(await message(null)).toBe('Invalid input — edit.ttlMs: a TTL in milliseconds is needed');
    expect(await message(undefined)).toBe('Invalid input — edit.ttlMs: a TTL in milliseconds is needed');
    expect(await client.call(['HPTTL', 'ft:m', 'FIELDS', 1, 'here'])).toEqual([-1]);
    // The longest TTL allowed is one Redis takes.
    expect(await edit({ op: 'hash.expire', key: 'ft:m', field: 'here', ttlMs: KV_FIELD_TTL_MAX_MS })).toEqual(
      { result: 1 },
    );
    expect(ttlsOf(await value('ft:m')).get('here')).toBeGreaterThan(KV_FIELD_TTL_MAX_MS - 60_000);
  });
});
