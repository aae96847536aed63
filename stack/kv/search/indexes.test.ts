// SEARCH.* index management through the bridge: create / describe / drop, aliases, answers for an index that
// does not exist, definitions kept across a restart of the service and never seen as Redis keys, FLUSHALL,
// the read-only token and an ACL user, pipelines (in order) and transactions, and bad input answered with
// clear errors — the service answering normally afterwards.
import { Redis, s } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import { settingsOfDataDir } from '../credentials';
import type { CommandReply, TestService } from '../test-support';
import { SEARCH_CATALOG_KEY } from './catalog';
import { commandAs, startTestService, tempDir, useTestService } from '../test-support';

const env = useTestService();

const sdk = (token = env.kv.token, kv: TestService = env.kv): Redis =>
  new Redis({ url: kv.url, token, enableTelemetry: false });

const run = (...args: (string | number)[]): Promise<CommandReply> => commandAs(env.kv, env.kv.token, ...args);

async function pipeline(
  commands: (string | number)[][],
  path = '/pipeline',
): Promise<{ status: number; body: unknown }> {
  return env.kv.json(path, { method: 'POST', body: JSON.stringify(commands) });
}

describe('create, describe, drop', () => {
  it('describes an index as created: data type, prefixes, language, every field option', async () => {
    const schema = s.object({
      title: s.string(),
      titleExact: s.string().noStem().from('title'),
      sku: s.string().noTokenize(),
      price: s.number('F64'),
      count: s.number('U64'),
      delta: s.number('I64'),
      live: s.boolean().fast(),
      created: s.date().fast(),
      tag: s.keyword(),
      path: s.facet(),
      meta: s.object({ author: s.string().from('metadata.author.displayName') }),
    });
    const index = await sdk().search.createIndex({
      name: 'described',
      schema,
      dataType: 'json',
      prefix: ['described:a:', 'described:b:'],
      language: 'turkish',
    });
    expect(await index.describe()).toEqual({
      name: 'described',
      dataType: 'json',
      prefixes: ['described:a:', 'described:b:'],
      language: 'turkish',
      schema: {
        title: { type: 'TEXT' },
        titleExact: { type: 'TEXT', noStem: true, from: 'title' },
        sku: { type: 'TEXT', noTokenize: true },
        price: { type: 'F64', fast: true },
        count: { type: 'U64', fast: true },
        delta: { type: 'I64', fast: true },
        live: { type: 'BOOL', fast: true },
        created: { type: 'DATE', fast: true },
        tag: { type: 'KEYWORD' },
        path: { type: 'FACET' },
        'meta.author': { type: 'TEXT', from: 'metadata.author.displayName' },
      },
    });
    // The default language is English; hash and string indexes describe their type.
    await sdk().search.createIndex({
      name: 'described-hash',
      schema: { a: 'TEXT' },
      dataType: 'hash',
      prefix: 'dh:',
    });
    expect(await sdk().search.index({ name: 'described-hash' }).describe()).toMatchObject({
      dataType: 'hash',
      language: 'english',
      prefixes: ['dh:'],
    });
  });

  it('refuses a second index of the same name, with EXISTSOK too when it differs; the first stays', async () => {
    const schema = s.object({ a: s.string() });
    await sdk().search.createIndex({ name: 'twice', schema, dataType: 'string', prefix: 'twice:' });
    await expect(
      sdk().search.createIndex({ name: 'twice', schema, dataType: 'hash', prefix: 'other:' }),
    ).rejects.toThrow('ERR Index twice already exists');
    await expect(
      sdk().search.createIndex({ name: 'twice', schema, dataType: 'hash', prefix: 'other:', existsOk: true }),
    ).rejects.toThrow('ERR Index twice already exists');
    // The same definition with EXISTSOK is no error.
    await sdk().search.createIndex({
      name: 'twice',
      schema,
      dataType: 'string',
      prefix: 'twice:',
      existsOk: true,
    });
    expect(await sdk().search.index({ name: 'twice' }).describe()).toMatchObject({
      dataType: 'string',
      prefixes: ['twice:'],
    });
  });

  it('drops an index (1, then 0) and answers for a missing index as the hosted service does', async () => {
    const index = await sdk().search.createIndex({
      name: 'dropped',
      schema: s.object({ a: s.string() }),
      dataType: 'string',
      prefix: 'dropped:',
    });
    await sdk().set('dropped:1', JSON.stringify({ a: 'hello' }));
    expect(await index.count({ filter: { a: 'hello' } })).toEqual({ count: 1 });
    expect(await index.drop()).toBe(1);
    expect(await index.drop()).toBe(0);
    expect(await index.describe()).toBeNull();
    expect(await index.query({ filter: { a: 'hello' } })).toBeNull();
    expect(await index.count({ filter: { a: 'hello' } })).toEqual({ count: -1 });
    expect(await index.waitIndexing()).toBe(0);
    // Its documents are ordinary keys: dropping the index leaves them.
    expect(await sdk().get('dropped:1')).toEqual({ a: 'hello' });
  });
});

describe('aliases', () => {
  it('adds (1), moves (2), lists, resolves and deletes aliases', async () => {
    const schema = s.object({ title: s.string() });
    const v1 = await sdk().search.createIndex({
      name: 'books-v1',
      schema,
      dataType: 'hash',
      prefix: 'books1:',
    });
    await sdk().search.createIndex({ name: 'books-v2', schema, dataType: 'hash', prefix: 'books2:' });
    await sdk().hset('books1:1', { title: 'first edition' });
    await sdk().hset('books2:1', { title: 'second edition' });
    expect(await v1.addAlias({ alias: 'books' })).toBe(1);
    const books = sdk().search.index({ name: 'books' });
    expect((await books.query({ filter: { title: 'edition' } }))!.map((r) => r.key)).toEqual(['books1:1']);
    expect(await books.describe()).toMatchObject({ name: 'books-v1' });
    expect(await sdk().search.alias.add({ indexName: 'books-v2', alias: 'books' })).toBe(2);
    expect((await books.query({ filter: { title: 'edition' } }))!.map((r) => r.key)).toEqual(['books2:1']);
    expect(await books.waitIndexing()).toBe(1);
    // An alias may name an index that does not exist (yet).
    expect(await sdk().search.alias.add({ indexName: 'books-v3', alias: 'later' })).toBe(1);
    expect(await sdk().search.alias.list()).toMatchObject({ books: 'books-v2', later: 'books-v3' });
    expect(await sdk().search.index({ name: 'later' }).describe()).toBeNull();
    expect(await sdk().search.alias.delete({ alias: 'later' })).toBe(1);
    expect(await sdk().search.alias.delete({ alias: 'later' })).toBe(0);
    expect(await sdk().search.alias.list()).not.toHaveProperty('later');
  });
});

describe('where definitions live', () => {
  it('keeps indexes and aliases out of Redis: no key, DBSIZE unchanged, FLUSHALL leaves them', async () => {
    const kv = await startTestService();
    try {
      const redis = sdk(kv.token, kv);
      await redis.flushall();
      const index = await redis.search.createIndex({
        name: 'keyless',
        schema: s.object({ a: s.string() }),
        dataType: 'json',
        prefix: 'keyless:',
      });
      await redis.search.alias.add({ indexName: 'keyless', alias: 'keyless-alias' });
      expect(await redis.dbsize()).toBe(0);
      expect(await redis.scan(0)).toEqual(['0', []]);
      expect(await redis.keys('*')).toEqual([]);
      await redis.json.set('keyless:1', '$', { a: 'kept' });
      expect(await index.count({ filter: { a: 'kept' } })).toEqual({ count: 1 });
      expect(await redis.flushall()).toBe('OK');
      // The definition stays; an index over no keys matches nothing until keys come back.
      expect(await index.describe()).toMatchObject({ name: 'keyless' });
      expect(await index.count({ filter: { a: 'kept' } })).toEqual({ count: 0 });
      await redis.json.set('keyless:2', '$', { a: 'kept' });
      expect((await index.query({ filter: { a: 'kept' } }))!.map((r) => r.key)).toEqual(['keyless:2']);
      expect(await redis.search.alias.list()).toEqual({ 'keyless-alias': 'keyless' });
    } finally {
      await kv.stop();
    }
  });

  it('keeps indexes and aliases across a restart of the service', async () => {
    const data = tempDir();
    try {
      const first = await startTestService({ dataDir: data.dir });
      const schema = s.object({ name: s.string(), n: s.number('U64') });
      await sdk(first.token, first).search.createIndex({
        name: 'lasting',
        schema,
        dataType: 'hash',
        prefix: 'lasting:',
        language: 'german',
      });
      await sdk(first.token, first).search.alias.add({ indexName: 'lasting', alias: 'lasting-alias' });
      await sdk(first.token, first).hset('lasting:1', { name: 'Häuser', n: 3 });
      await first.stop(true);

      const second = await startTestService({ dataDir: data.dir });
      try {
        const redis = sdk(second.token, second);
        expect(await redis.search.index({ name: 'lasting' }).describe()).toEqual({
          name: 'lasting',
          dataType: 'hash',
          prefixes: ['lasting:'],
          language: 'german',
          schema: { name: { type: 'TEXT' }, n: { type: 'U64', fast: true } },
        });
        expect(await redis.search.alias.list()).toEqual({ 'lasting-alias': 'lasting' });
        // German stemming: "Haus" and "Häuser" are one word.
        const found = await redis.search.index({ name: 'lasting-alias' }).query({ filter: { name: 'haus' } });
        expect(found!.map((r) => r.key)).toEqual(['lasting:1']);
      } finally {
        await second.stop(true);
      }
    } finally {
      data.remove();
    }
  });
});

describe('an unreadable catalog', () => {
  it('stops the service with a message that says which row to delete, rather than losing the indexes', async () => {
    const data = tempDir();
    try {
      const first = await startTestService({ dataDir: data.dir });
      await first.stop(true);
      settingsOfDataDir(data.dir).set(SEARCH_CATALOG_KEY, '{"version":1,"indexes":[');
      await expect(startTestService({ dataDir: data.dir })).rejects.toThrow(
        /^the search indexes in the stack's store \(settings 'kv\.search'\) are unreadable \(.*\); delete that row to start without indexes$/,
      );
    } finally {
      data.remove();
    }
  });
});

describe('prefixes', () => {
  it('takes glob characters in a prefix literally', async () => {
    expect(
      await run(
        'SEARCH.CREATE',
        'globbed',
        'ON',
        'HASH',
        'PREFIX',
        '2',
        'g[1]*?\\:',
        'h*:',
        'SCHEMA',
        'w',
        'TEXT',
      ),
    ).toEqual({ result: 1 });
    await run('HSET', 'g[1]*?\\:a', 'w', 'hit');
    await run('HSET', 'h*:x1', 'w', 'hit');
    // Each of these matches a prefix read as a pattern (g1…:, h…:), none starts with it.
    await run('HSET', 'g1z\\:b', 'w', 'hit');
    await run('HSET', 'g1zz:c', 'w', 'hit');
    await run('HSET', 'hzz:d', 'w', 'hit');
    const reply = await run('SEARCH.QUERY', 'globbed', '{"w":"hit"}', 'NOCONTENT');
    expect((reply.result as string[][]).map(([key]) => key)).toEqual(['g[1]*?\\:a', 'h*:x1']);
  });
});

describe('tokens', () => {
  it('lets the read-only token query, count and describe, and refuses it every change', async () => {
    const schema = s.object({ a: s.string() });
    await sdk().search.createIndex({ name: 'guarded', schema, dataType: 'string', prefix: 'guarded:' });
    await sdk().set('guarded:1', JSON.stringify({ a: 'visible' }));
    const readOnly = sdk(env.kv.readOnlyToken);
    const index = readOnly.search.index({ name: 'guarded' });
    expect((await index.query({ filter: { a: 'visible' } }))!.map((r) => r.key)).toEqual(['guarded:1']);
    expect(await index.count({ filter: { a: 'visible' } })).toEqual({ count: 1 });
    expect(await index.describe()).toMatchObject({ name: 'guarded' });
    expect(await index.waitIndexing()).toBe(1);
    expect(await readOnly.search.alias.list()).toBeDefined();
    const refused = /^NOPERM this token is read-only: 'search\.\w+' changes the search indexes, command was/;
    await expect(
      readOnly.search.createIndex({ name: 'guarded-2', schema, dataType: 'string', prefix: 'g2:' }),
    ).rejects.toThrow(refused);
    await expect(index.drop()).rejects.toThrow(refused);
    await expect(index.addAlias({ alias: 'guarded-alias' })).rejects.toThrow(refused);
    await expect(readOnly.search.alias.delete({ alias: 'guarded-alias' })).rejects.toThrow(refused);
    expect(await sdk().search.index({ name: 'guarded' }).describe()).toMatchObject({ name: 'guarded' });
    expect(await sdk().search.index({ name: 'guarded-2' }).describe()).toBeNull();
  });

  it("reads documents as the token's ACL user: a user who may not read them gets Redis's refusal", async () => {
    await sdk().search.createIndex({
      name: 'acl',
      schema: s.object({ a: s.string() }),
      dataType: 'hash',
      prefix: 'acl:',
    });
    await sdk().hset('acl:1', { a: 'secret' });
    expect(await run('ACL', 'SETUSER', 'searcher', 'on', '>searcher-pw', '~*', '+@all', '-hgetall')).toEqual({
      result: 'OK',
    });
    const issued = (await run('ACL', 'RESTTOKEN', 'searcher', 'searcher-pw')).result as string;
    const reply = await commandAs(env.kv, issued, 'SEARCH.QUERY', 'acl', '{"a":"secret"}');
    expect(reply.error).toMatch(/^NOPERM .*'hgetall'/);
    // The same user may count nothing it cannot read either; the admin token reads it.
    expect((await commandAs(env.kv, issued, 'SEARCH.COUNT', 'acl', '{}')).error).toMatch(/^NOPERM/);
    expect(await run('SEARCH.COUNT', 'acl', '{}')).toEqual({ result: 1 });
  });
});

describe("an ACL user's token changes only indexes over keys it may write", () => {
  it('creates, aliases and drops under its own key pattern; is refused elsewhere, and a read-only user everywhere', async () => {
    const acl = async (user: string, ...rules: string[]): Promise<string> => {
      expect(await run('ACL', 'SETUSER', user, 'reset', 'on', `>${user}-pw`, ...rules)).toEqual({
        result: 'OK',
      });
      return (await run('ACL', 'RESTTOKEN', user, `${user}-pw`)).result as string;
    };
    const writer = await acl('cache-writer', '~cache:*', '+@all');
    const reader = await acl('cache-reader', '~*', '+@read');
    const create = (token: string, name: string, prefix: string) =>
      commandAs(
        env.kv,
        token,
        'SEARCH.CREATE',
        name,
        'ON',
        'HASH',
        'PREFIX',
        '1',
        prefix,
        'SCHEMA',
        'a',
        'TEXT',
      );

    // Its own keys: create, alias, query, reindex, drop.
    expect(await create(writer, 'acl-own', 'cache:')).toEqual({ result: 1 });
    expect(await commandAs(env.kv, writer, 'SEARCH.ALIASADD', 'acl-own-alias', 'acl-own')).toEqual({
      result: 1,
    });
    expect(await commandAs(env.kv, writer, 'SEARCH.COUNT', 'acl-own-alias', '{}')).toEqual({ result: 0 });
    expect(await commandAs(env.kv, writer, 'SEARCH.REINDEX', 'acl-own')).toEqual({ result: 1 });

    // Keys outside its pattern: refused, and nothing changed.
    const refused =
      /^NOPERM user 'cache-writer' may not write the keys under 'other:' \(.*\): 'search\.create' changes the search indexes$/;
    expect((await create(writer, 'acl-other', 'other:')).error).toMatch(refused);
    expect(await run('SEARCH.DESCRIBE', 'acl-other')).toEqual({ result: null });
    // An index over several prefixes needs every one of them.
    const both = await commandAs(
      env.kv,
      writer,
      'SEARCH.CREATE',
      'acl-both',
      'ON',
      'HASH',
      'PREFIX',
      '2',
      'cache:',
      'other:',
      'SCHEMA',
      'a',
      'TEXT',
    );
    expect(both.error).toMatch(/may not write the keys under 'other:'/);
    // Another's index: not its to drop or alias.
    expect(await create(env.kv.token, 'acl-admins', 'other:')).toEqual({ result: 1 });
    expect((await commandAs(env.kv, writer, 'SEARCH.DROP', 'acl-admins')).error).toMatch(
      /^NOPERM .*'search\.drop'/,
    );
    expect((await commandAs(env.kv, writer, 'SEARCH.ALIASADD', 'acl-x', 'acl-admins')).error).toMatch(
      /^NOPERM/,
    );
    // …nor may it move its alias away from an index it may not change.
    expect(await run('SEARCH.ALIASADD', 'acl-theirs', 'acl-admins')).toEqual({ result: 1 });
    expect((await commandAs(env.kv, writer, 'SEARCH.ALIASADD', 'acl-theirs', 'acl-own')).error).toMatch(
      /^NOPERM/,
    );
    expect((await commandAs(env.kv, writer, 'SEARCH.ALIASDEL', 'acl-theirs')).error).toMatch(/^NOPERM/);
    expect(await run('SEARCH.DESCRIBE', 'acl-theirs')).toMatchObject({ result: expect.anything() });

    // A user who may only read changes nothing, but may query.
    for (const [command, ...rest] of [
      ['SEARCH.CREATE', 'acl-r', 'ON', 'HASH', 'PREFIX', '1', 'cache:', 'SCHEMA', 'a', 'TEXT'],
      ['SEARCH.DROP', 'acl-own'],
      ['SEARCH.ALIASDEL', 'acl-own-alias'],
    ]) {
      expect((await commandAs(env.kv, reader, command!, ...rest)).error).toMatch(
        /^NOPERM user 'cache-reader' may not write/,
      );
    }
    expect(await commandAs(env.kv, reader, 'SEARCH.COUNT', 'acl-own', '{}')).toEqual({ result: 0 });

    // Its own index, dropped by it; the standard token may change any.
    expect(await commandAs(env.kv, writer, 'SEARCH.DROP', 'acl-own')).toEqual({ result: 1 });
    expect(await run('SEARCH.DROP', 'acl-admins')).toEqual({ result: 1 });
  });
});

describe('pipelines and transactions', () => {
  it('answers SEARCH commands in their place in a pipeline, after the writes before them', async () => {
    await run('SEARCH.CREATE', 'piped', 'ON', 'JSON', 'PREFIX', '1', 'piped:', 'SCHEMA', 'word', 'TEXT');
    const res = await pipeline([
      ['JSON.SET', 'piped:1', '$', '{"word":"alpha"}'],
      ['SEARCH.COUNT', 'piped', '{"word":"alpha"}'],
      ['JSON.SET', 'piped:2', '$', '{"word":"alpha beta"}'],
      ['SEARCH.QUERY', 'piped', '{"word":"alpha"}', 'NOCONTENT'],
      ['DEL', 'piped:1'],
      ['SEARCH.COUNT', 'piped', '{"word":"alpha"}'],
      ['SEARCH.COUNT', 'piped', '{"nope":"alpha"}'],
      ['GET', 'missing'],
    ]);
    expect(res.status).toBe(200);
    const body = res.body as CommandReply[];
    expect(body.map((entry) => ('result' in entry ? entry.result : entry.error))).toEqual([
      'OK',
      1,
      'OK',
      [
        ['piped:1', expect.any(String)],
        ['piped:2', expect.any(String)],
      ],
      1,
      1,
      expect.stringMatching(/^ERR unknown field 'nope'/),
      null,
    ]);
  });

  it('refuses SEARCH commands inside a transaction, running none of it', async () => {
    const res = await pipeline(
      [
        ['SET', 'tx:search', '1'],
        ['SEARCH.COUNT', 'piped', '{}'],
      ],
      '/multi-exec',
    );
    expect(res).toEqual({
      status: 400,
      body: {
        error:
          "ERR 'search.count' is not supported inside a transaction (the local stack emulates SEARCH.* outside Redis): send it on its own or in a pipeline",
      },
    });
    expect(await run('GET', 'tx:search')).toEqual({ result: null });
  });
});

describe('reply forms and limits', () => {
  it('answers SEARCH replies as RESP2 bytes when asked', async () => {
    await run('SEARCH.CREATE', 'resp2', 'ON', 'HASH', 'PREFIX', '1', 'resp2:', 'SCHEMA', 'w', 'TEXT');
    await run('HSET', 'resp2:1', 'w', 'word');
    const res = await env.kv.call('/pipeline', {
      method: 'POST',
      body: JSON.stringify([
        ['SEARCH.COUNT', 'resp2', '{"w":"word"}'],
        ['SEARCH.QUERY', 'resp2', '{"w":"word"}', 'SELECT', '1', 'w'],
        ['SEARCH.DESCRIBE', 'nope'],
        ['SEARCH.COUNT', 'resp2', '{"x":1}'],
      ]),
      headers: { 'upstash-response-format': 'resp2' },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.startsWith(':1\r\n*1\r\n*3\r\n$7\r\nresp2:1\r\n$')).toBe(true);
    expect(
      text.endsWith(
        "*1\r\n*2\r\n$1\r\nw\r\n$4\r\nword\r\n$-1\r\n-ERR unknown field 'x' in the filter (index 'resp2' has: w)\r\n",
      ),
    ).toBe(true);
  });

  it('counts a SEARCH command against the daily limit once, not the reads it makes', async () => {
    const limited = await startTestService({ dailyRequestLimit: 4 });
    try {
      const as = (...args: string[]) => commandAs(limited, limited.token, ...args);
      expect(
        await as('SEARCH.CREATE', 'q', 'ON', 'HASH', 'PREFIX', '1', 'q:', 'SCHEMA', 'w', 'TEXT'),
      ).toEqual({
        result: 1,
      });
      expect(await as('HSET', 'q:1', 'w', 'one')).toEqual({ result: 1 });
      // Its SCAN and HGETALL would be the 4th and 5th commands of the day if they counted.
      expect(await as('SEARCH.COUNT', 'q', '{"w":"one"}')).toEqual({ result: 1 });
      expect(await as('SEARCH.COUNT', 'q', '{"w":"one"}')).toEqual({ result: 1 });
      expect(await as('SEARCH.COUNT', 'q', '{"w":"one"}')).toEqual({
        error: 'ERR max daily request limit exceeded',
      });
    } finally {
      await limited.stop();
    }
  });
});

describe('bad input', () => {
  const create = (...args: string[]) => run('SEARCH.CREATE', ...args);

  it('answers a bad SEARCH.CREATE with a clear error and creates nothing', async () => {
    const cases: [string[], RegExp][] = [
      [['bad', 'ON', 'XML', 'PREFIX', '1', 'b:', 'SCHEMA', 'a', 'TEXT'], /unknown data type 'XML'/],
      [['bad', 'ON', 'HASH', 'SCHEMA', 'a', 'TEXT'], /PREFIX is required/],
      [['bad', 'PREFIX', '1', 'b:', 'SCHEMA', 'a', 'TEXT'], /ON HASH\|JSON\|STRING is required/],
      [
        ['bad', 'ON', 'HASH', 'PREFIX', '1', 'b:', 'SCHEMA', 'a', 'VECTOR'],
        /field 'a' has an unknown type 'VECTOR'/,
      ],
      [
        ['bad', 'ON', 'HASH', 'PREFIX', '1', 'b:', 'SCHEMA', 'a', 'U64', 'NOSTEM'],
        /NOSTEM applies to TEXT fields only/,
      ],
      [
        ['bad', 'ON', 'HASH', 'PREFIX', '1', 'b:', 'LANGUAGE', 'klingon', 'SCHEMA', 'a', 'TEXT'],
        /unsupported language 'klingon'/,
      ],
      [['bad', 'ON', 'HASH', 'PREFIX', '1', 'b:', 'SCHEMA'], /SCHEMA needs at least one field/],
      [
        ['bad', 'ON', 'HASH', 'PREFIX', '1', 'b:', 'SCHEMA', 'a', 'TEXT', 'a', 'U64'],
        /field 'a' is defined twice/,
      ],
      [['bad', 'ON', 'HASH', 'PREFIX', '2', 'b:'], /PREFIX 2 needs a value/],
      [['bad', 'SORTABLE', 'ON', 'HASH'], /unknown option 'SORTABLE'/],
      [
        ['bad', 'ON', 'HASH', 'PREFIX', '1', 'b:', 'SCHEMA', 'a', 'KEYWORD', 'FAST'],
        /FAST applies to U64, I64, F64, BOOL and DATE fields only \(field 'a' is KEYWORD\)/,
      ],
      [
        ['bad', 'ON', 'HASH', 'PREFIX', '1', 'b:', 'SCHEMA', 'a', 'TEXT', 'FAST'],
        /FAST applies to U64, I64, F64, BOOL and DATE fields only \(field 'a' is TEXT\)/,
      ],
      [['bad', 'ON', 'HASH', 'PREFIX', '2', 'b:', 'b:', 'SCHEMA', 'a', 'TEXT'], /prefix 'b:' is given twice/],
      [
        ['bad', 'ON', 'HASH', 'PREFIX', '2', 'b:x', 'b:', 'SCHEMA', 'a', 'TEXT'],
        /prefixes 'b:x' and 'b:' overlap/,
      ],
    ];
    for (const [args, error] of cases) {
      const reply = await create(...args);
      expect(reply.error, args.join(' ')).toMatch(error);
      expect(reply.error, args.join(' ')).toMatch(/^ERR /);
    }
    expect(await run('SEARCH.DESCRIBE', 'bad')).toEqual({ result: null });
    expect((await run('SEARCH.CREATE')).error).toBe(
      "ERR wrong number of arguments for 'search.create' command",
    );
    expect((await run('SEARCH.NOSUCH', 'x')).error).toBe("ERR unknown command 'SEARCH.NOSUCH'");
  });

  it('answers a bad filter or option with a clear error, and the service goes on', async () => {
    await create(
      'strict',
      'ON',
      'HASH',
      'PREFIX',
      '1',
      'strict:',
      'SCHEMA',
      'name',
      'TEXT',
      'n',
      'F64',
      'FAST',
      'slow',
      'U64',
      'when',
      'DATE',
      'FAST',
      'ok',
      'BOOL',
      'tag',
      'KEYWORD',
    );
    await run('HSET', 'strict:1', 'name', 'some name', 'n', '3', 'ok', 'true', 'tag', 'x');
    const query = (...args: string[]) => run('SEARCH.QUERY', 'strict', ...args);
    const cases: [string[], string | RegExp][] = [
      [['{"name":'], /^ERR the filter is not valid JSON: /],
      [['[1,2]'], 'ERR the filter must be a JSON object, got [1,2]'],
      [
        ['{"nope":"x"}'],
        "ERR unknown field 'nope' in the filter (index 'strict' has: name, n, slow, when, ok, tag)",
      ],
      [['{"n":{"$gt":"three"}}'], 'ERR $gt on field \'n\' (F64) needs a number, got "three"'],
      [['{"ok":{"$eq":"yes"}}'], 'ERR $eq on field \'ok\' (BOOL) needs true or false, got "yes"'],
      [['{"n":{"$fuzzy":"x"}}'], /^ERR operator '\$fuzzy' is not supported for field 'n' of type F64/],
      [['{"name":{"$near":"x"}}'], 'ERR Unknown field operator: $near'],
      [['{"name":{"$not":"x"}}'], 'ERR Unknown field operator: $not'],
      [['{"n":{"$regex":"x"}}'], /^ERR operator '\$regex' is not supported for field 'n' of type F64/],
      [['{"$xor":[]}'], /^ERR unknown operator '\$xor' in the filter/],
      [['{"$and":[1]}'], 'ERR $and takes a filter object or an array of them, got 1'],
      [['{"name":{"$regex":"("}}'], /^ERR invalid \$regex pattern "\(" on field 'name': /],
      [
        ['{"name":{"$fuzzy":{"value":"x","distance":3}}}'],
        /^ERR \$fuzzy.distance on field 'name' \(TEXT\) needs a whole number from 0 to 2, got 3/,
      ],
      [['{"name":{"$eq":"x","$boost":"high"}}'], `ERR $boost in field 'name' must be a number, got "high"`],
      [['{}', 'LIMIT', '-1'], 'ERR limit should be a positive number less than 1000'],
      [['{}', 'LIMIT', '0'], 'ERR limit should be a positive number less than 1000'],
      [['{}', 'LIMIT', '1001'], 'ERR limit should be a positive number less than 1000'],
      [['{}', 'LIMIT', '20', '10'], /^ERR SEARCH.QUERY: unknown option '10'/],
      [['{}', 'OFFSET', '10001'], 'ERR SEARCH.QUERY: OFFSET must be at most 10000, got 10001'],
      [['{}', 'SORTBY', 'n'], /^ERR SEARCH.QUERY: unknown option 'SORTBY'/],
      [
        ['{}', 'ORDERBY', 'name', 'ASC'],
        "ERR SEARCH.QUERY: ORDERBY needs a FAST field; 'name' (TEXT) is not FAST",
      ],
      [['{}', 'ORDERBY', 'tag'], "ERR SEARCH.QUERY: ORDERBY needs a FAST field; 'tag' (KEYWORD) is not FAST"],
      [
        ['{}', 'ORDERBY', 'slow', 'ASC'],
        "ERR SEARCH.QUERY: ORDERBY needs a FAST field; 'slow' (U64) is not FAST",
      ],
      [['{}', 'ORDERBY', 'n', 'UP'], /^ERR SEARCH.QUERY: unknown option 'UP'/],
      [['{}', 'NOCONTENT', 'SELECT', '1', 'n'], 'ERR SEARCH.QUERY: NOCONTENT cannot be used with SELECT'],
      [
        ['{}', 'HIGHLIGHT', 'FIELDS', '1', 'name', 'NOCONTENT'],
        'ERR SEARCH.QUERY: NOCONTENT cannot be used with HIGHLIGHT',
      ],
      [
        ['{}', 'SCOREFUNC', 'FIELDVALUE', 'when'],
        "ERR SEARCH.QUERY: SCOREFUNC FIELDVALUE needs a U64, I64 or F64 field; 'when' is DATE",
      ],
      [
        ['{}', 'SCOREFUNC', 'FIELDVALUE', 'slow'],
        "ERR SEARCH.QUERY: SCOREFUNC FIELDVALUE needs a FAST field; 'slow' is not FAST",
      ],
      [['{}', 'ORDERBY', 'missing', 'ASC'], "ERR SEARCH.QUERY: ORDERBY names unknown field 'missing'"],
      [
        ['{}', 'SCOREFUNC', 'FIELDVALUE', 'name'],
        /^ERR SEARCH.QUERY: SCOREFUNC FIELDVALUE needs a U64, I64 or F64 field; 'name' is TEXT/,
      ],
      [
        ['{}', 'SCOREFUNC', 'FIELDVALUE', 'n', 'MODIFIER', 'CUBE'],
        /^ERR SEARCH.QUERY: SCOREFUNC MODIFIER must be one of/,
      ],
      [
        ['{}', 'SCOREFUNC', 'FIELDVALUE', 'n', 'ORDERBY', 'n', 'ASC'],
        'ERR SEARCH.QUERY: SCOREFUNC and ORDERBY cannot be used together',
      ],
      [['{}', 'HIGHLIGHT', 'FIELDS', '1', 'nope'], "ERR SEARCH.QUERY: HIGHLIGHT names unknown field 'nope'"],
    ];
    for (const [args, error] of cases) {
      const reply = await query(...args);
      expect(reply.result, args.join(' ')).toBeUndefined();
      if (typeof error === 'string') expect(reply.error, args.join(' ')).toBe(error);
      else expect(reply.error, args.join(' ')).toMatch(error);
    }
    expect((await run('SEARCH.COUNT', 'strict', '{"n":{"$lt":[]}}')).error).toBe(
      "ERR $lt on field 'n' (F64) needs a number, got []",
    );
    const deep = '{"$and":['.repeat(100) + '{"n":3}' + ']}'.repeat(100);
    expect((await run('SEARCH.COUNT', 'strict', deep)).error).toBe(
      'ERR the filter nests $and/$or/$must/$should/$mustNot deeper than 64 levels',
    );
    const deepButAllowed = '{"$and":['.repeat(60) + '{"n":3}' + ']}'.repeat(60);
    expect(await run('SEARCH.COUNT', 'strict', deepButAllowed)).toEqual({ result: 1 });
    expect((await run('SEARCH.COUNT', 'strict', '{}', 'LIMIT', '1')).error).toBe(
      "ERR wrong number of arguments for 'search.count' command",
    );
    // Still serving, and the good query answers.
    expect(await run('SEARCH.COUNT', 'strict', '{"n":{"$gte":3},"ok":true,"tag":"x"}')).toEqual({
      result: 1,
    });
  });
});
