// The Search tab's reply reading and command building in main, on the reply shapes the vendor's SDK reads
// (packages/redis/pkg/commands/search/utils.ts): what the real service sends is covered by search.test.ts
// against the local stack; these are the shapes it may send that the stack does not (JSON text of a whole
// document, a count as text, no aliases as 0), and replies the console must refuse with words, not a crash.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { procedures } from '../../../../shared/bridge/procedures';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import {
  compactAggregations,
  parseAggregate,
  parseAliases,
  parseCount,
  parseDescribe,
  parseIndexList,
  parseRows,
  queryArgs,
} from './search';
import { KV_SEARCH_RECENT_LIMIT, KvSearchStore } from './search-store';

describe('SEARCH.DESCRIBE', () => {
  it('reads the flat definition, field options and FROM included', () => {
    expect(
      parseDescribe([
        'name',
        'products',
        'type',
        'JSON',
        'prefixes',
        ['product:', 'item:'],
        'language',
        'english',
        'schema',
        [
          ['name', 'TEXT', 'NOSTEM'],
          ['price', 'F64', 'FAST'],
          ['sku', 'KEYWORD', 'NOTOKENIZE', 'FROM', 'meta.sku', 'FAST'],
        ],
        'somethingNewer',
        42,
      ]),
    ).toEqual({
      name: 'products',
      dataType: 'json',
      prefixes: ['product:', 'item:'],
      language: 'english',
      fields: [
        { name: 'name', type: 'TEXT', fast: false, noTokenize: false, noStem: true },
        { name: 'price', type: 'F64', fast: true, noTokenize: false, noStem: false },
        { name: 'sku', type: 'KEYWORD', fast: true, noTokenize: true, noStem: false, from: 'meta.sku' },
      ],
    });
  });

  it('answers null for a missing index and refuses a shape it cannot read', () => {
    expect(parseDescribe(null)).toBeNull();
    expect(() => parseDescribe('OK')).toThrow(
      /SEARCH.DESCRIBE answered in a shape the console does not read: "OK"/,
    );
    expect(() => parseDescribe(['name', 'x', 'schema', 'oops'])).toThrow(/does not read/);
  });
});

describe('SEARCH.QUERY', () => {
  it('reads key, score and fields; keys only has no fields', () => {
    expect(
      parseRows([
        [
          'product:1',
          '1.5',
          [
            ['name', 'Laptop'],
            ['price', 999],
          ],
        ],
        ['product:2', 0],
      ]),
    ).toEqual([
      {
        key: 'product:1',
        score: 1.5,
        fields: [
          ['name', 'Laptop'],
          ['price', 999],
        ],
      },
      { key: 'product:2', score: 0, fields: [] },
    ]);
    expect(parseRows([])).toEqual([]);
  });

  it('spreads a whole JSON document ($, as text or as data) into dotted fields', () => {
    const doc = { name: 'Laptop', meta: { brand: 'Acme', tags: ['a', 'b'] }, stock: null };
    const expected = [
      ['name', 'Laptop'],
      ['meta.brand', 'Acme'],
      ['meta.tags', ['a', 'b']],
      ['stock', null],
    ];
    expect(parseRows([['p:1', 1, [['$', JSON.stringify(doc)]]]])[0]!.fields).toEqual(expected);
    expect(parseRows([['p:1', 1, [['$', doc]]]])[0]!.fields).toEqual(expected);
    // Not a document: kept as it came.
    expect(parseRows([['s:1', 1, [['$', 'plain text']]]])[0]!.fields).toEqual([['$', 'plain text']]);
  });

  it('refuses a reply that is not a list of rows', () => {
    expect(() => parseRows({ key: 'x' })).toThrow(/SEARCH.QUERY answered in a shape/);
    expect(() => parseRows([['only-a-key']])).toThrow(/SEARCH.QUERY answered in a shape/);
    expect(() => parseRows([['k', 1, [['field-without-value']]]])).toThrow(/SEARCH.QUERY answered/);
  });
});

describe('SEARCH.COUNT and SEARCH.LISTALIASES', () => {
  it('reads a count as a number or text, -1 included', () => {
    expect(parseCount(3)).toBe(3);
    expect(parseCount('12')).toBe(12);
    expect(parseCount(-1)).toBe(-1);
    expect(() => parseCount(['3'])).toThrow(/SEARCH.COUNT answered/);
  });

  it('reads alias pairs sorted by alias; none as an empty list or 0', () => {
    expect(
      parseAliases([
        ['products', 'products-v2'],
        ['items', 'products-v1'],
      ]),
    ).toEqual([
      { alias: 'items', index: 'products-v1' },
      { alias: 'products', index: 'products-v2' },
    ]);
    expect(parseAliases([])).toEqual([]);
    expect(parseAliases(0)).toEqual([]);
    expect(() => parseAliases('x')).toThrow(/SEARCH.LISTALIASES answered/);
  });
});

describe('SEARCH.LISTINDEXES', () => {
  it('reads each index as alternating keys and values (or a map), in the service order', () => {
    expect(
      parseIndexList([
        ['name', 'books', 'type', 'JSON'],
        ['name', 'products', 'type', 'hash', 'somethingNewer', 1],
        { name: 'users', type: 'STRING' },
      ]),
    ).toEqual([
      { name: 'books', dataType: 'JSON' },
      { name: 'products', dataType: 'HASH' },
      { name: 'users', dataType: 'STRING' },
    ]);
    expect(parseIndexList([])).toEqual([]);
    expect(parseIndexList(null)).toEqual([]);
    expect(parseIndexList([['name', 'x']])).toEqual([{ name: 'x', dataType: '' }]);
  });

  it.each([['x'], [['books']], [[['type', 'HASH']]], [[['name', 7, 'type', 'HASH']]]])(
    'refuses %j with words',
    (raw) => {
      expect(() => parseIndexList(raw)).toThrow(/SEARCH.LISTINDEXES answered in a shape/);
    },
  );
});

describe('SEARCH.AGGREGATE', () => {
  it('reads metrics, buckets with nested values and percentiles, numbers from text, keys kept as text', () => {
    const result = parseAggregate([
      'avg_price',
      ['value', '514.99'],
      'stats',
      ['count', 3, 'min', '29.99', 'max', '999.99', 'sum', '1279.97', 'avg', '426.6566666666667'],
      'by_category',
      [
        'buckets',
        [
          ['key', 'electronics', 'docCount', 2, 'avg', ['value', '514.99']],
          ['key', '007', 'docCount', 1, 'avg', ['value', 249]],
        ],
        'sumOtherDocCount',
        0,
      ],
      'pct',
      ['values', [['key', 50, 'value', '249.99']]],
      'empty',
      ['buckets', [], 'sumOtherDocCount', 0],
    ]);
    expect(result.aggregations.map(([name]) => name)).toEqual([
      'avg_price',
      'stats',
      'by_category',
      'pct',
      'empty',
    ]);
    expect(result.aggregations[0]![1]).toEqual({
      kind: 'object',
      entries: [['value', { kind: 'value', value: 514.99 }]],
    });
    const buckets = result.aggregations[2]![1];
    expect(buckets).toEqual({
      kind: 'object',
      entries: [
        [
          'buckets',
          {
            kind: 'list',
            items: [
              {
                kind: 'object',
                entries: [
                  ['key', { kind: 'value', value: 'electronics' }],
                  ['docCount', { kind: 'value', value: 2 }],
                  ['avg', { kind: 'object', entries: [['value', { kind: 'value', value: 514.99 }]] }],
                ],
              },
              {
                kind: 'object',
                entries: [
                  ['key', { kind: 'value', value: '007' }],
                  ['docCount', { kind: 'value', value: 1 }],
                  ['avg', { kind: 'object', entries: [['value', { kind: 'value', value: 249 }]] }],
                ],
              },
            ],
          },
        ],
        ['sumOtherDocCount', { kind: 'value', value: 0 }],
      ],
    });
    expect(result.aggregations[3]![1]).toEqual({
      kind: 'object',
      entries: [
        [
          'values',
          {
            kind: 'list',
            items: [
              {
                kind: 'object',
                entries: [
                  ['key', { kind: 'value', value: 50 }],
                  ['value', { kind: 'value', value: 249.99 }],
                ],
              },
            ],
          },
        ],
      ],
    });
    expect(result.aggregations[4]![1]).toEqual({
      kind: 'object',
      entries: [
        ['buckets', { kind: 'list', items: [] }],
        ['sumOtherDocCount', { kind: 'value', value: 0 }],
      ],
    });
    expect(parseAggregate(null)).toEqual({ aggregations: [] });
  });

  it.each([['x'], [[1, 2]], [['a']], [{ a: 1 }]])('refuses %j with words', (raw) => {
    expect(() => parseAggregate(raw)).toThrow(/SEARCH.AGGREGATE answered in a shape/);
  });

  it('refuses a reply nested past what main reads', () => {
    let deep: unknown = ['value', 1];
    for (let i = 0; i < 80; i += 1) deep = ['a', deep];
    expect(() => parseAggregate(['x', deep])).toThrow(/SEARCH.AGGREGATE answered in a shape/);
  });

  const input = (raw: object) =>
    procedures['kv.search.aggregate'].input.safeParse({
      profileId: 'p',
      index: 'products',
      filter: '{}',
      ...raw,
    });

  it('sends the aggregations compactly, after the grammar accepted them', () => {
    expect(compactAggregations('{\n  "a": { "$avg": { "field": "price" } }\n}')).toBe(
      '{"a":{"$avg":{"field":"price"}}}',
    );
    expect(() => compactAggregations('{"a": 1}')).toThrow(/Aggregation "a" is an object/);
    expect(input({ aggregations: '{"a": {"$avg": {"field": "price"}}}' }).success).toBe(true);
  });

  it.each([
    [{ aggregations: '{"a": ' }, 'aggregations', /^Not valid JSON/],
    [{ aggregations: '[]' }, 'aggregations', /^Aggregations are a JSON object/],
    [{ aggregations: `{"a": {"$avg": {"field": "${'x'.repeat(17_000)}"}}}` }, 'aggregations', /16 KB/],
    [{ aggregations: '{"a": {"$avg": {"field": "p"}}}', filter: '{"x": ' }, 'filter', /^Not valid JSON/],
    [{ aggregations: '{"a": {"$avg": {"field": "p"}}}', index: 'a b' }, 'index', /no spaces/],
    [{ aggregations: '{"a": {"$avg": {"field": "p"}}}', command: ['FLUSHALL'] }, '', /Unrecognized key/],
  ])('refuses %j before anything is sent', (raw, path, message) => {
    const result = input(raw);
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path.join('.')).toBe(path);
    expect(issue.message).toMatch(message);
  });
});

describe('the query command', () => {
  const input = (raw: object) => procedures['kv.search.query'].input.parse({ profileId: 'p', ...raw });

  it('is built in the SDK argument order from the checked input, the filter written compactly', () => {
    const parsed = input({
      index: 'products',
      filter: '{\n  "name": { "$eq": "laptop" }\n}',
      limit: 5,
      orderBy: { field: 'price', direction: 'desc' },
      select: ['name', 'price'],
    });
    expect(queryArgs(parsed, 10)).toEqual([
      'SEARCH.QUERY',
      'products',
      '{"name":{"$eq":"laptop"}}',
      'LIMIT',
      '5',
      'OFFSET',
      '10',
      'ORDERBY',
      'price',
      'DESC',
      'SELECT',
      '2',
      'name',
      'price',
    ]);
    expect(queryArgs(input({ index: 'p', filter: '{}', keysOnly: true }), 0)).toEqual([
      'SEARCH.QUERY',
      'p',
      '{}',
      'LIMIT',
      '20',
      'NOCONTENT',
    ]);
  });

  it.each([
    [{ index: 'two words', filter: '{}' }, 'index', 'an index name has no spaces or control characters'],
    [{ index: 'p', filter: '{"a": ' }, 'filter', /^Not valid JSON/],
    [{ index: 'p', filter: '[]' }, 'filter', /^A filter is a JSON object/],
    [{ index: 'p', filter: '{}', limit: 0 }, 'limit', 'a limit is at least 1'],
    [{ index: 'p', filter: '{}', limit: 1001 }, 'limit', 'a limit is at most 1000'],
    [{ index: 'p', filter: '{}', cursor: '-1' }, 'cursor', 'a cursor is an offset'],
    [{ index: 'p', filter: '{}', cursor: '10001' }, 'cursor', 'an offset is at most 10000'],
    [{ index: 'p', filter: '{}', orderBy: { field: 'a b', direction: 'asc' } }, 'orderBy.field', /no spaces/],
    [{ index: 'p', filter: '{}', orderBy: { field: 'a', direction: 'up' } }, 'orderBy.direction', /asc/],
    [{ index: 'p', filter: '{}', select: ['a'], keysOnly: true }, 'select', /keys only returns no fields/],
    [{ index: 'p', filter: '{}', command: ['FLUSHALL'] }, '', /Unrecognized key/],
  ])('refuses %j before anything is sent', (raw, path, message) => {
    const result = procedures['kv.search.query'].input.safeParse({ profileId: 'p', ...raw });
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0]!;
    expect(issue.path.join('.')).toBe(path);
    if (typeof message === 'string') expect(issue.message).toBe(message);
    else expect(issue.message).toMatch(message);
  });
});

describe('KvSearchStore', () => {
  const tempDir = useTempDirs('kv-search-store-');

  it('keeps each profile its indexes newest first, at most the limit, across a restart', () => {
    const file = join(tempDir(), 'kv-search.json');
    const store = new KvSearchStore(file);
    store.opened('a', 'products');
    store.opened('a', 'users');
    store.opened('a', 'products');
    store.opened('b', 'orders');
    expect(store.list('a')).toEqual(['products', 'users']);
    for (let i = 0; i < KV_SEARCH_RECENT_LIMIT + 5; i += 1) store.opened('c', `i${i}`);
    expect(store.list('c')).toHaveLength(KV_SEARCH_RECENT_LIMIT);
    expect(store.list('c')[0]).toBe(`i${KV_SEARCH_RECENT_LIMIT + 4}`);
    store.gone('a', 'products');
    const again = new KvSearchStore(file);
    expect(again.list('a')).toEqual(['users']);
    expect(again.list('b')).toEqual(['orders']);
    expect(again.list('constructor')).toEqual([]);
  });
});
