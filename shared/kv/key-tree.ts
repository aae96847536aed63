// The key browser's tree: keys grouped into folders by a delimiter (`:` by default), with the number of keys
// under each folder, built incrementally as SCAN batches arrive. `visibleRows` flattens the expanded part
// into the rows a virtualized list shows. Pure TS, no DOM: it is unit-tested and benchmarked on its own.

export interface TreeFolder {
  kind: 'folder';
  /** Full prefix including the trailing delimiter, e.g. `user:42:`. */
  path: string;
  name: string;
  depth: number;
  /** Keys anywhere below this folder. */
  count: number;
  folders: Map<string, TreeFolder>;
  /** Keys directly in this folder. */
  keys: string[];
  /** Children order is settled lazily: sorting 1M keys on every batch would be wasteful. */
  sorted: boolean;
}

export type TreeRow =
  | { kind: 'folder'; folder: TreeFolder; depth: number }
  | { kind: 'key'; key: string; name: string; depth: number };

function newFolder(path: string, name: string, depth: number): TreeFolder {
  return { kind: 'folder', path, name, depth, count: 0, folders: new Map(), keys: [], sorted: true };
}

export class KeyTree {
  readonly root: TreeFolder = newFolder('', '', -1);
  private seen = new Set<string>();

  constructor(readonly delimiter = ':') {}

  get size(): number {
    return this.seen.size;
  }

  /** Adds a batch of keys (SCAN may return a key twice; duplicates are ignored). */
  add(keys: readonly string[]): void {
    for (const key of keys) {
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.insert(key);
    }
  }

  remove(key: string): void {
    if (!this.seen.delete(key)) return;
    const chain: TreeFolder[] = [this.root];
    const parts = this.delimiter ? key.split(this.delimiter) : [key];
    let folder = this.root;
    for (let i = 0; i < parts.length - 1; i += 1) {
      const next = folder.folders.get(parts[i]!);
      if (!next) return;
      folder = next;
      chain.push(folder);
    }
    const index = folder.keys.indexOf(key);
    if (index >= 0) folder.keys.splice(index, 1);
    for (const f of chain) f.count -= 1;
    // Drop folders that became empty, deepest first.
    for (let i = chain.length - 1; i > 0; i -= 1) {
      if (chain[i]!.count === 0) chain[i - 1]!.folders.delete(chain[i]!.name);
    }
  }

  private insert(key: string): void {
    const parts = this.delimiter ? key.split(this.delimiter) : [key];
    let folder = this.root;
    folder.count += 1;
    let path = '';
    for (let i = 0; i < parts.length - 1; i += 1) {
      const name = parts[i]!;
      path += name + this.delimiter;
      let next = folder.folders.get(name);
      if (!next) {
        next = newFolder(path, name, i);
        folder.folders.set(name, next);
        folder.sorted = false;
      }
      next.count += 1;
      folder = next;
    }
    folder.keys.push(key);
    folder.sorted = false;
  }

  /** The rows a tree view shows: folders first (by name), then keys, only inside expanded folders. */
  visibleRows(expanded: ReadonlySet<string>): TreeRow[] {
    const rows: TreeRow[] = [];
    const walk = (folder: TreeFolder, depth: number) => {
      settle(folder);
      for (const child of folder.folders.values()) {
        rows.push({ kind: 'folder', folder: child, depth });
        if (expanded.has(child.path)) walk(child, depth + 1);
      }
      for (const key of folder.keys) {
        rows.push({ kind: 'key', key, name: key.slice(folder.path.length), depth });
      }
    };
    walk(this.root, 0);
    return rows;
  }
}

/**
 * The flat view's keys: the same order as the tree's (`compareKeys`), each key once (SCAN may return a key
 * twice). A new array.
 */
export function sortedKeys(keys: readonly string[]): string[] {
  return mergeSortedKeys([], keys);
}

/**
 * `sorted` (already in order, each key once) with `arrived` merged in, as a new array. A scan appends its keys
 * batch by batch: sorting only the batch and merging costs O(n + b log b) a batch, where sorting everything
 * again would cost O(n log n) on every flush of a walk that loads up to a million keys.
 */
export function mergeSortedKeys(sorted: readonly string[], arrived: readonly string[]): string[] {
  const batch = [...arrived].sort(compareKeys);
  const out: string[] = new Array<string>(sorted.length + batch.length);
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < sorted.length || j < batch.length) {
    const next =
      j >= batch.length || (i < sorted.length && compareKeys(sorted[i]!, batch[j]!) <= 0)
        ? sorted[i++]!
        : batch[j++]!;
    if (n === 0 || out[n - 1] !== next) out[n++] = next;
  }
  out.length = n;
  return out;
}

function settle(folder: TreeFolder): void {
  if (folder.sorted) return;
  folder.folders = new Map([...folder.folders.entries()].sort(([a], [b]) => compareKeys(a, b)));
  folder.keys.sort(compareKeys);
  folder.sorted = true;
}

/**
 * The order of names in the tree and the list: by UTF-16 code unit, which is the byte order of the keys'
 * UTF-8 for every character below U+E000 (no locale rules: `bulk:10` sorts before `bulk:9`, as in redis-cli).
 */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
