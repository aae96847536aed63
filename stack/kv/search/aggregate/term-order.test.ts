// The iteration orders below were printed by Rust 1.95's own std HashMap (hashbrown) with rustc-hash 1.x's
// FxHasher and an `IntermediateKey` hashed as Tantivy hashes it, for the same keys inserted in the same order.
import { describe, expect, it } from 'vitest';

import type { SearchFieldType, SearchValue } from '../types';
import { mergeOrder, segmentOrder } from './term-order';

function indexesIn(
  order: (keys: { key: SearchValue; i: number }[]) => { i: number }[],
  keys: SearchValue[],
): number[] {
  return order(keys.map((key, i) => ({ key, i }))).map(({ i }) => i);
}

const merge = (type: SearchFieldType) => (keys: { key: SearchValue; i: number }[]) => mergeOrder(keys, type);

describe("Tantivy's merge map (room reserved for every key)", () => {
  it('orders KEYWORD terms as Rust does', () => {
    const words = [
      'electronics',
      'clothing',
      'books',
      'toys',
      'garden',
      'sports',
      'music',
      'movies',
      'food',
      'tools',
    ];
    expect(indexesIn(merge('KEYWORD'), words)).toEqual([9, 7, 5, 8, 3, 1, 4, 6, 0, 2]);
  });

  it('orders U64 terms as Rust does', () => {
    const keys = Array.from({ length: 13 }, (_, i) => i);
    expect(indexesIn(merge('U64'), keys)).toEqual([2, 8, 5, 6, 3, 12, 9, 10, 7, 0, 11, 4, 1]);
  });

  it("orders an F64 column's whole numbers as the U64 / I64 keys Tantivy makes of them", () => {
    const keys = Array.from({ length: 11 }, (_, i) => i - 5);
    expect(indexesIn(merge('F64'), keys)).toEqual([6, 7, 9, 4, 1, 8, 10, 2, 5, 3, 0]);
  });

  it('orders fractional F64 terms and BOOL terms as Rust does', () => {
    expect(indexesIn(merge('F64'), [0.5, 1.25, 2.75, -0.5, 3.1, 100.01])).toEqual([2, 3, 4, 5, 0, 1]);
    expect(indexesIn(merge('BOOL'), [true, false])).toEqual([1, 0]);
  });
});

describe("Tantivy's segment map", () => {
  it("orders an F64 column's values as Rust does, growing from empty", () => {
    const values = Array.from({ length: 30 }, (_, i) => ((i + 1) / 10) * (i % 3 === 0 ? -1 : 1));
    expect(indexesIn((keys) => segmentOrder(keys, 'F64'), values)).toEqual([
      4, 14, 19, 29, 0, 3, 15, 21, 6, 18, 27, 8, 17, 20, 25, 12, 13, 22, 1, 7, 10, 26, 9, 24, 2, 11, 5, 16,
      23, 28,
    ]);
  });

  it('keeps other columns in ascending order (their ids fit its vector)', () => {
    expect(indexesIn((keys) => segmentOrder(keys, 'KEYWORD'), ['pear', 'apple', 'fig'])).toEqual([1, 2, 0]);
    expect(indexesIn((keys) => segmentOrder(keys, 'U64'), [7, 3, 5])).toEqual([1, 2, 0]);
  });
});
