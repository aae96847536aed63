// SEARCH.QUERY and SEARCH.COUNT through the bridge with @upstash/redis's `redis.search`: every filter kind on
// string, JSON and hash documents, relevance order, ORDERBY, pagination, SELECT / NOCONTENT, HIGHLIGHT and
// SCOREFUNC, nested schemas and FROM, in both of the SDK's wire modes.
import { Redis, s } from '@upstash/redis';
import { beforeAll, describe, expect, it } from 'vitest';

import { SDK_WIRE_MODES, useTestService } from '../test-support';

const env = useTestService();

const PRODUCTS = [
  {
    name: 'Laptop Pro',
    description: 'High performance laptop',
    category: 'electronics',
    price: 1299.99,
    stock: 50,
    active: true,
  },
  {
    name: 'Laptop Basic',
    description: 'Budget friendly laptop',
    category: 'electronics',
    price: 599.99,
    stock: 100,
    active: true,
  },
  {
    name: 'Wireless Mouse',
    description: 'Ergonomic wireless mouse',
    category: 'electronics',
    price: 29.99,
    stock: 200,
    active: true,
  },
  {
    name: 'USB Cable',
    description: 'Fast charging USB cable',
    category: 'accessories',
    price: 9.99,
    stock: 500,
    active: true,
  },
  {
    name: 'Phone Case',
    description: 'Protective phone case',
    category: 'accessories',
    price: 19.99,
    stock: 300,
    active: false,
  },
  {
    name: 'Headphones',
    description: 'Noise cancelling headphones',
    category: 'audio',
    price: 199.99,
    stock: 75,
    active: true,
  },
  {
    name: 'Keyboard',
    description: 'Mechanical gaming keyboard',
    category: 'electronics',
    price: 149.99,
    stock: 60,
    active: true,
  },
  {
    name: 'Monitor',
    description: '4K Ultra HD monitor',
    category: 'electronics',
    price: 449.99,
    stock: 30,
    active: true,
  },
];

const productSchema = s.object({
  name: s.string(),
  description: s.string(),
  category: s.string().noTokenize(),
  price: s.number(),
  stock: s.number('U64'),
  active: s.boolean(),
});

const names = (results: { data?: { name?: unknown } }[]): unknown[] => results.map((r) => r.data?.name);

describe.each(['string', 'json'] as const)('products stored as %s documents', (dataType) => {
  describe.each(SDK_WIRE_MODES)('@upstash/redis with %s', (mode, wire) => {
    const name = `products-${dataType}-${mode.replace(/\W+/g, '-')}`;
    const redis = (): Redis =>
      new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false, ...wire });
    const index = () => redis().search.index({ name, schema: productSchema });
    const untyped = () => redis().search.index({ name });

    beforeAll(async () => {
      const created = await redis().search.createIndex({
        name,
        schema: productSchema,
        dataType,
        prefix: `${name}:`,
      });
      for (const [i, product] of PRODUCTS.entries()) {
        if (dataType === 'json') await redis().json.set(`${name}:${i}`, '$', product);
        else await redis().set(`${name}:${i}`, JSON.stringify(product));
      }
      // A key under the prefix that is not a JSON object is no document; one outside it is not read.
      await redis().set(`${name}:counter`, 5);
      await redis().set(`other-${name}:x`, JSON.stringify(PRODUCTS[0]));
      expect(await created.waitIndexing()).toBe(1);
    });

    it('finds words of TEXT fields, most relevant first, ties in key order', async () => {
      const result = await index().query({ filter: { name: { $eq: 'Laptop' } } });
      expect(names(result)).toEqual(['Laptop Pro', 'Laptop Basic']);
      expect(result[0]!.key).toBe(`${name}:0`);
      expect(result[0]!.score).toBeGreaterThan(0);
      // A word in a shorter text scores higher (BM25's length normalisation).
      const mouse = await index().query({ filter: { name: 'mouse', description: 'mouse' } });
      const mouseOnly = await index().query({ filter: { name: 'mouse' } });
      expect(mouse[0]!.score).toBeGreaterThan(mouseOnly[0]!.score);
    });

    it('stems words: "cancel" finds "cancelling"', async () => {
      const result = await index().query({ filter: { description: { $eq: 'cancel' } } });
      expect(names(result)).toEqual(['Headphones']);
    });

    it('answers fuzzy, phrase, regex and smart text filters', async () => {
      expect(
        names(await index().query({ filter: { name: { $fuzzy: { value: 'Laptopp', distance: 2 } } } })),
      ).toEqual(['Laptop Pro', 'Laptop Basic']);
      expect(names(await index().query({ filter: { name: { $fuzzy: 'laptopp' } } }))).toEqual([
        'Laptop Pro',
        'Laptop Basic',
      ]);
      expect(await index().query({ filter: { name: { $fuzzy: 'lapptopp' } } })).toEqual([]);
      // Two letters swapped are one edit unless transpositionCostOne is false.
      expect(names(await index().query({ filter: { name: { $fuzzy: 'lpatop' } } }))).toEqual([
        'Laptop Pro',
        'Laptop Basic',
      ]);
      expect(
        await index().query({
          filter: { name: { $fuzzy: { value: 'lpatop', transpositionCostOne: false } } },
        }),
      ).toEqual([]);
      expect(
        names(
          await index().query({ filter: { name: { $fuzzy: { value: 'lep', distance: 1, prefix: true } } } }),
        ),
      ).toEqual(['Laptop Pro', 'Laptop Basic']);
      expect(names(await index().query({ filter: { description: { $phrase: 'wireless mouse' } } }))).toEqual([
        'Wireless Mouse',
      ]);
      expect(await index().query({ filter: { description: { $phrase: 'mouse wireless' } } })).toEqual([]);
      expect(
        names(
          await index().query({
            filter: { description: { $phrase: { value: 'gaming keyb', prefix: true } } },
          }),
        ),
      ).toEqual(['Keyboard']);
      expect(
        names(
          await index().query({ filter: { description: { $phrase: { value: 'fast cable', slop: 2 } } } }),
        ),
      ).toEqual(['USB Cable']);
      expect(
        await index().query({ filter: { description: { $phrase: { value: 'fast cable', slop: 1 } } } }),
      ).toEqual([]);
      expect(names(await index().query({ filter: { name: { $regex: 'Laptop.*' } } }))).toEqual([
        'Laptop Pro',
        'Laptop Basic',
      ]);
      const smart = await index().query({ filter: { name: { $smart: 'Laptopp' } } });
      expect(names(smart)).toEqual(['Laptop Pro', 'Laptop Basic']);
    });

    it('compares numbers, booleans and NOTOKENIZE text exactly', async () => {
      expect(names(await index().query({ filter: { price: { $gt: 500 } } }))).toEqual([
        'Laptop Pro',
        'Laptop Basic',
      ]);
      expect(new Set(names(await index().query({ filter: { stock: { $gte: 100, $lte: 300 } } })))).toEqual(
        new Set(['Laptop Basic', 'Wireless Mouse', 'Phone Case']),
      );
      expect(names(await index().query({ filter: { active: { $eq: false } } }))).toEqual(['Phone Case']);
      expect(names(await index().query({ filter: { active: false } }))).toEqual(['Phone Case']);
      expect(names(await index().query({ filter: { stock: { $in: [30, 75] } } }))).toEqual([
        'Headphones',
        'Monitor',
      ]);
      expect(await index().count({ filter: { category: { $eq: 'electronics' } } })).toEqual({ count: 5 });
      expect(await index().count({ filter: { category: 'electro' } })).toEqual({ count: 0 });
      expect(await index().count({ filter: { category: { $in: ['audio', 'accessories'] } } })).toEqual({
        count: 3,
      });
    });

    it('combines conditions with $and, $or, $must, $should and $mustNot', async () => {
      expect(
        names(
          await index().query({ filter: { $and: [{ category: 'electronics' }, { price: { $lt: 200 } }] } }),
        ),
      ).toEqual(['Wireless Mouse', 'Keyboard']);
      expect(await index().count({ filter: { $or: [{ category: 'audio' }, { name: 'keyboard' }] } })).toEqual(
        { count: 2 },
      );
      // (The SDK's filter types do not allow every combination the service takes: these go untyped.)
      expect(
        names(
          await untyped().query({
            filter: {
              $must: [{ category: 'electronics' }],
              $mustNot: [{ name: 'laptop' }, { price: { $gt: 400 } }],
            },
          }),
        ),
      ).toEqual(['Wireless Mouse', 'Keyboard']);
      // $mustNot alone matches nothing (as the hosted service documents).
      expect(await untyped().count({ filter: { $mustNot: [{ category: 'audio' }] } })).toEqual({ count: 0 });
      // $should beside $must only raises the score of the documents it matches.
      const boosted = await index().query({
        filter: { $must: [{ category: 'electronics' }], $should: [{ description: 'gaming' }] },
      });
      expect(boosted).toHaveLength(5);
      expect(boosted[0]!.data.name).toBe('Keyboard');
      // $should alone needs one of its clauses.
      expect(
        await index().count({ filter: { $should: [{ name: 'monitor' }, { name: 'keyboard' }] } }),
      ).toEqual({ count: 2 });
      // $boost weighs a clause.
      const weighed = await index().query({
        filter: { $should: [{ name: { $eq: 'mouse', $boost: 10 } }, { name: 'laptop' }] },
      });
      expect(names(weighed)[0]).toBe('Wireless Mouse');
      const unweighed = await index().query({
        filter: { $should: [{ name: { $eq: 'mouse', $boost: 0.01 } }, { name: 'laptop' }] },
      });
      expect(names(unweighed).at(-1)).toBe('Wireless Mouse');
    });

    it('orders by a field, pages with LIMIT and OFFSET, and matches everything with an empty filter', async () => {
      const ascending = await index().query({
        filter: { category: 'electronics' },
        orderBy: { price: 'ASC' },
        limit: 3,
      });
      expect(names(ascending)).toEqual(['Wireless Mouse', 'Keyboard', 'Monitor']);
      const descending = await index().query({
        filter: { category: 'electronics' },
        orderBy: { price: 'DESC' },
      });
      expect(names(descending)).toEqual([
        'Laptop Pro',
        'Laptop Basic',
        'Monitor',
        'Keyboard',
        'Wireless Mouse',
      ]);
      const page = await index().query({
        filter: { category: 'electronics' },
        orderBy: { price: 'DESC' },
        limit: 2,
        offset: 2,
      });
      expect(names(page)).toEqual(['Monitor', 'Keyboard']);
      // Ten results unless a LIMIT says otherwise; the empty filter matches all eight.
      expect(await index().query({})).toHaveLength(8);
      expect(await index().query({ limit: 3 })).toHaveLength(3);
      expect(await index().count({ filter: {} })).toEqual({ count: 8 });
    });

    it('answers the whole document, selected fields, or keys only', async () => {
      const [whole] = await index().query({ filter: { name: 'headphones' } });
      expect(whole!.data).toEqual(PRODUCTS[5]);
      const [selected] = await index().query({
        filter: { name: 'headphones' },
        select: { price: true, active: true },
      });
      expect(selected!.data).toEqual({ price: 199.99, active: true });
      const [keyOnly] = await index().query({ filter: { name: 'headphones' }, select: {} });
      expect(keyOnly).toEqual({ key: `${name}:5`, score: expect.any(Number) });
      expect(keyOnly).not.toHaveProperty('data');
    });

    it('highlights the words that matched, with default or given tags', async () => {
      const result = await index().query({
        filter: { category: 'electronics', description: 'laptop' },
        select: { category: true, description: true },
        highlight: { fields: ['category', 'description'] },
      });
      expect(result.map((r) => r.data)).toEqual([
        { category: '<em>electronics</em>', description: 'High performance <em>laptop</em>' },
        { category: '<em>electronics</em>', description: 'Budget friendly <em>laptop</em>' },
      ]);
      const [tagged] = await index().query({
        filter: { description: { $fuzzy: 'wireles' } },
        highlight: { fields: ['description'], preTag: '[', postTag: ']' },
      });
      expect(tagged!.data).toEqual({ ...PRODUCTS[2], description: 'Ergonomic [wireless] mouse' });
    });
  });
});

describe('hash documents', () => {
  const redis = (): Redis => new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false });
  const schema = s.object({
    name: s.string(),
    popularity: s.number('U64'),
    recency: s.number('U64'),
    published: s.date(),
  });

  beforeAll(async () => {
    await redis().search.createIndex({ name: 'hashes', schema, dataType: 'hash', prefix: 'hashes:' });
    await redis().hset('hashes:0', {
      name: 'Laptop Pro',
      popularity: '1000',
      recency: '100',
      published: '2026-01-10T10:00:00Z',
    });
    await redis().hset('hashes:1', {
      name: 'Laptop Basic',
      popularity: '500',
      recency: '200',
      published: '2026-01-20T10:00:00Z',
    });
    await redis().hset('hashes:2', {
      name: 'Laptop Air',
      popularity: '2000',
      recency: '50',
      published: '2026-02-05T10:00:00Z',
    });
    // A hash field with a TTL (emulated hash-field expiry): its bookkeeping never shows in a document.
    await redis().hset('hashes:3', { name: 'Tablet', popularity: '10', extra: 'x' });
    expect(await redis().hexpire('hashes:3', 'extra', 3600)).toEqual([1]);
  });

  const index = () => redis().search.index({ name: 'hashes', schema });

  it('reads fields as their schema types and answers all of a hash', async () => {
    const ordered = await index().query({
      filter: { popularity: { $gte: 500 } },
      orderBy: { popularity: 'DESC' },
    });
    expect(ordered.map((r) => r.data.name)).toEqual(['Laptop Air', 'Laptop Pro', 'Laptop Basic']);
    const [tablet] = await index().query({ filter: { name: 'tablet' } });
    expect(tablet!.data).toEqual({ name: 'Tablet', popularity: 10, extra: 'x' });
  });

  it('compares dates', async () => {
    const january = await index().query({
      filter: {
        published: { $gte: new Date('2026-01-01T00:00:00Z'), $lt: new Date('2026-02-01T00:00:00Z') },
      } as never,
    });
    expect(january.map((r) => r.data.name)).toEqual(['Laptop Pro', 'Laptop Basic']);
    expect(await index().count({ filter: { published: { $gt: '2026-01-15T00:00:00Z' } } })).toEqual({
      count: 2,
    });
  });

  it('scores with SCOREFUNC: field values, modifiers, factors, missing values and modes', async () => {
    const byPopularity = await index().query({ filter: { name: 'laptop' }, scoreFunc: 'popularity' });
    expect(byPopularity.map((r) => r.data.name)).toEqual(['Laptop Air', 'Laptop Pro', 'Laptop Basic']);
    const replaced = await index().query({
      filter: { name: 'laptop' },
      scoreFunc: { field: 'popularity', scoreMode: 'replace' },
    });
    expect(replaced.map((r) => r.score)).toEqual([2000, 1000, 500]);
    const logged = await index().query({
      filter: { name: 'laptop' },
      scoreFunc: { field: 'popularity', modifier: 'log1p', factor: 2, scoreMode: 'replace' },
    });
    expect(logged[0]!.score).toBeCloseTo(Math.log10(1 + 4000), 10);
    const summed = await index().query({
      filter: { name: 'laptop' },
      scoreFunc: {
        fields: [{ field: 'popularity' }, { field: 'recency', factor: 10 }],
        combineMode: 'sum',
        scoreMode: 'replace',
      },
    });
    // 1000 + 10 × 100, 500 + 10 × 200, 2000 + 10 × 50; equal scores in key order.
    expect(summed.map((r) => [r.data.name, r.score])).toEqual([
      ['Laptop Basic', 2500],
      ['Laptop Air', 2500],
      ['Laptop Pro', 2000],
    ]);
    const missing = await index().query({
      filter: { name: { $in: ['laptop', 'tablet'] } },
      scoreFunc: { field: 'recency', missing: 7, scoreMode: 'replace' },
    });
    expect(missing.map((r) => [r.data.name, r.score])).toEqual([
      ['Laptop Basic', 200],
      ['Laptop Pro', 100],
      ['Laptop Air', 50],
      ['Tablet', 7],
    ]);
  });
});

describe('nested schemas and FROM', () => {
  const redis = (): Redis => new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false });
  const schema = s.object({
    title: s.string(),
    author: s.object({ name: s.string(), email: s.string().noTokenize() }),
    stats: s.object({ views: s.number('U64') }),
    titleExact: s.string().noStem().from('title'),
  });
  const POSTS = [
    {
      title: 'Running fast',
      author: { name: 'John Doe', email: 'john@example.com' },
      stats: { views: 1000 },
    },
    {
      title: 'Runner on track',
      author: { name: 'Jane Smith', email: 'jane@example.com' },
      stats: { views: 500 },
    },
    { title: 'Third post', author: { name: 'John Doe', email: 'john@example.com' }, stats: { views: 2000 } },
  ];

  beforeAll(async () => {
    await redis().search.createIndex({ name: 'posts', schema, dataType: 'json', prefix: 'posts:' });
    for (const [i, post] of POSTS.entries()) await redis().json.set(`posts:${i}`, '$', post);
  });

  const index = () => redis().search.index({ name: 'posts', schema });

  it('filters, orders and selects by dotted paths', async () => {
    const result = await index().query({
      filter: { 'author.name': 'john' },
      select: { 'author.email': true, 'stats.views': true },
      orderBy: { 'stats.views': 'DESC' },
    });
    expect(result.map((r) => r.data)).toEqual([
      { author: { email: 'john@example.com' }, stats: { views: 2000 } },
      { author: { email: 'john@example.com' }, stats: { views: 1000 } },
    ]);
  });

  it('stems a field but not its NOSTEM copy read FROM the same source', async () => {
    expect((await index().query({ filter: { title: 'run' } })).map((r) => r.key)).toEqual(['posts:0']);
    expect(await index().query({ filter: { titleExact: 'run' } })).toEqual([]);
    const [exact] = await index().query({ filter: { titleExact: 'running' } });
    expect(exact!.data).toEqual(POSTS[0]);
    const [selected] = await index().query({
      filter: { titleExact: 'running' },
      select: { titleExact: true },
    });
    expect(selected!.data).toEqual({ titleExact: 'Running fast' });
  });
});

describe('keywords, facets, signed numbers, arrays and mixed key types', () => {
  const redis = (): Redis => new Redis({ url: env.kv.url, token: env.kv.token, enableTelemetry: false });
  const schema = s.object({
    title: s.string(),
    tag: s.keyword(),
    path: s.facet(),
    delta: s.number('I64'),
    labels: s.keyword(),
  });

  beforeAll(async () => {
    await redis().search.createIndex({ name: 'mixed', schema, dataType: 'json', prefix: 'mixed:' });
    await redis().json.set('mixed:1', '$', {
      title: 'apple pie',
      tag: 'Dessert',
      path: '/food/sweet',
      delta: -5,
      labels: ['red', 'baked'],
    });
    await redis().set(
      'mixed:2',
      JSON.stringify({
        title: 'apple juice',
        tag: 'drink',
        path: '/drink/cold',
        delta: 3,
        labels: ['green'],
      }),
    );
    await redis().json.set('mixed:3', '$', {
      title: 'lemon tart',
      tag: 'dessert',
      path: '/food/sweet',
      delta: 0,
      labels: 'yellow',
    });
    // Neither is a JSON document: a hash and a list under the same prefix are not read.
    await redis().hset('mixed:4', { title: 'apple hash', tag: 'x' });
    await redis().lpush('mixed:5', 'apple list');
  });

  const index = () => redis().search.index({ name: 'mixed', schema });
  const keys = async (filter: object): Promise<string[]> =>
    (await redis()
      .search.index({ name: 'mixed' })
      .query({ filter, orderBy: { delta: 'ASC' } }))!.map((r) => r.key);

  it('reads JSON documents written with JSON.SET and with SET, and nothing else under the prefix', async () => {
    expect(await keys({ title: 'apple' })).toEqual(['mixed:1', 'mixed:2']);
    expect(await index().count({ filter: {} })).toEqual({ count: 3 });
  });

  it('matches keywords exactly (case-sensitive) and by lexicographic range, facets by path', async () => {
    expect(await keys({ tag: 'dessert' })).toEqual(['mixed:3']);
    expect(await keys({ tag: { $in: ['Dessert', 'drink'] } })).toEqual(['mixed:1', 'mixed:2']);
    expect(await keys({ tag: { $gte: 'a', $lt: 'e' } })).toEqual(['mixed:3', 'mixed:2']);
    expect(await keys({ path: '/food/sweet' })).toEqual(['mixed:1', 'mixed:3']);
    expect(await keys({ path: '/food' })).toEqual([]);
  });

  it('refuses to order by a keyword: only FAST fields sort, and a KEYWORD cannot be FAST', async () => {
    await expect(
      redis()
        .search.index({ name: 'mixed' })
        .query({ orderBy: { tag: 'ASC' } }),
    ).rejects.toThrow("ERR SEARCH.QUERY: ORDERBY needs a FAST field; 'tag' (KEYWORD) is not FAST");
  });

  it('compares negative numbers and matches any value of an array', async () => {
    expect(await keys({ delta: { $lt: 0 } })).toEqual(['mixed:1']);
    expect(await keys({ delta: { $gte: -5, $lte: 0 } })).toEqual(['mixed:1', 'mixed:3']);
    expect(await keys({ labels: 'baked' })).toEqual(['mixed:1']);
    expect(await keys({ labels: { $in: ['green', 'yellow'] } })).toEqual(['mixed:3', 'mixed:2']);
  });

  it('matches several words with $smart, best match first', async () => {
    const result = await index().query({ filter: { title: { $smart: 'aple pi' } } });
    expect(result.map((r) => r.key)).toEqual(['mixed:1', 'mixed:2']);
    expect(result[0]!.score).toBeGreaterThan(result[1]!.score);
  });
});
