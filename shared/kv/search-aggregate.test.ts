import { describe, expect, it } from 'vitest';
import type { KvSearchField } from './search';
import {
  aggregateView,
  aggregationFieldNames,
  checkSearchAggregations,
  exampleAggregations,
  type KvAggregateNode,
  SEARCH_AGGREGATIONS_DEPTH_MAX,
  SEARCH_AGGREGATIONS_MAX,
} from './search-aggregate';

const field = (name: string, type: string, fast = false): KvSearchField => ({
  name,
  type,
  fast,
  noTokenize: false,
  noStem: false,
});

function refusal(text: string): string {
  const check = checkSearchAggregations(text);
  if (check.ok) throw new Error(`accepted: ${text}`);
  return check.error;
}

describe('checkSearchAggregations', () => {
  it.each([
    '{"avg_price": {"$avg": {"field": "price"}}}',
    '{"s": {"$stats": {"field": "price"}}, "p": {"$percentiles": {"field": "price", "percents": [50, 95]}}}',
    '{"by": {"$terms": {"field": "category", "size": 5}, "$aggs": {"avg": {"$avg": {"field": "price"}}}}}',
    '{"r": {"$range": {"field": "price", "ranges": [{"to": 50}, {"from": 50}]}}}',
    '{"f": {"$facet": {"field": "path", "path": "/"}}}',
  ])('accepts %s', (text) => {
    expect(checkSearchAggregations(text).ok).toBe(true);
  });

  it.each([
    ['', /^Write aggregations/],
    ['{"a": ', /^Not valid JSON: expected a value .*, found the end of the text \(line 1, column 7\)/],
    ['[]', 'Aggregations are a JSON object ({…}), not a list.'],
    ['{}', /^Name at least one aggregation/],
    ['{"$avg": {"field": "price"}}', /^"\$avg" is where an aggregation's name belongs/],
    ['{"a": 1}', /^Aggregation "a" is an object such as .*, not the number 1 \(at a\)/],
    ['{"a": {"$mean": {"field": "x"}}}', /^Unknown operator \$mean \(at a\): use one of \$avg, /],
    ['{"a": {"field": "x"}}', /^Aggregation "a" has "field" where an operator/],
    ['{"a": {}}', /^Aggregation "a" needs exactly one operator \(none given\)/],
    [
      '{"a": {"$avg": {"field": "x"}, "$sum": {"field": "x"}}}',
      /exactly one operator \(\$avg, \$sum given\)/,
    ],
    ['{"a": {"$avg": "price"}}', /^\$avg takes an object of options .* \(at a\.\$avg\)/],
    ['{"a": {"$avg": {}}}', /^\$avg needs a "field"/],
    [
      '{"a": {"$avg": {"field": "x"}, "$aggs": {}}}',
      /^Only \$terms, \$range, \$histogram and \$dateHistogram take nested/,
    ],
    ['{"a": {"$terms": {"field": "x"}, "$aggs": []}}', /^\$aggs is an object of aggregations/],
    [
      '{"a": {"$terms": {"field": "x"}, "$aggs": {"b": {"$nope": {}}}}}',
      /Unknown operator \$nope \(at a\.\$aggs\.b\)/,
    ],
  ])('refuses %j: %s', (text, message) => {
    if (typeof message === 'string') expect(refusal(text)).toBe(message);
    else expect(refusal(text)).toMatch(message);
  });

  it('refuses text over the size limit and nesting past the depth limit', () => {
    expect(refusal(`{"a": {"$avg": {"field": "${'x'.repeat(SEARCH_AGGREGATIONS_MAX)}"}}}`)).toMatch(
      /at most 16 KB/,
    );
    let nested = '{"leaf": {"$avg": {"field": "x"}}}';
    for (let i = 0; i <= SEARCH_AGGREGATIONS_DEPTH_MAX; i += 1)
      nested = `{"l${i}": {"$terms": {"field": "x"}, "$aggs": ${nested}}}`;
    expect(refusal(nested)).toMatch(/nest deeper than 8 levels/);
  });

  it('names the fields used, nested ones included, once each', () => {
    const check = checkSearchAggregations(
      '{"a": {"$terms": {"field": "cat"}, "$aggs": {"b": {"$avg": {"field": "price"}}}}, "c": {"$sum": {"field": "price"}}}',
    );
    expect(check.ok && aggregationFieldNames(check.aggregations)).toEqual(['cat', 'price']);
  });
});

describe('exampleAggregations', () => {
  it('groups by the first KEYWORD field, averaging the first numeric FAST field in each bucket', () => {
    const text = exampleAggregations([
      field('name', 'TEXT'),
      field('stock', 'U64'),
      field('price', 'F64', true),
      field('category', 'KEYWORD'),
    ]);
    expect(JSON.parse(text)).toEqual({
      by_category: {
        $terms: { field: 'category', size: 10 },
        $aggs: { avg_price: { $avg: { field: 'price' } } },
      },
    });
    expect(checkSearchAggregations(text).ok).toBe(true);
  });

  it('takes $facet for a FACET field, $stats without a keyword, a count otherwise', () => {
    expect(JSON.parse(exampleAggregations([field('tags', 'FACET')]))).toEqual({
      by_tags: { $facet: { field: 'tags', path: '/' } },
    });
    expect(
      JSON.parse(
        exampleAggregations([field('name', 'TEXT'), field('n', 'U64'), field('meta.year', 'U64', true)]),
      ),
    ).toEqual({ meta_year_stats: { $stats: { field: 'meta.year' } } });
    // A numeric field without FAST is not aggregated by the service: no $stats on it, no average nested.
    expect(JSON.parse(exampleAggregations([field('n', 'U64'), field('cat', 'KEYWORD')]))).toEqual({
      by_cat: { $terms: { field: 'cat', size: 10 } },
    });
    expect(JSON.parse(exampleAggregations([field('name', 'TEXT'), field('n', 'U64')]))).toEqual({
      name_count: { $count: { field: 'name' } },
    });
    expect(exampleAggregations([])).toBe('{}');
  });
});

const v = (value: string | number | null): KvAggregateNode => ({ kind: 'value', value });
const o = (...entries: [string, KvAggregateNode][]): KvAggregateNode => ({ kind: 'object', entries });
const l = (...items: KvAggregateNode[]): KvAggregateNode => ({ kind: 'list', items });

describe('aggregateView', () => {
  it('reads a value and $stats as metrics, percentiles by percent', () => {
    expect(aggregateView(o(['value', v(3.5)]))).toEqual({ kind: 'metrics', rows: [['value', 3.5]] });
    expect(aggregateView(o(['count', v(3)], ['min', v(1)], ['max', v(9)]))).toEqual({
      kind: 'metrics',
      rows: [
        ['count', 3],
        ['min', 1],
        ['max', 9],
      ],
    });
    const percentiles = {
      kind: 'metrics',
      rows: [
        ['25', 1],
        ['50', 2],
      ],
    };
    expect(aggregateView(o(['values', o(['25', v(1)], ['50', v(2)])]))).toEqual(percentiles);
    expect(
      aggregateView(o(['values', l(o(['key', v(25)], ['value', v(1)]), o(['key', v(50)], ['value', v(2)]))])),
    ).toEqual(percentiles);
  });

  it('reads buckets with their nested values, keyed ones by their key, and the extras', () => {
    const view = aggregateView(
      o(
        [
          'buckets',
          l(
            o(['key', v('furniture')], ['docCount', v(2)], ['avg_price', o(['value', v(150.5)])]),
            o(
              ['key', v(1)],
              ['keyAsString', v('true')],
              ['docCount', v(1)],
              ['s', o(['min', v(1)], ['max', v(2)])],
            ),
          ),
        ],
        ['sumOtherDocCount', v(0)],
      ),
    );
    expect(view).toEqual({
      kind: 'buckets',
      columns: ['avg_price', 's'],
      buckets: [
        { key: 'furniture', docCount: 2, values: new Map([['avg_price', '150.5']]) },
        { key: 'true', docCount: 1, values: new Map([['s', '{"min":1,"max":2}']]) },
      ],
      extras: [['sumOtherDocCount', '0']],
    });
    const keyed = aggregateView(o(['buckets', o(['*-50', o(['to', v(50)], ['docCount', v(4)])])]));
    expect(keyed).toEqual({
      kind: 'buckets',
      columns: ['to'],
      buckets: [{ key: '*-50', docCount: 4, values: new Map([['to', '50']]) }],
      extras: [],
    });
  });

  it('shows any other shape as formatted JSON', () => {
    const facet = o(['children', l(o(['path', v('/a')], ['docCount', v(2)], ['children', l()]))]);
    const view = aggregateView(facet);
    expect(view.kind).toBe('json');
    expect(view.kind === 'json' && JSON.parse(view.text)).toEqual({
      children: [{ path: '/a', docCount: 2, children: [] }],
    });
  });
});
