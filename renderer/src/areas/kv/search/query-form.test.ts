import { describe, expect, it } from 'vitest';
import type { KvSearchIndex } from '../../../../../shared/kv/search';
import { checkAggregateDraft, checkDraft, formatScore, initialDraft, resultColumns } from './query-form';

const products: KvSearchIndex = {
  name: 'products',
  dataType: 'hash',
  prefixes: ['product:'],
  language: 'english',
  fields: [
    { name: 'price', type: 'F64', fast: true, noTokenize: false, noStem: false },
    { name: 'name', type: 'TEXT', fast: false, noTokenize: false, noStem: false },
    { name: 'category', type: 'KEYWORD', fast: false, noTokenize: false, noStem: false },
  ],
};

describe('the query form', () => {
  it('starts from the first TEXT field with $eq and runs as typed', () => {
    const draft = initialDraft(products);
    expect(JSON.parse(draft.filter)).toEqual({ name: { $eq: 'word' } });
    expect(checkDraft('p', 'products', products, draft)).toEqual({
      errors: {},
      unknownFields: [],
      input: { profileId: 'p', index: 'products', filter: draft.filter, limit: 20, keysOnly: false },
    });
  });

  it('carries order, chosen fields and keys only into the input', () => {
    const draft = { ...initialDraft(products), orderBy: 'price', direction: 'desc' as const, limit: '5' };
    expect(
      checkDraft('p', 'products', products, { ...draft, returns: 'chosen', chosen: ['name'] }).input,
    ).toMatchObject({
      limit: 5,
      orderBy: { field: 'price', direction: 'desc' },
      select: ['name'],
      keysOnly: false,
    });
    const keys = checkDraft('p', 'products', products, { ...draft, returns: 'keys', chosen: ['name'] }).input;
    expect(keys?.keysOnly).toBe(true);
    expect(keys).not.toHaveProperty('select');
  });

  it('says what is wrong and offers nothing to run', () => {
    const draft = initialDraft(products);
    const bad = checkDraft('p', 'products', products, {
      ...draft,
      filter: '{"name": {"$eq": }',
      limit: '0',
      returns: 'chosen',
    });
    expect(bad.input).toBeUndefined();
    expect(bad.errors.filter).toMatch(/^Not valid JSON/);
    expect(bad.errors.limit).toBe('A whole number from 1 to 1000.');
    expect(bad.errors.chosen).toBe('Choose at least one field.');
  });

  it('points out names the schema lacks, yet lets the service answer', () => {
    const check = checkDraft('p', 'products', products, {
      ...initialDraft(products),
      filter: '{"$or": [{"colour": "red"}, {"name": {"$smart": "lamp"}}]}',
    });
    expect(check.unknownFields).toEqual(['colour']);
    expect(check.input).toBeDefined();
  });
});

describe('resultColumns', () => {
  it('puts the schema fields the rows carry first, in schema order, then the others', () => {
    expect(
      resultColumns(products, [
        {
          key: 'a',
          score: 1,
          fields: [
            ['name', 'x'],
            ['extra', 1],
          ],
        },
        { key: 'b', score: 1, fields: [['price', 2]] },
      ]),
    ).toEqual(['price', 'name', 'extra']);
    expect(resultColumns(products, [{ key: 'a', score: 1, fields: [] }])).toEqual([]);
  });
});

describe('formatScore', () => {
  it('shows four significant digits, whole scores and whole digits as they are', () => {
    expect(formatScore(2)).toBe('2');
    expect(formatScore(1.2345678)).toBe('1.235');
    expect(formatScore(0.0000123)).toBe('0.0000123');
    expect(formatScore(12345.6)).toBe('12346');
    expect(formatScore(123456)).toBe('123456');
    expect(formatScore(-3.14159)).toBe('-3.142');
  });

  it('shows a sort value (results ordered by a field) exactly', () => {
    expect(formatScore(207.49, 'price')).toBe('207.49');
    expect(formatScore(0.123456789, 'ratio')).toBe('0.123456789');
  });
});

describe('the aggregate form', () => {
  it('starts from $terms on the KEYWORD field with the FAST price averaged, and runs with the filter', () => {
    const draft = initialDraft(products);
    expect(draft.mode).toBe('query');
    expect(JSON.parse(draft.aggregations)).toEqual({
      by_category: {
        $terms: { field: 'category', size: 10 },
        $aggs: { avg_price: { $avg: { field: 'price' } } },
      },
    });
    expect(checkAggregateDraft('p', 'products', products, draft)).toEqual({
      errors: {},
      unknownFields: [],
      input: { profileId: 'p', index: 'products', filter: draft.filter, aggregations: draft.aggregations },
    });
  });

  it('says what is wrong with either text as it is typed, and names fields the schema lacks', () => {
    const bad = {
      ...initialDraft(products),
      filter: '{"a": ',
      aggregations: '{"x": {"$mean": {"field": "p"}}}',
    };
    const check = checkAggregateDraft('p', 'products', products, bad);
    expect(check.input).toBeUndefined();
    expect(check.errors.filter).toMatch(/^Not valid JSON/);
    expect(check.errors.aggregations).toMatch(/^Unknown operator \$mean/);
    const unknown = {
      ...initialDraft(products),
      filter: '{"colour": "red"}',
      aggregations: '{"x": {"$avg": {"field": "weight"}}}',
    };
    expect(checkAggregateDraft('p', 'products', products, unknown).unknownFields).toEqual([
      'colour',
      'weight',
    ]);
  });
});
