// A binary min-heap ordered by (due time, sequence): the engine's in-memory index over the persisted
// schedule, so that finding what is due next never needs a SQL query.

export interface HeapItem {
  dueAt: number;
  seq: number;
}

export class MinHeap<T extends HeapItem> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(item, items[parent] as T)) break;
      items[index] = items[parent] as T;
      index = parent;
    }
    items[index] = item;
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    const length = items.length;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      const child = right < length && before(items[right] as T, items[left] as T) ? right : left;
      if (!before(items[child] as T, last)) break;
      items[index] = items[child] as T;
      index = child;
    }
    items[index] = last;
    return top;
  }

  clear(): void {
    this.items = [];
  }
}

function before(a: HeapItem, b: HeapItem): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}
