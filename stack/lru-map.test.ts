// LruMap (lru-map.ts): the least recently used entry goes first, a get is a use and a peek is not.
import { describe, expect, it } from 'vitest';
import { LruMap } from './lru-map';

describe('LruMap', () => {
  it('keeps at most its limit, forgetting the least recently used and telling onEvict', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(2, (key, value) => evicted.push(`${key}=${value}`));
    map.set('a', 1);
    map.set('b', 2);
    expect(map.get('a')).toBe(1); // a is now the most recently used
    map.set('c', 3);
    expect(evicted).toEqual(['b=2']);
    expect(map.peek('b')).toBeUndefined();
    expect(map.size).toBe(2);
    // peek does not count as a use: a stays the oldest.
    expect(map.peek('a')).toBe(1);
    map.set('d', 4);
    expect(evicted).toEqual(['b=2', 'a=1']);
    expect([map.peek('c'), map.peek('d')]).toEqual([3, 4]);
  });

  it('set of a kept key replaces it as the newest; delete forgets without onEvict; evictOldest on demand', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(3, (key) => evicted.push(key));
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 10);
    expect(map.size).toBe(2);
    expect(map.delete('b')).toBe(true);
    expect(map.delete('b')).toBe(false);
    expect(evicted).toEqual([]);
    map.set('c', 3);
    expect(map.evictOldest()).toBe(true);
    expect(evicted).toEqual(['a']);
    expect(map.get('a')).toBeUndefined();
    expect(map.evictOldest()).toBe(true);
    expect(map.evictOldest()).toBe(false);
    expect(map.size).toBe(0);
  });
});
