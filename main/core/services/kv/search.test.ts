// The Search tab's kv.search.* handlers against the real local stack (its SEARCH.* emulation over
// redis-server): an index's definition read into fields with their options, a query's rows and count, pages
// by OFFSET, order and chosen fields, a JSON index's documents as dotted fields, the names to suggest, and
// the refusals — a missing index, the service's own words for a filter it refuses, and input main refuses
// before anything is sent.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { aggregateView } from '../../../../shared/kv/search-aggregate';
import { KvClient } from './client';
import { kvProfile, useKvHandlers, useKvStack } from './kv-test-stack';

const env = useKvStack();
let profile: () => ResolvedProfile = () => kvProfile(env.kv);
const { callKv } = useKvHandlers(env, 'kv-search-', () => profile());
const kv = () => new KvClient(kvProfile(env.kv));

const query = (input: object) => callKv('kv.search.query', { profileId: 'p', ...input });

async function seedProducts(): Promise<void> {
  const client = kv();
  await client.call(['SEARCH.DROP', 'st-products']);
  await client.call([
    'SEARCH.CREATE',
    'st-products',
    'ON',
    'HASH',
    'PREFIX',
    '1',
    'st-product:',
    'LANGUAGE',
    'english',
    'SCHEMA',
    'name',
    'TEXT',
    'NOSTEM',
    'price',
    'F64',
    'FAST',
    'category',
    'KEYWORD',
  ]);
  const rows = [
    ['st-product:1', 'Gaming Laptop', '1299.99', 'electronics'],
    ['st-product:2', 'Wireless Mouse', '29.99', 'electronics'],
    ['st-product:3', 'Laptop Stand', '49.99', 'accessories'],
    ['st-product:4', 'Laptop Sleeve', '19.99', 'accessories'],
    ['st-product:5', 'Desk Lamp', '39.99', 'furniture'],
  ];
  await client.pipelineEntries(
    rows.map(([key, name, price, category]) => [
      'HSET',
      key!,
      'name',
      name!,
      'price',
      price!,
      'category',
      category!,
    ]),
  );
  await client.call(['SEARCH.WAITINDEXING', 'st-products']);
}

describe('kv.search against the local stack', () => {
  it('reads an index definition, fields with their options; a missing index is said, and forgotten', async () => {
    await seedProducts();
    expect(await callKv('kv.search.describe', { profileId: 'p', index: 'st-products' })).toEqual({
      exists: true,
      index: {
        name: 'st-products',
        dataType: 'hash',
        prefixes: ['st-product:'],
        language: 'english',
        fields: [
          { name: 'name', type: 'TEXT', fast: false, noTokenize: false, noStem: true },
          { name: 'price', type: 'F64', fast: true, noTokenize: false, noStem: false },
          { name: 'category', type: 'KEYWORD', fast: false, noTokenize: false, noStem: false },
        ],
      },
    });
    expect(await callKv('kv.search.describe', { profileId: 'p', index: 'st-nothing' })).toEqual({
      exists: false,
      name: 'st-nothing',
    });
    expect((await callKv('kv.search.names', { profileId: 'p' })).recent).toContain('st-products');
  });

  it('answers rows with key, score and fields, the count with the first page, then pages by OFFSET', async () => {
    await seedProducts();
    const filter = JSON.stringify({ name: { $eq: 'laptop' } });
    const first = await query({
      index: 'st-products',
      filter,
      limit: 2,
      orderBy: { field: 'price', direction: 'asc' },
    });
    expect(first.count).toBe(3);
    expect(first.rows.map((row) => row.key)).toEqual(['st-product:4', 'st-product:3']);
    expect(first.cursor).toBe('2');
    expect(first.rows[0]!.fields).toEqual(
      expect.arrayContaining([
        ['name', 'Laptop Sleeve'],
        ['category', 'accessories'],
      ]),
    );
    expect(typeof first.rows[0]!.score).toBe('number');

    const second = await query({
      index: 'st-products',
      filter,
      limit: 2,
      orderBy: { field: 'price', direction: 'asc' },
      cursor: first.cursor,
    });
    expect(second.rows.map((row) => row.key)).toEqual(['st-product:1']);
    expect(second.count).toBeUndefined();
    expect(second.cursor).toBeUndefined();

    const chosen = await query({
      index: 'st-products',
      filter: '{"category": "accessories"}',
      select: ['price'],
    });
    expect(chosen.rows.map((row) => row.fields.map(([name]) => name))).toEqual([['price'], ['price']]);
    const keysOnly = await query({ index: 'st-products', filter: '{"price": {"$lt": 30}}', keysOnly: true });
    expect(keysOnly.count).toBe(2);
    expect(keysOnly.rows.every((row) => row.fields.length === 0)).toBe(true);
  });

  it('reads a JSON index: nested fields dotted, a whole document spread into its fields', async () => {
    const client = kv();
    await client.call(['SEARCH.DROP', 'st-docs']);
    await client.call([
      'SEARCH.CREATE',
      'st-docs',
      'ON',
      'JSON',
      'PREFIX',
      '1',
      'st-doc:',
      'SCHEMA',
      'title',
      'TEXT',
      'meta.year',
      'U64',
      'FAST',
    ]);
    await client.call(['JSON.SET', 'st-doc:1', '$', JSON.stringify({ title: 'Dune', meta: { year: 1965 } })]);
    await client.call(['SEARCH.WAITINDEXING', 'st-docs']);
    const described = await callKv('kv.search.describe', { profileId: 'p', index: 'st-docs' });
    expect(described.exists && described.index.fields.map((f) => f.name)).toEqual(['title', 'meta.year']);
    const page = await query({ index: 'st-docs', filter: '{"meta.year": {"$gte": 1900}}' });
    expect(page.count).toBe(1);
    expect(page.rows[0]!.key).toBe('st-doc:1');
    expect(page.rows[0]!.fields).toEqual(
      expect.arrayContaining([
        ['title', 'Dune'],
        ['meta.year', 1965],
      ]),
    );
  });

  it('suggests the aliases; a query through an alias works', async () => {
    await seedProducts();
    const client = kv();
    await client.call(['SEARCH.ALIASADD', 'st-shop', 'st-products']);
    const names = await callKv('kv.search.names', { profileId: 'p' });
    expect(names.aliases).toContainEqual({ alias: 'st-shop', index: 'st-products' });
    expect(names.aliasesError).toBeUndefined();
    expect((await query({ index: 'st-shop', filter: '{"category": "furniture"}' })).count).toBe(1);
    await client.call(['SEARCH.ALIASDEL', 'st-shop']);
  });

  it('lists the indexes with their data type (SEARCH.LISTINDEXES), by name, beside the aliases', async () => {
    await seedProducts();
    const client = kv();
    await client.call(['SEARCH.DROP', 'st-books']);
    await client.call([
      'SEARCH.CREATE',
      'st-books',
      'ON',
      'JSON',
      'PREFIX',
      '1',
      'st-book:',
      'SCHEMA',
      'title',
      'TEXT',
    ]);
    await client.call(['SEARCH.ALIASADD', 'st-shop', 'st-products']);
    try {
      const names = await callKv('kv.search.names', { profileId: 'p' });
      expect(names.indexesError).toBeUndefined();
      const ours = names.indexes!.filter((entry) => ['st-books', 'st-products'].includes(entry.name));
      expect(ours).toEqual([
        { name: 'st-books', dataType: 'JSON' },
        { name: 'st-products', dataType: 'HASH' },
      ]);
      const all = names.indexes!.map((entry) => entry.name);
      expect(all).toEqual([...all].sort());
      expect(names.indexesTruncated).toBeUndefined();
      expect(names.aliases).toContainEqual({ alias: 'st-shop', index: 'st-products' });
    } finally {
      await client.call(['SEARCH.ALIASDEL', 'st-shop']);
      await client.call(['SEARCH.DROP', 'st-books']);
    }
  });

  it('keeps the aliases and the indexes opened before when the service refuses SEARCH.LISTINDEXES', async () => {
    await seedProducts();
    await kv().call(['SEARCH.ALIASADD', 'st-shop', 'st-products']);
    await callKv('kv.search.describe', { profileId: 'p', index: 'st-products' });
    // A service without the command: the stack behind a proxy that answers LISTINDEXES as an unknown command.
    const proxy = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const rows = JSON.parse(body) as string[][];
        const refused = rows.map((row) => row[0] === 'SEARCH.LISTINDEXES');
        void fetch(env.kv.url + (request.url ?? '/'), {
          method: 'POST',
          headers: { authorization: request.headers.authorization ?? '' },
          body: JSON.stringify(rows.map((row) => (row[0] === 'SEARCH.LISTINDEXES' ? ['PING'] : row))),
        })
          .then((upstream) => upstream.json() as Promise<unknown[]>)
          .then((entries) => {
            response.setHeader('content-type', 'application/json');
            response.end(
              JSON.stringify(
                entries.map((entry, i) =>
                  refused[i] ? { error: "ERR unknown command 'SEARCH.LISTINDEXES'" } : entry,
                ),
              ),
            );
          });
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const behind = { ...env.kv, url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
    profile = () => kvProfile(behind);
    try {
      const names = await callKv('kv.search.names', { profileId: 'p' });
      expect(names.indexes).toBeUndefined();
      expect(names.indexesError).toBe("ERR unknown command 'SEARCH.LISTINDEXES'");
      expect(names.aliases).toContainEqual({ alias: 'st-shop', index: 'st-products' });
      expect(names.recent).toContain('st-products');
    } finally {
      profile = () => kvProfile(env.kv);
      await new Promise((resolve) => proxy.close(resolve));
      await kv().call(['SEARCH.ALIASDEL', 'st-shop']);
    }
  });

  it('aggregates what a filter matches: buckets with nested values, stats; refusals in the service’s words', async () => {
    await seedProducts();
    const aggregate = (filter: string, aggregations: string, index = 'st-products') =>
      callKv('kv.search.aggregate', { profileId: 'p', index, filter, aggregations });
    const result = await aggregate(
      '{"price": {"$lt": 100}}',
      JSON.stringify({
        by_category: { $terms: { field: 'category' }, $aggs: { avg_price: { $avg: { field: 'price' } } } },
        price_stats: { $stats: { field: 'price' } },
      }),
    );
    expect(result.aggregations.map(([name]) => name)).toEqual(['by_category', 'price_stats']);
    const view = aggregateView(result.aggregations[0]![1]);
    expect(view.kind).toBe('buckets');
    if (view.kind !== 'buckets') return;
    // Most documents first; the order of equal counts is the engine's own.
    expect(view.buckets[0]).toMatchObject({ key: 'accessories', docCount: 2 });
    expect(view.buckets.map((bucket) => [bucket.key, bucket.docCount]).sort()).toEqual([
      ['accessories', 2],
      ['electronics', 1],
      ['furniture', 1],
    ]);
    expect(Number(view.buckets[0]!.values.get('avg_price'))).toBeCloseTo(34.99, 2);
    expect(view.extras).toContainEqual(['sumOtherDocCount', '0']);
    const stats = aggregateView(result.aggregations[1]![1]);
    expect(stats.kind === 'metrics' && Object.fromEntries(stats.rows)).toMatchObject({
      count: 4,
      min: 19.99,
      max: 49.99,
    });

    await expect(aggregate('{}', '{"a": {"$avg": {"field": "colour"}}}')).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
      message: expect.stringMatching(/colour/),
    });
    await expect(aggregate('{}', '{"a": {"$avg": {"field": "price"}}}', 'st-missing')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(aggregate('{}', '{"a": {"$mean": {"field": "price"}}}')).rejects.toThrow(
      /Unknown operator \$mean/,
    );
  });

  it('says so for a missing index, and shows the service’s words for a filter it refuses', async () => {
    await seedProducts();
    await expect(query({ index: 'st-missing', filter: '{}' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No index or alias named "st-missing".',
    });
    await expect(query({ index: 'st-products', filter: '{"colour": {"$eq": "red"}}' })).rejects.toMatchObject(
      {
        code: 'SERVICE_ERROR',
        message: expect.stringMatching(/unknown field 'colour'/),
      },
    );
    await expect(
      query({ index: 'st-products', filter: '{"price": {"$regex": "1.*"}}' }),
    ).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
      message: expect.stringMatching(/\$regex.*price/),
    });
  });

  it('reads on a read-only profile, with its read-only token or with only the standard one', async () => {
    await seedProducts();
    try {
      for (const readOnlyToken of [true, false]) {
        profile = () => kvProfile(env.kv, { readOnly: true, readOnlyToken });
        expect(new KvClient(profile()).access).toBe(readOnlyToken ? 'readOnly' : 'standard');
        const described = await callKv('kv.search.describe', { profileId: 'p', index: 'st-products' });
        expect(described.exists).toBe(true);
        expect((await query({ index: 'st-products', filter: '{"category": "furniture"}' })).count).toBe(1);
        const names = await callKv('kv.search.names', { profileId: 'p' });
        expect(names.aliasesError).toBeUndefined();
        expect(names.indexesError).toBeUndefined();
        expect(names.indexes).toContainEqual({ name: 'st-products', dataType: 'HASH' });
      }
    } finally {
      profile = () => kvProfile(env.kv);
    }
  });

  it('refuses bad input before anything is sent', async () => {
    await expect(query({ index: 'st products', filter: '{}' })).rejects.toThrow(/no spaces/);
    await expect(query({ index: 'st-products', filter: '{"name": {"$eq": }' })).rejects.toThrow(
      /Not valid JSON/,
    );
    await expect(query({ index: 'st-products', filter: '{}', limit: 5000 })).rejects.toThrow(/at most 1000/);
    await expect(callKv('kv.search.describe', { profileId: 'p', index: '' })).rejects.toThrow(/needed/);
  });
});
