// A Map that remembers the order its entries were last used in and keeps at most `limit` of them, forgetting
// the least recently used first. Used by the stack's in-memory caches of active workflow runs
// (stack/workflows/log-cache.ts, stack/workflows/active-runs.ts). A JavaScript Map iterates in insertion
// order, so a use is a delete and a set, and the oldest entry is the first key.
export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(
    private readonly limit: number,
    /** Called for each entry forgotten because the map was over its limit (not for `delete`). */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  /** The value, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** The value, without counting as a use. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Sets the value as the most recently used, then forgets the least recently used beyond the limit. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.limit) this.evictOldest();
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  /** Forgets the least recently used entry (as the limit would); false when the map is empty. */
  evictOldest(): boolean {
    const oldest = this.map.entries().next();
    if (oldest.done) return false;
    const [key, value] = oldest.value;
    this.map.delete(key);
    this.onEvict?.(key, value);
    return true;
  }

  get size(): number {
    return this.map.size;
  }
}
