// The key list, virtualized: only the rows on screen are in the DOM, so a tree or flat list of a million
// keys scrolls like ten. Reports which keys are on screen so their type and TTL can be fetched in one
// pipelined batch.
import { type ButtonHTMLAttributes, memo, useCallback, useEffect, useMemo } from 'react';
import { mergeSortedKeys, sortedKeys, type TreeRow } from '../../../../../shared/kv/key-tree';
import { ChevronDownIcon } from '../../../ui/icons';
import { useVirtualRows, VirtualList } from '../../../ui/list/VirtualRows';
import { formatTtl } from './format-ttl';
import { type TimedKeyMeta, ttlLeft } from './ttl-countdown';
import type { ScanState } from './use-key-scan';

export const KEY_ROW_HEIGHT = 30;

/** The flat order kept for each arrival array: a forgotten walk's array, and its order, go with it. */
const flatOrders = new WeakMap<readonly string[], { covered: number; sorted: string[] }>();

/**
 * The first `count` keys of a scan's arrival array in the tree's order. The scan appends to the same array
 * batch by batch, so only the keys that arrived since the last call are sorted and merged in: sorting all of
 * them again on every flush would cost O(n log n) each time over a walk of up to a million keys.
 */
function flatOrder(arrival: readonly string[], count: number): string[] {
  const known = flatOrders.get(arrival);
  if (known && known.covered === count) return known.sorted;
  const sorted =
    known && known.covered < count
      ? mergeSortedKeys(known.sorted, arrival.slice(known.covered, count))
      : sortedKeys(arrival.slice(0, count));
  flatOrders.set(arrival, { covered: count, sorted });
  return sorted;
}

export function KeyList({
  scan,
  view,
  expanded,
  onToggle,
  selected,
  onSelect,
  meta,
  now,
  onVisibleKeys,
}: {
  scan: ScanState;
  view: 'tree' | 'list';
  expanded: ReadonlySet<string>;
  onToggle: (path: string) => void;
  selected?: string;
  onSelect: (key: string) => void;
  meta: ReadonlyMap<string, TimedKeyMeta>;
  /** The time the TTLs count down to (ticks each second while one counts). */
  now: number;
  onVisibleKeys: (keys: string[]) => void;
}) {
  // The tree view flattens its open folders once per flush or toggle; the flat view keeps an array of key
  // names (no row object per key: a million of them on every flush would cost more than the list).
  const treeRows: readonly TreeRow[] | undefined = useMemo(
    () => (view === 'tree' ? scan.tree.visibleRows(expanded) : undefined),
    // scan.version changes whenever keys arrive; the tree is mutated in place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [scan.version, scan.tree, view, expanded],
  );
  // The flat view in the tree's order, not SCAN's (which reads as random); see flatOrder. A render that only
  // changed status, selection or a TTL sorts nothing.
  const arrivalCount = scan.keys.length;
  const keys: readonly string[] = useMemo(
    () => (view === 'list' ? flatOrder(scan.keys, arrivalCount) : []),
    [view, scan.keys, arrivalCount],
  );
  const count = treeRows ? treeRows.length : keys.length;
  const rowAt = useCallback(
    (index: number): TreeRow =>
      treeRows ? treeRows[index]! : { kind: 'key', key: keys[index]!, name: keys[index]!, depth: 0 },
    [treeRows, keys],
  );
  // Stable between renders: a new function makes the virtualizer re-measure every row on every scroll frame.
  const getItemKey = useCallback(
    (index: number) => {
      const row = rowAt(index);
      return row.kind === 'folder' ? `f:${row.folder.path}` : `k:${row.key}`;
    },
    [rowAt],
  );
  const list = useVirtualRows({ count, rowHeight: KEY_ROW_HEIGHT, getItemKey });
  const { items } = list;
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  useEffect(() => {
    const onScreen: string[] = [];
    for (let i = first; i <= Math.min(last, count - 1); i += 1) {
      const row = rowAt(i);
      if (row.kind === 'key') onScreen.push(row.key);
    }
    onVisibleKeys(onScreen);
  }, [first, last, count, rowAt, onVisibleKeys]);

  return (
    <VirtualList rows={list} className="kv-key-list" role="tree" label="Keys" testId="key-list">
      {(index) => {
        const row = rowAt(index);
        return row.kind === 'folder' ? (
          <FolderRow
            path={row.folder.path}
            name={row.folder.name}
            count={row.folder.count}
            depth={row.depth}
            open={expanded.has(row.folder.path)}
            onToggle={onToggle}
          />
        ) : (
          <KeyRow
            keyName={row.key}
            label={row.name}
            depth={row.depth}
            type={scan.types.get(row.key) ?? meta.get(row.key)?.type}
            ttlMs={ttlOf(meta.get(row.key), now)}
            selected={row.key === selected}
            onSelect={onSelect}
          />
        );
      }}
    </VirtualList>
  );
}

/** A row's TTL at `now`, or undefined while its meta has not arrived. */
function ttlOf(meta: TimedKeyMeta | undefined, now: number): number | undefined {
  return meta === undefined ? undefined : ttlLeft(meta, now);
}

const FolderRow = memo(function FolderRow({
  path,
  name,
  count,
  depth,
  open,
  onToggle,
}: {
  path: string;
  name: string;
  count: number;
  depth: number;
  open: boolean;
  onToggle: (path: string) => void;
}) {
  return (
    <TreeItemButton
      depth={depth}
      aria-expanded={open}
      className="kv-folder-row"
      onClick={() => onToggle(path)}
      data-testid="folder-row"
      data-path={path}
    >
      <ChevronDownIcon
        className={open ? 'kv-chevron' : 'kv-chevron kv-chevron-closed'}
        width={14}
        height={14}
      />
      <span className="kv-key-name">{name || '(empty)'}</span>
      <span className="kv-count" data-testid="folder-count">
        {count.toLocaleString()}
      </span>
    </TreeItemButton>
  );
});

const KeyRow = memo(function KeyRow({
  keyName,
  label,
  depth,
  type,
  ttlMs,
  selected,
  onSelect,
}: {
  keyName: string;
  label: string;
  depth: number;
  type?: string;
  ttlMs?: number;
  selected: boolean;
  onSelect: (key: string) => void;
}) {
  return (
    <TreeItemButton
      depth={depth}
      leaf
      aria-selected={selected}
      className={selected ? 'kv-key-selected' : undefined}
      onClick={() => onSelect(keyName)}
      title={keyName}
      data-testid="key-row"
      data-key={keyName}
    >
      <span className={typeClass(type)}>{type ? typeLabel(type) : '…'}</span>
      <span className="kv-key-name">{label}</span>
      <span className="kv-ttl">{ttlMs === undefined ? '' : formatTtl(ttlMs)}</span>
    </TreeItemButton>
  );
});

/**
 * A row of the tree: a button indented by its depth; a key sits one chevron's width further in than a
 * folder at its depth, so names line up under their folder's name.
 */
function TreeItemButton({
  depth,
  leaf = false,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  depth: number;
  leaf?: boolean;
  'data-testid': string;
}) {
  return (
    <button
      type="button"
      role="treeitem"
      className={className ? `kv-key-row ${className}` : 'kv-key-row'}
      style={{ paddingLeft: 8 + depth * 16 + (leaf ? 18 : 0) }}
      {...rest}
    />
  );
}

export function typeLabel(type: string): string {
  return type === 'string' ? 'STR' : type === 'ReJSON-RL' ? 'JSON' : type.toUpperCase();
}

const TYPE_TONE: Record<string, string> = {
  string: 'info',
  hash: 'accent',
  list: 'success',
  set: 'warning',
  zset: 'danger',
  stream: 'dev',
  'ReJSON-RL': 'json',
};

/** The chip of a key's type, coloured by type; a type not known yet is plain. */
export function typeClass(type: string | undefined): string {
  return `kv-type tone-${(type && TYPE_TONE[type]) ?? 'plain'}`;
}
