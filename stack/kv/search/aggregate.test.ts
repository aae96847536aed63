// SEARCH.AGGREGATE's aggregations over hand-built documents, checked on the wire form (the flat RESP arrays the
// SDK's deserializeAggregateResponse reads). The product data is the SDK's own aggregate test's: nine products,
// price i·10, quantity i, categoryId i mod 3.
import { describe, expect, it } from 'vitest';

import type { RespValue } from '../resp';
import { RespError } from '../resp';
import { aggregate } from './aggregate';
import type {
  SearchDocument,
  SearchField,
  SearchFieldType,
  SearchIndexDefinition,
  SearchValue,
} from './types';

type Fields = Record<string, SearchValue | SearchValue[] | undefined>;

function doc(key: string, fields: Fields): SearchDocument {
  return { key, value: (path) => fields[path] };
}

function field(path: string, type: SearchFieldType, fast = true): SearchField {
  return { path, type, fast, noTokenize: false, noStem: false, from: undefined };
}

const index: SearchIndexDefinition = {
  name: 'products',
  dataType: 'json',
  prefixes: ['product:'],
  language: 'english',
  fields: [
    field('title', 'TEXT', false),
    field('category', 'KEYWORD', false),
    field('categoryId', 'F64'),
    field('price', 'F64'),
    field('quantity', 'U64'),
    field('rating', 'I64'),
    field('slowPrice', 'F64', false),
    field('inStock', 'BOOL'),
    field('createdAt', 'DATE'),
    field('updatedAt', 'DATE', false),
    field('tags', 'KEYWORD', false),
    field('path', 'FACET', false),
  ],
};

const CATEGORIES = ['electronics', 'clothing', 'books'];
const products = Array.from({ length: 9 }, (_, i) =>
  doc(`product:${i}`, {
    title: `product ${i}`,
    category: CATEGORIES[i % 3],
    categoryId: i % 3,
    price: i * 10,
    quantity: i,
  }),
);

/** The reply with bulk strings as text, so expectations read as the wire's shape. */
function plain(value: RespValue): unknown {
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (Array.isArray(value)) return value.map(plain);
  return value;
}

function run(aggregations: unknown, docs: readonly SearchDocument[] = products): unknown {
  return plain(aggregate(index, JSON.stringify(aggregations), docs));
}

function errorOf(aggregations: string, docs: readonly SearchDocument[] = products): string {
  try {
    aggregate(index, aggregations, docs);
  } catch (error) {
    expect(error).toBeInstanceOf(RespError);
    return (error as RespError).message;
  }
  throw new Error('expected an error');
}

const refused = (aggregations: unknown): string => errorOf(JSON.stringify(aggregations));

describe('metric aggregations', () => {
  it('answers $stats as count, min, max, sum, avg', () => {
    expect(run({ s: { $stats: { field: 'price' } } })).toEqual([
      's',
      ['count', 9, 'min', 0, 'max', 80, 'sum', 360, 'avg', 40],
    ]);
  });

  it('answers $avg, $sum, $min, $max and $count as { value }', () => {
    expect(
      run({
        avg: { $avg: { field: 'price' } },
        sum: { $sum: { field: 'price' } },
        min: { $min: { field: 'price' } },
        max: { $max: { field: 'price' } },
        count: { $count: { field: 'price' } },
      }),
    ).toEqual([
      'avg',
      ['value', 40],
      'sum',
      ['value', 360],
      'min',
      ['value', 0],
      'max',
      ['value', 80],
      'count',
      ['value', 9],
    ]);
  });

  it('writes a fractional value as a bulk string (RESP2 has no doubles) and a whole one as an integer', () => {
    const docs = [doc('a', { price: 1 }), doc('b', { price: 2 })];
    expect(run({ avg: { $avg: { field: 'price' } }, sum: { $sum: { field: 'price' } } }, docs)).toEqual([
      'avg',
      ['value', '1.5'],
      'sum',
      ['value', 3],
    ]);
  });

  it('leaves documents without the field out, or counts them as `missing` when it is given', () => {
    const docs = [doc('a', { price: 10 }), doc('b', { price: 20 }), doc('c', {})];
    expect(
      run(
        {
          plain: { $avg: { field: 'price' } },
          fallback: { $avg: { field: 'price', missing: 90 } },
          counted: { $count: { field: 'price' } },
          countedWithMissing: { $count: { field: 'price', missing: 0 } },
        },
        docs,
      ),
    ).toEqual([
      'plain',
      ['value', 15],
      'fallback',
      ['value', 40],
      'counted',
      ['value', 2],
      'countedWithMissing',
      ['value', 3],
    ]);
  });

  it('a document whose field is present does not take `missing` (the SDK test: avg with missing 100 stays 40)', () => {
    expect(run({ a: { $avg: { field: 'price', missing: 100 } } })).toEqual(['a', ['value', 40]]);
  });

  it('counts every value of an array field, KEYWORD values too', () => {
    const docs = [doc('a', { tags: ['x', 'y'] }), doc('b', { tags: 'x' }), doc('c', {})];
    expect(run({ n: { $count: { field: 'tags' } } }, docs)).toEqual(['n', ['value', 3]]);
  });

  it('reads BOOL as 1 / 0 and DATE as unix milliseconds', () => {
    const docs = [
      doc('a', { inStock: true, createdAt: 1000 }),
      doc('b', { inStock: false, createdAt: 3000 }),
      doc('c', { inStock: true, createdAt: 5000 }),
    ];
    expect(
      run({ stock: { $sum: { field: 'inStock' } }, created: { $max: { field: 'createdAt' } } }, docs),
    ).toEqual(['stock', ['value', 2], 'created', ['value', 5000]]);
  });

  it('answers nulls (and zero sums and counts) over no documents', () => {
    expect(
      run(
        {
          s: { $stats: { field: 'price' } },
          avg: { $avg: { field: 'price' } },
          sum: { $sum: { field: 'price' } },
          min: { $min: { field: 'price' } },
          count: { $count: { field: 'price' } },
          distinct: { $cardinality: { field: 'price' } },
        },
        [],
      ),
    ).toEqual([
      's',
      ['count', 0, 'min', null, 'max', null, 'sum', 0, 'avg', null],
      'avg',
      ['value', null],
      'sum',
      ['value', 0],
      'min',
      ['value', null],
      'count',
      ['value', 0],
      'distinct',
      ['value', 0],
    ]);
  });

  it('counts distinct values with $cardinality, `missing` as one more value', () => {
    const docs = [...products, doc('x', { title: 'no category' })];
    expect(
      run(
        {
          ids: { $cardinality: { field: 'categoryId' } },
          names: { $cardinality: { field: 'category' } },
          withMissing: { $cardinality: { field: 'category', missing: 'none' } },
        },
        docs,
      ),
    ).toEqual(['ids', ['value', 3], 'names', ['value', 3], 'withMissing', ['value', 4]]);
  });

  it('answers $extendedStats with population and sampling variance and sigma bounds', () => {
    const docs = [2, 4, 4, 4, 5, 5, 7, 9].map((price, i) => doc(`d${i}`, { price }));
    // Mean 5, population variance 4 (σ 2), sample variance 32/7.
    const sampling = Math.sqrt(32 / 7);
    expect(run({ es: { $extendedStats: { field: 'price', sigma: 3 } } }, docs)).toEqual([
      'es',
      [
        'count',
        8,
        'min',
        2,
        'max',
        9,
        'avg',
        5,
        'sum',
        40,
        'sumOfSquares',
        232,
        'variance',
        4,
        'variancePopulation',
        4,
        'varianceSampling',
        String(32 / 7),
        'stdDeviation',
        2,
        'stdDeviationPopulation',
        2,
        'stdDeviationSampling',
        String(sampling),
        'stdDeviationBounds',
        [
          'upper',
          11,
          'lower',
          -1,
          'upperSampling',
          String(5 + 3 * sampling),
          'lowerSampling',
          String(5 - 3 * sampling),
          'upperPopulation',
          11,
          'lowerPopulation',
          -1,
        ],
      ],
    ]);
  });

  it('uses sigma 2 by default, and has no sampling variance for one value', () => {
    const [, es] = run({ es: { $extendedStats: { field: 'price' } } }, [doc('a', { price: 5 })]) as [
      string,
      unknown[],
    ];
    const fields = new Map<unknown, unknown>();
    for (let i = 0; i < es.length; i += 2) fields.set(es[i], es[i + 1]);
    expect(fields.get('variance')).toBe(0);
    expect(fields.get('varianceSampling')).toBeNull();
    expect(fields.get('stdDeviationBounds')).toEqual([
      'upper',
      5,
      'lower',
      5,
      'upperSampling',
      null,
      'lowerSampling',
      null,
      'upperPopulation',
      5,
      'lowerPopulation',
      5,
    ]);
    const [, wide] = run({ es: { $extendedStats: { field: 'price' } } }) as [string, unknown[]];
    const bounds = wide[wide.indexOf('stdDeviationBounds') + 1] as unknown[];
    const std = Math.sqrt(6000 / 9);
    expect(bounds.slice(0, 4)).toEqual(['upper', String(40 + 2 * std), 'lower', String(40 - 2 * std)]);
  });

  it('answers $extendedStats over no documents with nulls', () => {
    const [, es] = run({ es: { $extendedStats: { field: 'price' } } }, []) as [string, unknown[]];
    expect(es.slice(0, 12)).toEqual([
      'count',
      0,
      'min',
      null,
      'max',
      null,
      'avg',
      null,
      'sum',
      0,
      'sumOfSquares',
      null,
    ]);
    expect(es.at(-1)).toEqual([
      'upper',
      null,
      'lower',
      null,
      'upperSampling',
      null,
      'lowerSampling',
      null,
      'upperPopulation',
      null,
      'lowerPopulation',
      null,
    ]);
  });

  it('answers $percentiles keyed by "50.0" with values interpolated between ranks (the hosted docs: 40, 76, 79.2)', () => {
    expect(run({ p: { $percentiles: { field: 'price', percents: [50, 95, 99, 12.5] } } })).toEqual([
      'p',
      ['values', ['50.0', 40, '95.0', 76, '99.0', '79.2', '12.5', 10]],
    ]);
  });

  it('uses percents 1, 5, 25, 50, 75, 95, 99 by default', () => {
    const [, [, values]] = run({ p: { $percentiles: { field: 'quantity' } } }) as [
      string,
      [string, unknown[]],
    ];
    expect(values.filter((_, i) => i % 2 === 0)).toEqual([
      '1.0',
      '5.0',
      '25.0',
      '50.0',
      '75.0',
      '95.0',
      '99.0',
    ]);
  });

  it('answers $percentiles with keyed: false as a list of { key, value }', () => {
    expect(run({ p: { $percentiles: { field: 'price', percents: [50, 95], keyed: false } } })).toEqual([
      'p',
      [
        'values',
        [
          ['key', 50, 'value', 40],
          ['key', 95, 'value', 76],
        ],
      ],
    ]);
  });

  it('answers $percentiles over no documents with nulls', () => {
    expect(run({ p: { $percentiles: { field: 'price', percents: [50] } } }, [])).toEqual([
      'p',
      ['values', ['50.0', null]],
    ]);
  });
});

describe('$terms', () => {
  it('buckets by value with docCount, sumOtherDocCount and docCountErrorUpperBound', () => {
    const extra = ['books', 'books', 'clothing'].map((category, i) => doc(`extra:${i}`, { category }));
    expect(run({ c: { $terms: { field: 'category' } } }, [...products, ...extra])).toEqual([
      'c',
      [
        'buckets',
        [
          ['key', 'books', 'docCount', 5],
          ['key', 'clothing', 'docCount', 4],
          ['key', 'electronics', 'docCount', 3],
        ],
        'sumOtherDocCount',
        0,
        'docCountErrorUpperBound',
        0,
      ],
    ]);
  });

  it('keeps `size` buckets and counts the rest in sumOtherDocCount', () => {
    const docs = ['a', 'a', 'a', 'b', 'b', 'c', 'd'].map((tag, i) => doc(`d${i}`, { tags: tag }));
    expect(run({ t: { $terms: { field: 'tags', size: 2 } } }, docs)).toEqual([
      't',
      [
        'buckets',
        [
          ['key', 'a', 'docCount', 3],
          ['key', 'b', 'docCount', 2],
        ],
        'sumOtherDocCount',
        2,
        'docCountErrorUpperBound',
        0,
      ],
    ]);
  });

  it('reports the first term dropped beyond segmentSize as the error bound', () => {
    const docs = ['a', 'a', 'a', 'b', 'b', 'c', 'd'].map((tag, i) => doc(`d${i}`, { tags: tag }));
    const [, [, , , other, , bound]] = run(
      { t: { $terms: { field: 'tags', size: 1, segmentSize: 2 } } },
      docs,
    ) as [string, unknown[]];
    expect([other, bound]).toEqual([4, 1]);
  });

  it('keys numeric terms as numbers and counts a document once per distinct value of an array', () => {
    const docs = [doc('a', { rating: [5, 5, 3] }), doc('b', { rating: 5 })];
    expect(run({ r: { $terms: { field: 'rating' } } }, docs)).toEqual([
      'r',
      [
        'buckets',
        [
          ['key', 5, 'docCount', 2],
          ['key', 3, 'docCount', 1],
        ],
        'sumOtherDocCount',
        0,
        'docCountErrorUpperBound',
        0,
      ],
    ]);
  });

  it('keys BOOL terms as 1 / 0 with keyAsString, and DATE terms with their RFC 3339 instant', () => {
    const docs = [
      doc('a', { inStock: true, createdAt: Date.UTC(2024, 0, 1) }),
      doc('b', { inStock: true, createdAt: Date.UTC(2024, 0, 1) }),
      doc('c', { inStock: false, createdAt: Date.UTC(2024, 0, 2, 0, 0, 0, 500) }),
    ];
    expect(run({ s: { $terms: { field: 'inStock' } }, d: { $terms: { field: 'createdAt' } } }, docs)).toEqual(
      [
        's',
        [
          'buckets',
          [
            ['key', 1, 'keyAsString', 'true', 'docCount', 2],
            ['key', 0, 'keyAsString', 'false', 'docCount', 1],
          ],
          'sumOtherDocCount',
          0,
          'docCountErrorUpperBound',
          0,
        ],
        'd',
        [
          'buckets',
          [
            ['key', 1704067200000, 'keyAsString', '2024-01-01T00:00:00Z', 'docCount', 2],
            ['key', 1704153600500, 'keyAsString', '2024-01-02T00:00:00.5Z', 'docCount', 1],
          ],
          'sumOtherDocCount',
          0,
          'docCountErrorUpperBound',
          0,
        ],
      ],
    );
  });

  it('orders by key, and then shows no error bound unless asked', () => {
    expect(run({ c: { $terms: { field: 'category', order: { key: 'desc' } } } })).toEqual([
      'c',
      [
        'buckets',
        [
          ['key', 'electronics', 'docCount', 3],
          ['key', 'clothing', 'docCount', 3],
          ['key', 'books', 'docCount', 3],
        ],
        'sumOtherDocCount',
        0,
      ],
    ]);
    const [, asked] = run({
      c: { $terms: { field: 'category', order: { _key: 'asc' }, showTermDocCountError: true } },
    }) as [string, unknown[]];
    expect(asked.slice(2)).toEqual(['sumOtherDocCount', 0, 'docCountErrorUpperBound', 0]);
    expect((asked[1] as unknown[][]).map((bucket) => bucket[1])).toEqual([
      'books',
      'clothing',
      'electronics',
    ]);
  });

  it('orders by a sub-aggregation, a stats one by its property', () => {
    const keysOf = (reply: unknown): unknown[] =>
      (reply as [string, [string, unknown[][]]])[1][1].map((b) => b[1]);
    const byAvg = {
      $terms: { field: 'categoryId', order: { avg: 'asc' } },
      $aggs: { avg: { $avg: { field: 'price' } } },
    };
    expect(keysOf(run({ t: byAvg }))).toEqual([0, 1, 2]);
    const byMax = {
      $terms: { field: 'category', order: { 's.max': 'desc' } },
      $aggs: { s: { $stats: { field: 'price' } } },
    };
    expect(keysOf(run({ t: byMax }))).toEqual(['books', 'clothing', 'electronics']);
  });

  it('puts documents without the field in the `missing` bucket, and drops buckets below minDocCount', () => {
    const docs = [doc('a', { tags: 'x' }), doc('b', { tags: 'x' }), doc('c', { tags: 'y' }), doc('d', {})];
    expect(run({ t: { $terms: { field: 'tags', missing: 'none', minDocCount: 2 } } }, docs)).toEqual([
      't',
      ['buckets', [['key', 'x', 'docCount', 2]], 'sumOtherDocCount', 0, 'docCountErrorUpperBound', 0],
    ]);
    const [, [, buckets]] = run({ t: { $terms: { field: 'tags', missing: 'none' } } }, docs) as [
      string,
      [string, unknown[][]],
    ];
    expect(buckets).toContainEqual(['key', 'none', 'docCount', 1]);
  });

  it('keeps only the terms `include` names and drops those `exclude` names', () => {
    const keys = (options: object): unknown =>
      (
        run({ t: { $terms: { field: 'category', ...options } } }) as [string, [string, unknown[][]]]
      )[1][1].map((b) => b[1]);
    expect(keys({ include: 'b.*|cloth.*' })).toEqual(['books', 'clothing']);
    expect(keys({ include: 'ook' })).toEqual([]);
    expect(keys({ exclude: ['books'] })).toEqual(['clothing', 'electronics']);
    expect(keys({ include: ['books', 'clothing'], exclude: 'c.*' })).toEqual(['books']);
  });

  it('computes $aggs per bucket (the SDK test: average price per categoryId)', () => {
    const [, [, buckets]] = run({
      by_cat: {
        $terms: { field: 'categoryId' },
        $aggs: { avg_price: { $avg: { field: 'price' } }, sum_qty: { $sum: { field: 'quantity' } } },
      },
    }) as [string, [string, unknown[][]]];
    expect(buckets).toEqual(
      expect.arrayContaining([
        ['key', 0, 'docCount', 3, 'avg_price', ['value', 30], 'sum_qty', ['value', 9]],
        ['key', 1, 'docCount', 3, 'avg_price', ['value', 40], 'sum_qty', ['value', 12]],
        ['key', 2, 'docCount', 3, 'avg_price', ['value', 50], 'sum_qty', ['value', 15]],
      ]),
    );
    expect(buckets).toHaveLength(3);
  });

  it('nests bucket aggregations in buckets', () => {
    const [, [, buckets]] = run({
      c: {
        $terms: { field: 'category', size: 1, order: { key: 'asc' } },
        $aggs: { h: { $histogram: { field: 'price', interval: 50 } } },
      },
    }) as [string, [string, unknown[][]]];
    expect(buckets).toEqual([
      [
        'key',
        'books',
        'docCount',
        3,
        'h',
        [
          'buckets',
          [
            ['key', 0, 'docCount', 1],
            ['key', 50, 'docCount', 2],
          ],
        ],
      ],
    ]);
  });

  it("leaves equal counts in the order of Tantivy's hash maps (the SDK test: categoryIds 2, 0, 1)", () => {
    const keysOf = (reply: unknown): unknown[] =>
      (reply as [string, [string, unknown[][]]])[1][1].map((bucket) => bucket[1]);
    expect(keysOf(run({ by_cat: { $terms: { field: 'categoryId' } } }))).toEqual([2, 0, 1]);
    // The same documents in another order: the order comes from the keys' hashes, not from the documents.
    expect(keysOf(run({ by_cat: { $terms: { field: 'categoryId' } } }, [...products].reverse()))).toEqual([
      2, 0, 1,
    ]);
  });

  it("puts equal counts in key order beyond 20 terms, where Tantivy's own order is its unstable sort's", () => {
    const docs = Array.from({ length: 25 }, (_, i) => doc(`d${i}`, { price: 24 - i }));
    const [, [, buckets]] = run({ t: { $terms: { field: 'price', size: 25 } } }, docs) as [
      string,
      [string, unknown[][]],
    ];
    expect(buckets.map((bucket) => bucket[1])).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('answers no buckets over no documents', () => {
    expect(run({ c: { $terms: { field: 'category' } } }, [])).toEqual([
      'c',
      ['buckets', [], 'sumOtherDocCount', 0, 'docCountErrorUpperBound', 0],
    ]);
  });
});

describe('$range', () => {
  it('buckets with `from` inclusive and `to` exclusive, keyed "from-to" (the SDK test)', () => {
    expect(
      run({
        tiers: { $range: { field: 'price', ranges: [{ to: 30 }, { from: 30, to: 60 }, { from: 60 }] } },
      }),
    ).toEqual([
      'tiers',
      [
        'buckets',
        [
          ['key', '*-30', 'docCount', 3, 'to', 30],
          ['key', '30-60', 'docCount', 3, 'from', 30, 'to', 60],
          ['key', '60-*', 'docCount', 3, 'from', 60],
        ],
      ],
    ]);
  });

  it('adds the ranges Tantivy adds to cover every value, sorts by from, and uses custom keys', () => {
    expect(
      run({
        r: {
          $range: {
            field: 'price',
            ranges: [
              { from: 45.5, to: 70 },
              { key: 'cheap', from: 10, to: 20 },
            ],
          },
        },
      }),
    ).toEqual([
      'r',
      [
        'buckets',
        [
          ['key', '*-10', 'docCount', 1, 'to', 10],
          ['key', 'cheap', 'docCount', 1, 'from', 10, 'to', 20],
          ['key', '20-45.5', 'docCount', 3, 'from', 20, 'to', '45.5'],
          ['key', '45.5-70', 'docCount', 2, 'from', '45.5', 'to', 70],
          ['key', '70-*', 'docCount', 2, 'from', 70],
        ],
      ],
    ]);
  });

  it('answers keyed: true as an object by key', () => {
    expect(
      run({ r: { $range: { field: 'price', ranges: [{ to: 50 }, { from: 50 }], keyed: true } } }),
    ).toEqual([
      'r',
      [
        'buckets',
        [
          '*-50',
          ['key', '*-50', 'docCount', 5, 'to', 50],
          '50-*',
          ['key', '50-*', 'docCount', 4, 'from', 50],
        ],
      ],
    ]);
  });

  it('computes $aggs per range (the SDK test: quantity stats per price range)', () => {
    const [, [, buckets]] = run({
      r: {
        $range: { field: 'price', ranges: [{ to: 30 }, { from: 30 }] },
        $aggs: { q: { $stats: { field: 'quantity' } } },
      },
    }) as [string, [string, unknown[][]]];
    expect(buckets[0]).toEqual([
      'key',
      '*-30',
      'docCount',
      3,
      'to',
      30,
      'q',
      ['count', 3, 'min', 0, 'max', 2, 'sum', 3, 'avg', 1],
    ]);
  });

  it('names DATE ranges by their instants, with fromAsString and toAsString', () => {
    const day = Date.UTC(2024, 0, 2);
    const docs = [doc('a', { createdAt: day - 1 }), doc('b', { createdAt: day })];
    expect(
      run({ r: { $range: { field: 'createdAt', ranges: [{ to: day }, { from: day }] } } }, docs),
    ).toEqual([
      'r',
      [
        'buckets',
        [
          ['key', '*-2024-01-02T00:00:00Z', 'docCount', 1, 'to', day, 'toAsString', '2024-01-02T00:00:00Z'],
          [
            'key',
            '2024-01-02T00:00:00Z-*',
            'docCount',
            1,
            'from',
            day,
            'fromAsString',
            '2024-01-02T00:00:00Z',
          ],
        ],
      ],
    ]);
  });

  it('counts a document once per range however many of its values fall in it; empty ranges stay', () => {
    const docs = [doc('a', { rating: [1, 2, 12] })];
    expect(run({ r: { $range: { field: 'rating', ranges: [{ to: 10 }, { from: 10 }] } } }, docs)).toEqual([
      'r',
      [
        'buckets',
        [
          ['key', '*-10', 'docCount', 1, 'to', 10],
          ['key', '10-*', 'docCount', 1, 'from', 10],
        ],
      ],
    ]);
    expect(run({ r: { $range: { field: 'rating', ranges: [{ to: 10 }] } } }, [])).toEqual([
      'r',
      [
        'buckets',
        [
          ['key', '*-10', 'docCount', 0, 'to', 10],
          ['key', '10-*', 'docCount', 0, 'from', 10],
        ],
      ],
    ]);
  });
});

describe('$histogram and $dateHistogram', () => {
  it('buckets by interval from the lowest to the highest value (the SDK test)', () => {
    expect(run({ h: { $histogram: { field: 'price', interval: 30 } } })).toEqual([
      'h',
      [
        'buckets',
        [
          ['key', 0, 'docCount', 3],
          ['key', 30, 'docCount', 3],
          ['key', 60, 'docCount', 3],
        ],
      ],
    ]);
  });

  it('fills empty buckets between values, and drops them with minDocCount', () => {
    const docs = [doc('a', { price: 5 }), doc('b', { price: 35 }), doc('c', { price: 38 })];
    expect(run({ h: { $histogram: { field: 'price', interval: 10 } } }, docs)).toEqual([
      'h',
      [
        'buckets',
        [
          ['key', 0, 'docCount', 1],
          ['key', 10, 'docCount', 0],
          ['key', 20, 'docCount', 0],
          ['key', 30, 'docCount', 2],
        ],
      ],
    ]);
    expect(run({ h: { $histogram: { field: 'price', interval: 10, minDocCount: 2 } } }, docs)).toEqual([
      'h',
      ['buckets', [['key', 30, 'docCount', 2]]],
    ]);
  });

  it('shifts boundaries by offset and writes fractional keys as strings', () => {
    const docs = [doc('a', { price: 4 }), doc('b', { price: 5 }), doc('c', { price: 7.4 })];
    expect(run({ h: { $histogram: { field: 'price', interval: 2.5, offset: 0.5 } } }, docs)).toEqual([
      'h',
      [
        'buckets',
        [
          ['key', 3, 'docCount', 2],
          ['key', '5.5', 'docCount', 1],
        ],
      ],
    ]);
    expect(run({ h: { $histogram: { field: 'price', interval: 2.5, offset: 1 } } }, docs)).toEqual([
      'h',
      [
        'buckets',
        [
          ['key', '3.5', 'docCount', 2],
          ['key', 6, 'docCount', 1],
        ],
      ],
    ]);
  });

  it('widens to extendedBounds (also over no documents) and clamps to hardBounds', () => {
    expect(
      run({ h: { $histogram: { field: 'price', interval: 50, extendedBounds: { min: -50, max: 120 } } } }),
    ).toEqual([
      'h',
      [
        'buckets',
        [
          ['key', -50, 'docCount', 0],
          ['key', 0, 'docCount', 5],
          ['key', 50, 'docCount', 4],
          ['key', 100, 'docCount', 0],
        ],
      ],
    ]);
    expect(
      run({ h: { $histogram: { field: 'price', interval: 50, extendedBounds: { min: 0, max: 60 } } } }, []),
    ).toEqual([
      'h',
      [
        'buckets',
        [
          ['key', 0, 'docCount', 0],
          ['key', 50, 'docCount', 0],
        ],
      ],
    ]);
    expect(
      run({ h: { $histogram: { field: 'price', interval: 30, hardBounds: { min: 25, max: 65 } } } }),
    ).toEqual([
      'h',
      [
        'buckets',
        [
          ['key', 30, 'docCount', 3],
          ['key', 60, 'docCount', 1],
        ],
      ],
    ]);
  });

  it('answers keyed: true as an object by key, and no buckets over no documents', () => {
    expect(run({ h: { $histogram: { field: 'price', interval: 50, keyed: true } } })).toEqual([
      'h',
      ['buckets', ['0', ['key', 0, 'docCount', 5], '50', ['key', 50, 'docCount', 4]]],
    ]);
    expect(run({ h: { $histogram: { field: 'price', interval: 50 } } }, [])).toEqual(['h', ['buckets', []]]);
  });

  it('computes $aggs per bucket (the SDK test: average quantity per price bucket)', () => {
    const [, [, buckets]] = run({
      h: { $histogram: { field: 'price', interval: 30 }, $aggs: { q: { $avg: { field: 'quantity' } } } },
    }) as [string, [string, unknown[][]]];
    expect(buckets.map((bucket) => bucket.at(-1))).toEqual([
      ['value', 1],
      ['value', 4],
      ['value', 7],
    ]);
  });

  it('refuses more buckets than Tantivy builds', () => {
    const docs = [doc('a', { price: 0 }), doc('b', { price: 1e9 })];
    expect(errorOf(JSON.stringify({ h: { $histogram: { field: 'price', interval: 1 } } }), docs)).toBe(
      "ERR Aggregation 'h' would create more than 65000 buckets; use a larger interval",
    );
  });

  it("takes a DATE histogram's bounds as RFC 3339 instants too", () => {
    const start = Date.UTC(2024, 0, 1);
    const docs = [doc('a', { createdAt: start + 3_600_000 })];
    const bounds = { min: '2024-01-01T00:00:00Z', max: '2024-01-01T03:00:00Z' };
    const [, [, buckets]] = run(
      { d: { $dateHistogram: { field: 'createdAt', fixedInterval: '1h', extendedBounds: bounds } } },
      docs,
    ) as [string, [string, unknown[][]]];
    expect(buckets.map((bucket) => [bucket[1], bucket[3]])).toEqual([
      [start, 0],
      [start + 3_600_000, 1],
      [start + 7_200_000, 0],
      [start + 10_800_000, 0],
    ]);
  });

  it('buckets DATE values by a fixed interval with keyAsString', () => {
    const day = 86_400_000;
    const start = Date.UTC(2024, 0, 1);
    const docs = [doc('a', { createdAt: start + 1000 }), doc('b', { createdAt: start + 2 * day + 5 })];
    expect(run({ d: { $dateHistogram: { field: 'createdAt', fixedInterval: '1d' } } }, docs)).toEqual([
      'd',
      [
        'buckets',
        [
          ['key', start, 'docCount', 1, 'keyAsString', '2024-01-01T00:00:00Z'],
          ['key', start + day, 'docCount', 0, 'keyAsString', '2024-01-02T00:00:00Z'],
          ['key', start + 2 * day, 'docCount', 1, 'keyAsString', '2024-01-03T00:00:00Z'],
        ],
      ],
    ]);
    expect(
      run(
        {
          d: { $dateHistogram: { field: 'createdAt', fixedInterval: '12h', offset: '-6h', minDocCount: 1 } },
        },
        docs,
      ),
    ).toEqual([
      'd',
      [
        'buckets',
        [
          ['key', start - 6 * 3_600_000, 'docCount', 1, 'keyAsString', '2023-12-31T18:00:00Z'],
          ['key', start + 42 * 3_600_000, 'docCount', 1, 'keyAsString', '2024-01-02T18:00:00Z'],
        ],
      ],
    ]);
  });
});

describe('$facet', () => {
  const books = [
    doc('a', { path: '/category/books/fiction', price: 10 }),
    doc('b', { path: '/category/books/nonfiction', price: 20 }),
    doc('c', { path: '/category/electronics/phones', price: 30 }),
    doc('d', { path: '/category/electronics/laptops', price: 40 }),
    doc('e', { path: '/category/electronics/laptops', price: 50 }),
    doc('f', { path: '/brand/acme', price: 60 }),
  ];

  it('counts documents per child of `path` (depth 1)', () => {
    expect(run({ f: { $facet: { field: 'path', path: '/category' } } }, books)).toEqual([
      'f',
      [
        'path',
        '/category',
        'sumOtherDocCount',
        0,
        'children',
        [
          ['path', '/category/electronics', 'docCount', 3, 'sumOtherDocCount', 0],
          ['path', '/category/books', 'docCount', 2, 'sumOtherDocCount', 0],
        ],
      ],
    ]);
  });

  it('nests children to `depth` levels', () => {
    expect(
      run({ f: { $facet: { field: 'path', path: '/category/', depth: 2, order: { path: 'asc' } } } }, books),
    ).toEqual([
      'f',
      [
        'path',
        '/category',
        'sumOtherDocCount',
        0,
        'children',
        [
          [
            'path',
            '/category/books',
            'docCount',
            2,
            'sumOtherDocCount',
            0,
            'children',
            [
              ['path', '/category/books/fiction', 'docCount', 1, 'sumOtherDocCount', 0],
              ['path', '/category/books/nonfiction', 'docCount', 1, 'sumOtherDocCount', 0],
            ],
          ],
          [
            'path',
            '/category/electronics',
            'docCount',
            3,
            'sumOtherDocCount',
            0,
            'children',
            [
              ['path', '/category/electronics/laptops', 'docCount', 2, 'sumOtherDocCount', 0],
              ['path', '/category/electronics/phones', 'docCount', 1, 'sumOtherDocCount', 0],
            ],
          ],
        ],
      ],
    ]);
  });

  it('keeps `size` children per level, counting the rest in sumOtherDocCount; minDocCount drops small ones', () => {
    expect(run({ f: { $facet: { field: 'path', path: '/', size: 1 } } }, books)).toEqual([
      'f',
      [
        'path',
        '/',
        'sumOtherDocCount',
        1,
        'children',
        [['path', '/category', 'docCount', 5, 'sumOtherDocCount', 0]],
      ],
    ]);
    expect(
      run(
        { f: { $facet: { field: 'path', path: '/category', depth: 2, size: 1, order: { count: 'asc' } } } },
        books,
      ),
    ).toEqual([
      'f',
      [
        'path',
        '/category',
        'sumOtherDocCount',
        3,
        'children',
        [
          [
            'path',
            '/category/books',
            'docCount',
            2,
            'sumOtherDocCount',
            1,
            'children',
            [['path', '/category/books/fiction', 'docCount', 1, 'sumOtherDocCount', 0]],
          ],
        ],
      ],
    ]);
    const [, [, , , , , children]] = run(
      { f: { $facet: { field: 'path', path: '/category', minDocCount: 3 } } },
      books,
    ) as [string, unknown[]];
    expect(children).toEqual([['path', '/category/electronics', 'docCount', 3, 'sumOtherDocCount', 0]]);
  });

  it('answers no children over no documents, and sits beside other aggregations', () => {
    expect(
      run({ s: { $sum: { field: 'price' } }, f: { $facet: { field: 'path', path: '/category' } } }, []),
    ).toEqual(['s', ['value', 0], 'f', ['path', '/category', 'sumOtherDocCount', 0, 'children', []]]);
  });
});

describe('bad input', () => {
  it('refuses aggregations that are not a JSON object', () => {
    expect(errorOf('{"a": ')).toMatch(/^ERR Aggregations are not valid JSON: /);
    expect(errorOf('[]')).toBe('ERR Aggregations must be a JSON object');
    expect(errorOf('"avg"')).toBe('ERR Aggregations must be a JSON object');
  });

  it('refuses an alias that is not an object, has no operator, an unknown one or two (the hosted texts where known)', () => {
    expect(refused({ avg_price: '$avg' })).toBe("ERR Aggregation 'avg_price' must be a JSON object");
    expect(refused({ a: {} })).toBe("ERR Aggregation 'a' has no operator");
    expect(refused({ a: { $median: { field: 'price' } } })).toBe(
      "ERR Aggregation 'a' has unknown operator '$median'",
    );
    expect(refused({ a: { $avg: { field: 'price' }, $sum: { field: 'price' } } })).toBe(
      "ERR Aggregation 'a' has more than one operator: $avg, $sum",
    );
    expect(refused({ '': { $avg: { field: 'price' } } })).toBe('ERR Aggregation names must not be empty');
  });

  it('refuses a missing or unknown field, a field of the wrong type, and one that is not FAST', () => {
    expect(refused({ avg_price: { $avg: 'price' } })).toBe(
      "ERR Aggregation 'avg_price' is missing required 'field' property",
    );
    expect(refused({ a: { $avg: {} } })).toBe("ERR Aggregation 'a' is missing required 'field' property");
    expect(refused({ a: { $avg: { field: 'weight' } } })).toBe(
      "ERR Aggregation 'a' operator '$avg': field 'weight' is not in the index schema",
    );
    expect(refused({ a: { $avg: { field: 'category' } } })).toBe(
      "ERR Aggregation 'a' operator '$avg': field 'category' is KEYWORD, which $avg does not support",
    );
    expect(refused({ a: { $terms: { field: 'title' } } })).toBe(
      "ERR Aggregation 'a' operator '$terms': field 'title' is TEXT, which $terms does not support",
    );
    expect(refused({ a: { $facet: { field: 'category', path: '/' } } })).toMatch(
      /field 'category' is KEYWORD/,
    );
    expect(refused({ a: { $dateHistogram: { field: 'price', fixedInterval: '1d' } } })).toMatch(
      /field 'price' is F64/,
    );
    expect(refused({ a: { $extendedStats: { field: 'inStock' } } })).toMatch(/field 'inStock' is BOOL/);
    expect(refused({ a: { $avg: { field: 'slowPrice' } } })).toBe(
      "ERR Aggregation 'a' operator '$avg' requires field 'slowPrice' to be FAST",
    );
    expect(refused({ a: { $histogram: { field: 'updatedAt', interval: 1 } } })).toBe(
      "ERR Aggregation 'a' operator '$histogram' requires field 'updatedAt' to be FAST",
    );
  });

  it('refuses $aggs under a metric or $facet, and $facet inside $aggs', () => {
    expect(refused({ a: { $avg: { field: 'price' }, $aggs: { b: { $sum: { field: 'price' } } } } })).toBe(
      "ERR Aggregation 'a' operator '$avg' does not support nested $aggs",
    );
    expect(refused({ a: { $facet: { field: 'path', path: '/' }, $aggs: {} } })).toBe(
      "ERR Aggregation 'a' operator '$facet' does not support nested $aggs",
    );
    expect(
      refused({
        a: { $terms: { field: 'category' }, $aggs: { f: { $facet: { field: 'path', path: '/' } } } },
      }),
    ).toBe("ERR Aggregation 'f': $facet cannot be used inside $aggs");
    expect(
      refused({ a: { $terms: { field: 'category' }, $aggs: { docCount: { $sum: { field: 'price' } } } } }),
    ).toBe("ERR Aggregation 'docCount' inside $aggs would clash with the bucket's own 'docCount'");
    expect(refused({ a: { $terms: { field: 'category' }, $aggs: [] } })).toBe(
      "ERR Aggregation 'a': $aggs must be a JSON object",
    );
    expect(
      refused({ a: { $terms: { field: 'category' }, $aggs: { b: { $avg: { field: 'nope' } } } } }),
    ).toMatch(/^ERR Aggregation 'b' operator '\$avg': field 'nope'/);
  });

  it('refuses bad options', () => {
    const cases: [unknown, string][] = [
      [{ $avg: { field: 'price', missing: 'x' } }, 'missing must be a number'],
      [{ $avg: { field: 'price', colour: 'red' } }, "unknown option 'colour'"],
      [{ $extendedStats: { field: 'price', sigma: -1 } }, 'sigma must be greater than or equal to 0'],
      [{ $percentiles: { field: 'price', percents: [] } }, 'percents must not be empty'],
      [{ $percentiles: { field: 'price', percents: [101] } }, 'percents must be between 0 and 100'],
      [{ $percentiles: { field: 'price', percents: ['50'] } }, 'percents must be an array of numbers'],
      [{ $percentiles: { field: 'price', keyed: 'no' } }, 'keyed must be true or false'],
      [{ $terms: { field: 'category', size: 0 } }, 'size must be an integer of at least 1'],
      [{ $terms: { field: 'category', size: 2.5 } }, 'size must be an integer of at least 1'],
      [{ $terms: { field: 'category', order: { count: 'up' } } }, 'order direction must be "asc" or "desc"'],
      [
        { $terms: { field: 'category', order: { count: 'asc', key: 'asc' } } },
        'order must have exactly one key',
      ],
      [
        { $terms: { field: 'category', order: { avg: 'asc' } } },
        "order refers to 'avg', which is not one of its $aggs",
      ],
      [{ $terms: { field: 'category', include: '(' } }, 'include is not a valid regular expression'],
      [
        { $terms: { field: 'categoryId', include: '1.*' } },
        'include as a regular expression needs a KEYWORD field',
      ],
      [
        { $terms: { field: 'category', exclude: 5 } },
        'exclude must be a regular expression or an array of values',
      ],
      [{ $range: { field: 'price' } }, 'ranges must be a non-empty array'],
      [{ $range: { field: 'price', ranges: [] } }, 'ranges must be a non-empty array'],
      [{ $range: { field: 'price', ranges: [{ from: 'a' }] } }, 'ranges[0].from must be a number'],
      [{ $range: { field: 'price', ranges: [{ from: 5, to: 1 }] } }, 'ranges[0] has from greater than to'],
      [{ $range: { field: 'price', ranges: [{ from: 1, step: 1 }] } }, "ranges[0] has unknown option 'step'"],
      [
        { $range: { field: 'price', ranges: [{ to: 50 }, { from: 40 }] } },
        'overlapping ranges are not supported',
      ],
      [{ $histogram: { field: 'price' } }, 'interval is required'],
      [{ $histogram: { field: 'price', interval: 0 } }, 'interval must be a positive number'],
      [
        { $histogram: { field: 'price', interval: 1, hardBounds: { min: 1 } } },
        'hardBounds needs both min and max as numbers',
      ],
      [
        { $histogram: { field: 'price', interval: 1, extendedBounds: { min: 5, max: 1 } } },
        'extendedBounds.min must not be greater than extendedBounds.max',
      ],
      [
        {
          $histogram: {
            field: 'price',
            interval: 1,
            hardBounds: { min: 0, max: 10 },
            extendedBounds: { min: 0, max: 20 },
          },
        },
        'extendedBounds must lie within hardBounds',
      ],
      [
        { $histogram: { field: 'price', interval: 1, minDocCount: 1, extendedBounds: { min: 0, max: 9 } } },
        'minDocCount and extendedBounds cannot be set together',
      ],
      [
        {
          $dateHistogram: {
            field: 'createdAt',
            fixedInterval: '1d',
            hardBounds: { min: 'yesterday', max: 1 },
          },
        },
        'hardBounds needs both min and max as numbers or RFC 3339 instants',
      ],
      [{ $dateHistogram: { field: 'createdAt' } }, 'fixedInterval is required'],
      [
        { $dateHistogram: { field: 'createdAt', fixedInterval: '1w' } },
        'fixedInterval must be a number followed by ms, s, m, h or d',
      ],
      [
        { $dateHistogram: { field: 'createdAt', fixedInterval: '0d' } },
        'fixedInterval must be greater than zero',
      ],
      [{ $facet: { field: 'path' } }, 'path is required'],
      [{ $facet: { field: 'path', path: 'category' } }, "path must start with '/'"],
      [{ $facet: { field: 'path', path: '/', depth: 0 } }, 'depth must be an integer of at least 1'],
      [
        { $facet: { field: 'path', path: '/', order: { name: 'asc' } } },
        'order must be { "count": "asc"|"desc" }',
      ],
    ];
    for (const [definition, detail] of cases) {
      const operator = Object.keys(definition as object)[0]!;
      expect(refused({ a: definition })).toContain(`ERR Aggregation 'a' operator '${operator}': ${detail}`);
    }
  });

  it('checks every aggregation before computing any', () => {
    expect(refused({ ok: { $avg: { field: 'price' } }, bad: { $avg: { field: 'nope' } } })).toMatch(
      /^ERR Aggregation 'bad'/,
    );
  });
});

it('answers an empty aggregation object with an empty reply', () => {
  expect(run({})).toEqual([]);
});
