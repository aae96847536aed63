// The hosted service's documented answers (upstash.com/docs/redis/commands/search/ and its Troubleshooting
// page), command by command through the bridge: CREATE's 1 / 0 / error, REINDEX, which commands take an alias
// and which take only an index name, and what each answers for an index that does not exist.
import { Redis, s } from '@upstash/redis';
import { describe, expect, it } from 'vitest';

import type { CommandReply } from '../test-support';
import { commandAs, useTestService } from '../test-support';

const env = useTestService();

const run = (...args: (string | number)[]): Promise<CommandReply> => commandAs(env.kv, env.kv.token, ...args);
const sdk = (): Redis => new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false });

const definition = [
  'ON',
  'JSON',
  'PREFIX',
  '2',
  'doc:a:',
  'doc:b:',
  'SCHEMA',
  'title',
  'TEXT',
  'n',
  'F64',
  'FAST',
];

describe('SEARCH.CREATE', () => {
  it('answers 1 for a new index, and the SDK takes that answer', async () => {
    expect(await run('SEARCH.CREATE', 'docs', ...definition)).toEqual({ result: 1 });
    const index = await sdk().search.createIndex({
      name: 'via-sdk',
      schema: s.object({ a: s.string() }),
      dataType: 'hash',
      prefix: 'via-sdk:',
    });
    expect(await index.describe()).toMatchObject({ name: 'via-sdk' });
  });

  it('without EXISTSOK refuses a name in use: ERR Index <name> already exists', async () => {
    expect(await run('SEARCH.CREATE', 'docs', ...definition)).toEqual({
      error: 'ERR Index docs already exists',
    });
  });

  it('with EXISTSOK answers 0 for the same definition, however its options and fields are ordered', async () => {
    expect(await run('SEARCH.CREATE', 'docs', 'EXISTSOK', ...definition)).toEqual({ result: 0 });
    expect(
      await run(
        'SEARCH.CREATE',
        'docs',
        'PREFIX',
        '2',
        'doc:b:',
        'doc:a:',
        'ON',
        'json',
        'LANGUAGE',
        'english',
        'EXISTSOK',
        'SCHEMA',
        'n',
        'F64',
        'FAST',
        'title',
        'TEXT',
      ),
    ).toEqual({ result: 0 });
  });

  it('with EXISTSOK still refuses a different definition, and leaves the index as it was', async () => {
    const variants: string[][] = [
      ['ON', 'HASH', 'PREFIX', '2', 'doc:a:', 'doc:b:', 'SCHEMA', 'title', 'TEXT', 'n', 'F64', 'FAST'],
      ['ON', 'JSON', 'PREFIX', '1', 'doc:a:', 'SCHEMA', 'title', 'TEXT', 'n', 'F64', 'FAST'],
      ['ON', 'JSON', 'PREFIX', '2', 'doc:a:', 'doc:b:', 'SCHEMA', 'title', 'TEXT', 'n', 'F64'],
      [
        'ON',
        'JSON',
        'PREFIX',
        '2',
        'doc:a:',
        'doc:b:',
        'SCHEMA',
        'title',
        'TEXT',
        'NOSTEM',
        'n',
        'F64',
        'FAST',
      ],
      ['ON', 'JSON', 'PREFIX', '2', 'doc:a:', 'doc:b:', 'SCHEMA', 'title', 'TEXT'],
      [
        'ON',
        'JSON',
        'PREFIX',
        '2',
        'doc:a:',
        'doc:b:',
        'LANGUAGE',
        'german',
        'SCHEMA',
        'title',
        'TEXT',
        'n',
        'F64',
        'FAST',
      ],
    ];
    for (const variant of variants) {
      expect(await run('SEARCH.CREATE', 'docs', 'EXISTSOK', ...variant), variant.join(' ')).toEqual({
        error: 'ERR Index docs already exists',
      });
    }
    expect((await sdk().search.index({ name: 'docs' }).describe())?.dataType).toBe('json');
  });
});

describe('SEARCH.REINDEX', () => {
  it('answers 1 for an index or an alias of one, 0 for neither, and the index keeps answering', async () => {
    await run('JSON.SET', 'doc:a:1', '$', '{"title":"hello world","n":1}');
    expect(await run('SEARCH.REINDEX', 'docs')).toEqual({ result: 1 });
    expect(await run('SEARCH.ALIASADD', 'docs-alias', 'docs')).toEqual({ result: 1 });
    expect(await run('SEARCH.REINDEX', 'docs-alias')).toEqual({ result: 1 });
    expect(await run('SEARCH.REINDEX', 'no-such-index')).toEqual({ result: 0 });
    // An alias that points to no index: nothing to rebuild.
    expect(await run('SEARCH.ALIASADD', 'dangling', 'never-created')).toEqual({ result: 1 });
    expect(await run('SEARCH.REINDEX', 'dangling')).toEqual({ result: 0 });
    expect(await run('SEARCH.COUNT', 'docs', '{"title":"hello"}')).toEqual({ result: 1 });
  });

  it('finds keys written before an index created with SKIPINITIALSCAN, reindexed or not', async () => {
    await run('HSET', 'skip:1', 'w', 'early');
    expect(
      await run(
        'SEARCH.CREATE',
        'skipped',
        'SKIPINITIALSCAN',
        'ON',
        'HASH',
        'PREFIX',
        '1',
        'skip:',
        'SCHEMA',
        'w',
        'TEXT',
      ),
    ).toEqual({ result: 1 });
    expect(await run('SEARCH.COUNT', 'skipped', '{"w":"early"}')).toEqual({ result: 1 });
    expect(await run('SEARCH.REINDEX', 'skipped')).toEqual({ result: 1 });
    expect(await run('SEARCH.COUNT', 'skipped', '{"w":"early"}')).toEqual({ result: 1 });
  });

  it('takes exactly one name, and is refused to the read-only token as a change to the index', async () => {
    expect((await run('SEARCH.REINDEX')).error).toBe(
      "ERR wrong number of arguments for 'search.reindex' command",
    );
    expect((await run('SEARCH.REINDEX', 'docs', 'extra')).error).toBe(
      "ERR wrong number of arguments for 'search.reindex' command",
    );
    expect((await commandAs(env.kv, env.kv.readOnlyToken, 'SEARCH.REINDEX', 'docs')).error).toBe(
      "NOPERM this token is read-only: 'search.reindex' changes the search indexes",
    );
  });
});

describe('aliases and missing indexes', () => {
  it('resolves an alias in QUERY, COUNT, AGGREGATE, DESCRIBE, WAITINDEXING and REINDEX', async () => {
    expect(await run('SEARCH.ALIASADD', 'current', 'docs')).toEqual({ result: 1 });
    const query = (await run('SEARCH.QUERY', 'current', '{"title":"hello"}', 'NOCONTENT')).result;
    expect(query).toEqual([['doc:a:1', expect.any(String)]]);
    expect(await run('SEARCH.COUNT', 'current', '{}')).toEqual({ result: 1 });
    expect(await run('SEARCH.AGGREGATE', 'current', '{}', '{"s":{"$sum":{"field":"n"}}}')).toEqual({
      result: ['s', ['value', 1]],
    });
    expect(((await run('SEARCH.DESCRIBE', 'current')).result as unknown[]).slice(0, 2)).toEqual([
      'name',
      'docs',
    ]);
    expect(await run('SEARCH.WAITINDEXING', 'current')).toEqual({ result: 1 });
    expect(await run('SEARCH.REINDEX', 'current')).toEqual({ result: 1 });
  });

  it('DROP takes the literal index name: an alias drops nothing, and stays after its index is dropped', async () => {
    expect(
      await run('SEARCH.CREATE', 'old', 'ON', 'HASH', 'PREFIX', '1', 'old:', 'SCHEMA', 'w', 'TEXT'),
    ).toEqual({
      result: 1,
    });
    expect(await run('SEARCH.ALIASADD', 'old-alias', 'old')).toEqual({ result: 1 });
    expect(await run('SEARCH.DROP', 'old-alias')).toEqual({ result: 0 });
    expect(await run('SEARCH.COUNT', 'old-alias', '{}')).toEqual({ result: 0 });
    expect(await run('SEARCH.DROP', 'old')).toEqual({ result: 1 });
    expect(await run('SEARCH.LISTALIASES')).toEqual({
      result: expect.arrayContaining([['old-alias', 'old']]),
    });
    // Through the dangling alias, every command answers as for a missing index.
    expect(await run('SEARCH.COUNT', 'old-alias', '{}')).toEqual({ result: -1 });
  });

  it('answers a missing index as documented: nil, -1 or 0, and ALIASDEL 0 for a missing alias', async () => {
    const missing = 'no-such-index';
    expect(await run('SEARCH.QUERY', missing, '{}')).toEqual({ result: null });
    expect(await run('SEARCH.COUNT', missing, '{}')).toEqual({ result: -1 });
    expect(await run('SEARCH.AGGREGATE', missing, '{}', '{"c":{"$count":{"field":"n"}}}')).toEqual({
      result: null,
    });
    expect(await run('SEARCH.DESCRIBE', missing)).toEqual({ result: null });
    expect(await run('SEARCH.WAITINDEXING', missing)).toEqual({ result: 0 });
    expect(await run('SEARCH.REINDEX', missing)).toEqual({ result: 0 });
    expect(await run('SEARCH.DROP', missing)).toEqual({ result: 0 });
    expect(await run('SEARCH.ALIASDEL', 'no-such-alias')).toEqual({ result: 0 });
    // ALIASADD may name an index that does not exist (1 new, 2 moved, also when it already pointed there).
    expect(await run('SEARCH.ALIASADD', 'later', missing)).toEqual({ result: 1 });
    expect(await run('SEARCH.ALIASADD', 'later', missing)).toEqual({ result: 2 });
  });
});

describe('SEARCH.QUERY bounds', () => {
  it('takes LIMIT 1 to 1000 and OFFSET up to 10000', async () => {
    for (let i = 2; i <= 3; i++) await run('JSON.SET', `doc:b:${i}`, '$', `{"title":"hello","n":${i}}`);
    const keys = async (...options: string[]): Promise<unknown[]> =>
      (
        (await run('SEARCH.QUERY', 'docs', '{}', 'NOCONTENT', 'ORDERBY', 'n', 'ASC', ...options))
          .result as unknown[][]
      ).map((r) => r[0]);
    expect(await keys('LIMIT', '1')).toEqual(['doc:a:1']);
    expect(await keys('LIMIT', '1000')).toEqual(['doc:a:1', 'doc:b:2', 'doc:b:3']);
    expect(await keys('OFFSET', '10000')).toEqual([]);
    expect(await keys('LIMIT', '2', 'OFFSET', '1')).toEqual(['doc:b:2', 'doc:b:3']);
    expect((await run('SEARCH.QUERY', 'docs', '{}', 'LIMIT', '1001')).error).toBe(
      'ERR limit should be a positive number less than 1000',
    );
  });
});
