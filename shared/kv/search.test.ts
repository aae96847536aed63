import { describe, expect, it } from 'vitest';
import {
  checkSearchFilter,
  exampleFilter,
  filterFieldNames,
  orderableFields,
  type KvSearchField,
  SEARCH_FILTER_DEPTH_MAX,
  searchNameProblem,
} from './search';

const field = (name: string, type: string, fast = false): KvSearchField => ({
  name,
  type,
  fast,
  noTokenize: false,
  noStem: false,
});

/** The error of a filter the grammar refuses. */
function refusal(text: string): string {
  const check = checkSearchFilter(text);
  if (check.ok) throw new Error(`accepted: ${text}`);
  return check.error;
}

describe('checkSearchFilter', () => {
  it.each([
    '{}',
    '{"name": {"$eq": "laptop"}}',
    '{"inStock": true}',
    '{"category": ["electronics", "books"]}',
    '{"price": {"$gte": 10, "$lte": 100, "$boost": 2}}',
    '{"name": {"$in": ["laptop", "tablet"]}}',
    '{"name": {"$fuzzy": {"value": "lapto", "distance": 1}}}',
    '{"name": {"$phrase": {"value": "gaming laptop", "slop": 1}}}',
    '{"name": {"$smart": "gaming laptop"}, "address.city": {"$eq": "Berlin"}}',
    '{"$and": [{"category": {"$eq": "electronics"}}, {"price": {"$lte": 500}}]}',
    '{"$must": {"category": {"$eq": "electronics"}}, "$mustNot": [{"inStock": {"$eq": false}}], "$boost": 0.5}',
    '{"$or": [{"$should": [{"name": {"$regex": "lap.*"}}]}]}',
  ])('accepts %s', (text) => {
    expect(checkSearchFilter(text).ok).toBe(true);
  });

  it('says where JSON breaks, by line and column', () => {
    expect(refusal('{\n  "name": {"$eq" "x"}\n}')).toBe(
      `Not valid JSON: expected ':' after the name, found “"” (line 2, column 18).`,
    );
    expect(refusal('{"a": 1')).toBe(
      "Not valid JSON: expected ',' or '}', found the end of the text (line 1, column 8).",
    );
    expect(refusal("{'a': 1}")).toBe(
      `Not valid JSON: expected a name in double quotes, found “'” (line 1, column 2).`,
    );
    expect(refusal('{"a": tru}')).toMatch(/^Not valid JSON: expected a value .* \(line 1, column 7\)\.$/);
    expect(refusal('   ')).toMatch(/^Write a filter/);
  });

  it.each([
    ['[1]', 'A filter is a JSON object ({…}), not a list.'],
    ['"laptop"', 'A filter is a JSON object ({…}), not the text "laptop".'],
    [
      '{"name": {"$equals": "x"}}',
      /^Unknown operator \$equals for field "name" \(at name\): use one of \$eq, /,
    ],
    ['{"$not": [{"a": 1}]}', /^Unknown operator \$not: a filter combines conditions with \$and, /],
    ['{"name": {}}', 'Field "name" needs an operator such as $eq, $in, $gt or $smart (at name).'],
    ['{"name": []}', 'Field "name" has an empty list of values (at name).'],
    ['{"name": ["a", {"b": 1}]}', 'Field "name" lists text, numbers or booleans, not an object (at name).'],
    ['{"name": null}', 'Field "name" needs a value or a condition such as {"$eq": …}, not null (at name).'],
    ['{"price": {"$in": []}}', '$in takes a non-empty list of values (at price.$in).'],
    ['{"price": {"$gt": {"n": 1}}}', '$gt takes text, a number or a boolean, not an object (at price.$gt).'],
    ['{"$and": []}', '$and needs at least one condition (at $and).'],
    ['{"$and": [{"a": 1}, 3]}', '$and takes filters (JSON objects), not the number 3 (at $and[1]).'],
    [
      '{"$or": [{"a": {"$boost": "high", "$eq": 1}}]}',
      '$boost takes a number, not the text "high" (at $or[0].a.$boost).',
    ],
    [
      '{"address": {"city": "Berlin"}}',
      'Field "address" has "city" where an operator ($eq, $in, …) belongs (at address); a nested field is written with dots: "address.city".',
    ],
  ])('refuses %s', (text, error) => {
    if (typeof error === 'string') expect(refusal(text)).toBe(error);
    else expect(refusal(text)).toMatch(error);
  });

  it('refuses a filter nested deeper than the limit, and a text too long', () => {
    let deep = '{"a": 1}';
    for (let i = 0; i <= SEARCH_FILTER_DEPTH_MAX; i += 1) deep = `{"$and": [${deep}]}`;
    expect(refusal(deep)).toMatch(/nests deeper than 32 levels/);
    expect(refusal(`{"a": "${'x'.repeat(70_000)}"}`)).toBe('A filter is at most 64 KB of JSON.');
  });
});

describe('filterFieldNames', () => {
  it('lists the fields a filter names, inside the combinators too, once each', () => {
    const check = checkSearchFilter(
      '{"$and": [{"name": {"$eq": "x"}}, {"$or": [{"price": {"$gt": 1}}, {"name": "y"}]}], "$boost": 2}',
    );
    expect(check.ok && filterFieldNames(check.filter)).toEqual(['name', 'price']);
  });
});

describe('exampleFilter', () => {
  it('starts from the first TEXT field with $eq, else the first field by its type', () => {
    expect(JSON.parse(exampleFilter([field('price', 'F64'), field('title', 'TEXT')]))).toEqual({
      title: { $eq: 'word' },
    });
    expect(JSON.parse(exampleFilter([field('price', 'F64')]))).toEqual({ price: { $gte: 0 } });
    expect(JSON.parse(exampleFilter([field('live', 'BOOL')]))).toEqual({ live: { $eq: true } });
    expect(exampleFilter([])).toBe('{}');
    // Every example is a filter the grammar accepts.
    for (const type of ['TEXT', 'U64', 'I64', 'F64', 'BOOL', 'DATE', 'KEYWORD', 'FACET'])
      expect(checkSearchFilter(exampleFilter([field('f', type)])).ok).toBe(true);
  });
});

describe('searchNameProblem', () => {
  it('takes one argument without spaces or control characters', () => {
    expect(searchNameProblem('products-v1')).toBeUndefined();
    expect(searchNameProblem('idx:ü')).toBeUndefined();
    expect(searchNameProblem('')).toBe('an index name is needed');
    expect(searchNameProblem('two words')).toBe('an index name has no spaces or control characters');
    expect(searchNameProblem('a\u0000b', 'a field name')).toBe(
      'a field name has no spaces or control characters',
    );
    expect(searchNameProblem('x'.repeat(257))).toBe('an index name is at most 256 characters');
  });
});

describe('orderableFields', () => {
  it('offers the FAST fields only, in schema order', () => {
    const fields = [
      field('title', 'TEXT'),
      field('year', 'U64'),
      field('brand', 'FACET'),
      field('price', 'F64', true),
      field('sku', 'KEYWORD'),
      field('added', 'DATE', true),
    ];
    expect(orderableFields(fields).map((f) => f.name)).toEqual(['price', 'added']);
  });
});
