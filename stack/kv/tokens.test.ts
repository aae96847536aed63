// Tokens: the read-only token over the whole Redis command table, ACL RESTTOKEN tokens, and tokens (and
// data) surviving a restart of the service.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openDatabase } from '../store/db';
import { KV_CREDENTIALS_KEY, LOCAL_READ_ONLY_TOKEN, LOCAL_TOKEN, settingsOfDataDir } from './credentials';
import { refusal } from './policy';
import { KEY_ENUMERATING_READS } from './redis-server';
import type { RespValue } from './resp';
import type { TestService } from './test-support';
import { eventually, startTestService, tempDir } from './test-support';

let kv: TestService;

beforeAll(async () => {
  kv = await startTestService();
});

afterAll(async () => {
  await kv?.stop();
});

const post = (body: unknown, token: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { authorization: `Bearer ${token}`, ...headers },
});

const names = (value: RespValue): string[] => (value as Buffer[]).map((b) => b.toString());

/** Command name → arity, subcommands included ("config|get"), from Redis's own COMMAND table. */
async function arities(): Promise<Map<string, number>> {
  const table = (await kv.admin(['COMMAND'])) as RespValue[][];
  const map = new Map<string, number>();
  for (const entry of table) {
    map.set(String(entry[0]), entry[1] as number);
    for (const sub of (entry[9] as RespValue[][] | undefined) ?? [])
      map.set(String(sub[0]), sub[1] as number);
  }
  return map;
}

/** A call that passes Redis's arity check, so the ACL check is what decides. */
function invocation(name: string, arity: Map<string, number>): string[] {
  const args = name.split('|');
  const want = Math.abs(arity.get(name) ?? args.length);
  while (args.length < want) args.push('ro:key');
  return args;
}

describe('the read-only token', () => {
  it('uses the well-known local tokens by default', () => {
    expect(kv.token).toBe(LOCAL_TOKEN);
    expect(kv.readOnlyToken).toBe(LOCAL_READ_ONLY_TOKEN);
  });

  it('is refused every write command of the command table, by Redis itself', async () => {
    const arity = await arities();
    const writes = names(await kv.admin(['ACL', 'CAT', 'write']));
    expect(writes.length).toBeGreaterThan(100);
    expect(writes).toContain('set');
    await kv.admin(['SET', 'ro:canary', 'before']);
    const dbsize = await kv.admin(['DBSIZE']);
    const calls = writes.map((name) => invocation(name, arity));
    const res = await kv.json('/pipeline', post(calls, kv.readOnlyToken));
    expect(res.status).toBe(200);
    const entries = res.body as { result?: unknown; error?: string }[];
    expect(entries).toHaveLength(calls.length);
    entries.forEach((entry, i) => {
      const bridge = refusal(calls[i]!);
      if (bridge) expect(entry.error, writes[i]).toBe(bridge);
      else expect(entry.error, writes[i]).toMatch(/^NOPERM this user has no permissions to run the '/);
    });
    expect(await kv.admin(['DBSIZE'])).toBe(dbsize);
    expect(await kv.admin(['GET', 'ro:canary'])).toEqual(Buffer.from('before'));
  });

  it('may run every read command except the dangerous and key-enumerating ones, plus PING and ECHO', async () => {
    const arity = await arities();
    const dangerous = new Set(names(await kv.admin(['ACL', 'CAT', 'dangerous'])));
    const reads = names(await kv.admin(['ACL', 'CAT', 'read']));
    const enumerating = (name: string): boolean => KEY_ENUMERATING_READS.includes(name);
    const allowed = reads.filter((name) => !dangerous.has(name) && !enumerating(name));
    const refused = reads.filter((name) => dangerous.has(name) || enumerating(name));
    expect(refused).toEqual(expect.arrayContaining(['keys', 'scan', 'randomkey']));
    expect(allowed).toEqual(expect.arrayContaining(['get', 'hgetall', 'xrange', 'zrange']));

    const allowedCalls = [...allowed.map((name) => invocation(name, arity)), ['PING'], ['ECHO', 'hi']];
    const ok = (await kv.json('/pipeline', post(allowedCalls, kv.readOnlyToken))).body as {
      error?: string;
    }[];
    ok.forEach((entry, i) => expect(entry.error ?? '', allowedCalls[i]!.join(' ')).not.toMatch(/NOPERM/));

    const refusedCalls = refused.map((name) => invocation(name, arity));
    const no = (await kv.json('/pipeline', post(refusedCalls, kv.readOnlyToken))).body as {
      error?: string;
    }[];
    no.forEach((entry, i) => expect(entry.error, refused[i]).toMatch(/^NOPERM/));
  });

  it('answers single refused commands with 400 and the NOPERM text', async () => {
    expect(
      await kv.json('/set/ro:x/1', { headers: { authorization: `Bearer ${kv.readOnlyToken}` } }),
    ).toEqual({
      status: 400,
      body: { error: "NOPERM this user has no permissions to run the 'set' command" },
    });
    expect(
      (await kv.json('/keys/*', { headers: { authorization: `Bearer ${kv.readOnlyToken}` } })).status,
    ).toBe(400);
    expect(
      (await kv.json('/scan/0', { headers: { authorization: `Bearer ${kv.readOnlyToken}` } })).status,
    ).toBe(400);
    expect(
      await kv.json('/get/ro:canary', { headers: { authorization: `Bearer ${kv.readOnlyToken}` } }),
    ).toEqual({
      status: 200,
      body: { result: 'before' },
    });
  });

  it('cannot list key names with RANDOMKEY (issue 18: a pipeline of them listed a whole database)', async () => {
    for (let i = 0; i < 20; i++) await kv.admin(['SET', `ro:enum:${i}`, 'x']);
    const calls = Array.from({ length: 200 }, () => ['RANDOMKEY']);
    const res = await kv.json('/pipeline', post(calls, kv.readOnlyToken));
    expect(res.status).toBe(200);
    const entries = res.body as { result?: unknown; error?: string }[];
    expect(entries.filter((entry) => entry.result !== undefined)).toEqual([]);
    expect(entries[0]).toEqual({
      error: "NOPERM this user has no permissions to run the 'randomkey' command",
    });
    expect(await kv.json('/randomkey', { headers: { authorization: `Bearer ${kv.readOnlyToken}` } })).toEqual(
      {
        status: 400,
        body: { error: "NOPERM this user has no permissions to run the 'randomkey' command" },
      },
    );
    // The standard token still may.
    expect((await kv.json('/randomkey')).status).toBe(200);
  });

  it('cannot open a transaction (MULTI is not a read command) and nothing runs', async () => {
    const res = await kv.json('/multi-exec', post([['GET', 'ro:canary']], kv.readOnlyToken));
    expect(res).toEqual({
      status: 400,
      body: { error: "NOPERM this user has no permissions to run the 'multi' command" },
    });
  });
});

describe('ACL RESTTOKEN', () => {
  const user = 'app';
  const password = 'app-secret';

  beforeAll(async () => {
    const created = await kv.json(
      '/',
      post(['ACL', 'SETUSER', user, 'on', `>${password}`, '~app:*', '+get', '+set', '+ping'], kv.token),
    );
    expect(created.body).toEqual({ result: 'OK' });
  });

  it('answers wrong credentials with the documented error', async () => {
    for (const args of [
      ['ACL', 'RESTTOKEN', user, 'wrong'],
      ['ACL', 'RESTTOKEN', 'nobody', password],
    ]) {
      expect(await kv.json('/', post(args, kv.token))).toEqual({
        status: 400,
        body: { error: `ERR Wrong password or user "${args[2]}" does not exist` },
      });
    }
    expect(
      (await kv.json('/acl/resttoken/app', { headers: { authorization: `Bearer ${kv.token}` } })).status,
    ).toBe(400);
  });

  it('returns a token that runs every command as that user, so Redis enforces its permissions', async () => {
    const issued = await kv.json('/', post(['ACL', 'RESTTOKEN', user, password], kv.token));
    expect(issued.status).toBe(200);
    const token = (issued.body as { result: string }).result;
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const as = { headers: { authorization: `Bearer ${token}` } };
    expect((await kv.json('/set/app:1/v', as)).body).toEqual({ result: 'OK' });
    expect((await kv.json('/get/app:1', as)).body).toEqual({ result: 'v' });
    expect(await kv.json('/set/other:1/v', as)).toEqual({
      status: 400,
      body: { error: 'NOPERM this user has no permissions to access one of the keys used as arguments' },
    });
    expect((await kv.json('/del/app:1', as)).body).toEqual({
      error: "NOPERM this user has no permissions to run the 'del' command",
    });
    // The token is a bulk string, so it is base64 in base64 mode.
    const b64 = await kv.json(
      '/',
      post(['ACL', 'RESTTOKEN', user, password], kv.token, { 'upstash-encoding': 'base64' }),
    );
    expect(Buffer.from((b64.body as { result: string }).result, 'base64').toString()).toBe(token);
  });

  it("answers TYPE, SCAN … WITHTYPE and SCAN … TYPE ReJSON-RL by the user's own rules, though it may not run the bridge's script", async () => {
    // The hosted service's recipe for a read-only user: +@read has TYPE and HEXISTS, not EVALSHA_RO.
    await kv.json(
      '/',
      post(['ACL', 'SETUSER', 'reader', 'on', '>reader-pass', '~rd:*', '&*', '+@read'], kv.token),
    );
    await kv.json(
      '/',
      post(['ACL', 'SETUSER', 'typeonly', 'on', '>t-pass', '~rd:*', '+type', '+scan'], kv.token),
    );
    await kv.json('/', post(['ACL', 'SETUSER', 'getonly', 'on', '>g-pass', '~rd:*', '+get'], kv.token));
    await kv.admin(['SET', 'rd:str', 'v']);
    await kv.admin(['HSET', 'rd:hash', 'f', '1']);
    expect((await kv.json('/', post(['JSON.SET', 'rd:doc', '$', '{"a":1}'], kv.token))).status).toBe(200);
    const tokenOf = async (user: string, pass: string): Promise<string> =>
      ((await kv.json('/', post(['ACL', 'RESTTOKEN', user, pass], kv.token))).body as { result: string })
        .result;
    const run = async (token: string, args: string[]): Promise<unknown> =>
      (await kv.json('/', post(args, token))).body;

    const reader = await tokenOf('reader', 'reader-pass');
    const types = await kv.json(
      '/pipeline',
      post(
        [
          ['TYPE', 'rd:str'],
          ['TYPE', 'rd:hash'],
          ['TYPE', 'rd:doc'],
          ['TYPE', 'rd:none'],
          ['GET', 'rd:str'],
        ],
        reader,
      ),
    );
    expect(types.body).toEqual([
      { result: 'string' },
      { result: 'hash' },
      { result: 'ReJSON-RL' },
      { result: 'none' },
      { result: 'v' },
    ]);
    const scan = (await run(reader, ['SCAN', '0', 'MATCH', 'rd:*', 'COUNT', '1000', 'WITHTYPE'])) as {
      result: [string, string[]];
    };
    const pairs = new Map<string, string>();
    for (let i = 0; i < scan.result[1].length; i += 2) pairs.set(scan.result[1][i]!, scan.result[1][i + 1]!);
    expect(pairs).toEqual(
      new Map([
        ['rd:str', 'string'],
        ['rd:hash', 'hash'],
        ['rd:doc', 'ReJSON-RL'],
      ]),
    );
    const scanKeys = async (token: string, type: string, withType = false): Promise<unknown> => {
      const reply = (await run(
        token,
        ['SCAN', '0', 'MATCH', 'rd:*', 'COUNT', '1000', 'TYPE', type].concat(withType ? ['WITHTYPE'] : []),
      )) as { result?: [string, string[]]; error?: string };
      return reply.result ? reply.result[1].sort() : reply;
    };
    expect(await scanKeys(reader, 'ReJSON-RL')).toEqual(['rd:doc']);
    expect(await scanKeys(reader, 'hash')).toEqual(['rd:hash']);
    expect(await scanKeys(reader, 'ReJSON-RL', true)).toEqual(['ReJSON-RL', 'rd:doc']);
    // A user without HEXISTS sees a JSON document as the hash it is stored in.
    const typeOnly = await tokenOf('typeonly', 't-pass');
    expect(await run(typeOnly, ['TYPE', 'rd:doc'])).toEqual({ result: 'hash' });
    expect(await scanKeys(typeOnly, 'hash')).toEqual(['rd:doc', 'rd:hash']);
    expect(await scanKeys(typeOnly, 'ReJSON-RL')).toEqual([]);
    // A user who may not run TYPE, or use the key, gets Redis's own refusal for it.
    const getOnly = await tokenOf('getonly', 'g-pass');
    expect(await run(getOnly, ['TYPE', 'rd:str'])).toEqual({
      error: "NOPERM this user has no permissions to run the 'type' command",
    });
    expect(await run(reader, ['TYPE', 'other:key'])).toEqual({
      error: 'NOPERM this user has no permissions to access one of the keys used as arguments',
    });
  });

  it('stops working once the user is gone, with a 401', async () => {
    await kv.json('/', post(['ACL', 'SETUSER', 'temp', 'on', '>temp-pass', '~*', '+@all'], kv.token));
    const token = (
      (await kv.json('/', post(['ACL', 'RESTTOKEN', 'temp', 'temp-pass'], kv.token))).body as {
        result: string;
      }
    ).result;
    expect((await kv.json('/ping', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await kv.json('/', post(['ACL', 'DELUSER', 'temp'], kv.token));
    // Redis closes the connections of a deleted user; new ones are refused at AUTH. (A request that
    // races the close on a just-dropped connection gets a 503; the next one opens a new connection.)
    let after = { status: 503, body: {} as unknown };
    await eventually(async () => {
      after = await kv.json('/ping', { headers: { authorization: `Bearer ${token}` } });
      return after.status !== 503;
    });
    expect(after.status).toBe(401);
    expect((after.body as { error: string }).error).toMatch(/^WRONGPASS/);
  });
});

describe('after a restart of the stack', () => {
  /** A new ACL user that may GET, and the token ACL RESTTOKEN issues for it. */
  async function aclTokenFor(service: TestService, user: string): Promise<string> {
    const password = `${user}-pass`;
    await service.json(
      '/',
      post(['ACL', 'SETUSER', user, 'on', `>${password}`, '~*', '+get'], service.token),
    );
    const issued = await service.json('/', post(['ACL', 'RESTTOKEN', user, password], service.token));
    return (issued.body as { result: string }).result;
  }

  /** `key` (set to 'v') reads back with each of `tokens`. */
  async function expectReadable(service: TestService, key: string, tokens: string[]): Promise<void> {
    for (const token of tokens) {
      const read = await service.json(`/get/${key}`, { headers: { authorization: `Bearer ${token}` } });
      expect(read, token).toEqual({ status: 200, body: { result: 'v' } });
    }
  }

  it('keeps random tokens, ACL tokens, ACL users and data', async () => {
    const data = tempDir();
    try {
      const first = await startTestService({ dataDir: data.dir, randomCredentials: true });
      expect(first.token).not.toBe(LOCAL_TOKEN);
      expect(first.readOnlyToken).not.toBe(first.token);
      await first.json('/set/persist:k/v');
      const acl = await aclTokenFor(first, 'keeper');
      await first.stop(true);

      const second = await startTestService({ dataDir: data.dir, randomCredentials: true });
      try {
        expect(second.token).toBe(first.token);
        expect(second.readOnlyToken).toBe(first.readOnlyToken);
        await expectReadable(second, 'persist:k', [second.readOnlyToken, acl]);
      } finally {
        await second.stop(true);
      }

      // Without --random-credentials the well-known tokens apply again; the data is the same.
      const third = await startTestService({ dataDir: data.dir, randomCredentials: false });
      try {
        expect(third.token).toBe(LOCAL_TOKEN);
        expect((await third.json('/get/persist:k')).body).toEqual({ result: 'v' });
        expect(
          (await third.json('/get/persist:k', { headers: { authorization: `Bearer ${first.token}` } }))
            .status,
        ).toBe(401);
      } finally {
        await third.stop(true);
      }
    } finally {
      data.remove();
    }
  });

  it("moves an older stack's kv/credentials.json into the stack's store once, losing no token", async () => {
    const data = tempDir();
    const legacy = path.join(data.dir, 'kv', 'credentials.json');
    try {
      const first = await startTestService({ dataDir: data.dir, randomCredentials: true });
      await first.json('/set/moved:k/v');
      const acl = await aclTokenFor(first, 'mover');
      await first.stop(true);

      // What an older stack left: the same secrets in kv/credentials.json (0600), none in stack.db.
      const db = openDatabase(path.join(data.dir, 'stack.db'), 'full');
      const secrets = JSON.parse(
        (db.prepare('SELECT value FROM settings WHERE key = ?').get(KV_CREDENTIALS_KEY) as { value: string })
          .value,
      ) as Record<string, unknown>;
      db.prepare('DELETE FROM settings WHERE key = ?').run(KV_CREDENTIALS_KEY);
      db.close();
      expect(Object.keys(secrets.aclTokens as object)).toEqual([acl]);
      writeFileSync(legacy, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });

      const second = await startTestService({ dataDir: data.dir, randomCredentials: true });
      try {
        expect(existsSync(legacy)).toBe(false);
        expect(JSON.parse(settingsOfDataDir(data.dir).get(KV_CREDENTIALS_KEY) ?? 'null')).toEqual(secrets);
        expect((statSync(path.join(data.dir, 'stack.db')).mode & 0o777).toString(8)).toBe('600');
        expect(second.token).toBe(first.token);
        expect(second.readOnlyToken).toBe(first.readOnlyToken);
        await expectReadable(second, 'moved:k', [second.token, second.readOnlyToken, acl]);
      } finally {
        await second.stop(true);
      }

      // Moved once: the store alone serves the next start.
      const third = await startTestService({ dataDir: data.dir, randomCredentials: true });
      try {
        expect(third.token).toBe(first.token);
        await expectReadable(third, 'moved:k', [acl]);
      } finally {
        await third.stop(true);
      }
    } finally {
      data.remove();
    }
  });
});
