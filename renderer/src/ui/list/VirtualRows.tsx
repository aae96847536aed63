// The body of every long list (logs, runs, steps, keys): only the rows on screen are in the DOM, each in
// an absolutely placed slot of a fixed height; a paged list loads its next page when the last row on
// screen comes near the end of what is loaded.
//
//   const rows = useItemRows(runs, runKey, { rowHeight: 52, paging: { … } });
//   <ItemList rows={rows} end={<EndRow … />} className="run-list" label="Workflow runs">
//     {(run) => <RunRow run={run} … />}
//   </ItemList>
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type ComponentProps,
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useRef,
} from 'react';
import './list.css';

export interface VirtualRowsOptions {
  /** The items (a paged list draws one row more, after them: where it says "loading" or "the end"). */
  count: number;
  rowHeight: number;
  overscan?: number;
  /**
   * Keep it stable (useCallback over the rows it reads): the virtualizer re-measures every row whenever it
   * changes, so an inline function costs O(rows) on every scroll frame.
   */
  getItemKey?: (index: number) => string | number;
  /** A paged list: load the next page when the last row on screen is `ahead` rows from the end. */
  paging?: { ahead: number; hasMore: boolean; loadingMore: boolean; onLoadMore: () => void };
}

/** The rows on screen of a list, and the ref of its scroll box (VirtualList sets it). */
export function useVirtualRows({ count, rowHeight, overscan = 10, getItemKey, paging }: VirtualRowsOptions) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: paging ? count + 1 : count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    getItemKey,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length > 0 ? items[items.length - 1]!.index : 0;
  const { ahead = 0, hasMore = false, loadingMore = false, onLoadMore } = paging ?? {};
  useEffect(() => {
    if (onLoadMore && hasMore && !loadingMore && lastIndex >= count - ahead) onLoadMore();
  }, [hasMore, loadingMore, lastIndex, count, ahead, onLoadMore]);
  return { scrollRef, virtualizer, items, rowHeight, count };
}

export type VirtualRowsState = ReturnType<typeof useVirtualRows>;

/**
 * Rows over a list of items (`source`, what ItemList shows), each row keyed by its item (`keyOf`), so a row
 * keeps its DOM while the list around it changes; a paged list's end row is keyed 'end'. Give a `keyOf`
 * defined outside the component: the row keys are made once per list, and a new key function each render
 * would make the virtualizer re-measure every row on every scroll frame.
 */
export function useItemRows<T>(
  items: readonly T[],
  keyOf: (item: T) => string | number,
  options: Omit<VirtualRowsOptions, 'count' | 'getItemKey'>,
) {
  const getItemKey = useCallback(
    (index: number) => (index < items.length ? keyOf(items[index]!) : 'end'),
    [items, keyOf],
  );
  return { ...useVirtualRows({ ...options, count: items.length, getItemKey }), source: items };
}

/** The key of an item that carries its own (a step row, a history entry). */
export const byKey = (item: { key: string }) => item.key;

const byArrival = (entry: { seq: number }) => entry.seq;

/**
 * Rows over what a live stream has kept (monitor lines, pub/sub messages), each keyed by its arrival
 * number, so a row keeps its DOM while older entries drop off the front. Spread `scrollRef` on the list.
 */
export function useStreamRows(entries: readonly { seq: number }[], rowHeight: number) {
  return useItemRows(entries, byArrival, { rowHeight });
}

/** The sized inner box of the scroll container, with a slot per row on screen. */
export function VirtualRows({
  rows,
  children,
}: {
  rows: VirtualRowsState;
  children: (index: number) => ReactNode;
}) {
  return (
    <div style={{ height: rows.virtualizer.getTotalSize(), position: 'relative' }}>
      {rows.items.map((item) => (
        <div
          key={item.key}
          className="virtual-slot"
          style={{ transform: `translateY(${item.start}px)`, height: rows.rowHeight }}
        >
          {children(item.index)}
        </div>
      ))}
    </div>
  );
}

/** Any `data-*` attribute, passed on to the element (`data-events` on the message log). */
type DataAttributes = { [name: `data-${string}`]: string | number | undefined };

/**
 * A long list's scroll box (the element `rows.scrollRef` names) with `VirtualRows` inside. With `onMove`
 * it takes focus and the keyboard (arrow keys, j/k, Home/End, see onListKeys); a listbox's `activeKey`
 * (the selected row's key) is then its aria-activedescendant while that row is on screen, so a screen
 * reader says the row the keys moved to (the row's id is `optionId(testId, key)`, see listboxOption). Its
 * `data-rows` is the number of items (not the end row of a paged list): what the e2e specs and the
 * benchmark wait on.
 */
export function VirtualList({
  rows,
  className,
  role = 'list',
  label,
  describedBy,
  testId = className,
  onMove,
  activeKey,
  children,
  ...data
}: {
  rows: VirtualRowsState;
  className: string;
  role?: 'list' | 'listbox' | 'tree';
  label: string;
  /** The id of what says more than the label, e.g. a key the list takes beyond moving (aria-describedby). */
  describedBy?: string;
  /** The same as the class name unless given. */
  testId?: string;
  onMove?: (delta: number) => void;
  activeKey?: string | number | undefined;
  children: (index: number) => ReactNode;
} & DataAttributes) {
  const { scrollRef, count } = rows;
  const active =
    activeKey !== undefined && rows.items.some((item) => item.key === activeKey)
      ? optionId(testId, activeKey)
      : undefined;
  return (
    <div
      ref={scrollRef}
      className={`virtual-list ${className}`}
      role={role}
      aria-label={label}
      aria-describedby={describedBy}
      aria-activedescendant={active}
      tabIndex={onMove ? 0 : undefined}
      data-testid={testId}
      data-rows={count}
      onKeyDown={onMove ? onListKeys(onMove) : undefined}
      {...data}
    >
      <VirtualRows rows={rows}>{children}</VirtualRows>
    </div>
  );
}

/**
 * A VirtualList over the items of useItemRows: each row shows its item, and a paged list's end row, after
 * the items, shows `end` (where it says "loading" or "the end").
 */
export function ItemList<T>({
  rows,
  end = null,
  children,
  ...list
}: Omit<ComponentProps<typeof VirtualList>, 'rows' | 'children'> & {
  rows: ReturnType<typeof useItemRows<T>>;
  end?: ReactNode;
  children: (item: T) => ReactNode;
}) {
  const { source } = rows;
  return (
    <VirtualList rows={rows} {...list}>
      {(index) => (index < source.length ? children(source[index]!) : end)}
    </VirtualList>
  );
}

/**
 * What makes a row of an ItemList with role listbox (the flow-control keys, the workflow runs) one of its
 * options: the role and the selected state (which list.css shows). The option is named by its content, so
 * a screen reader says what the row shows (the id with its state, counts and time), not only its id; a
 * cell seen only as a colour or a bar carries its words itself (a `visually-hidden` span, an aria-label on
 * its img). Its id (`list`: the list's test id, `key`: the row's key) is what the list's `activeKey` points
 * at. A click opens the row, as the arrow keys (the list's `onMove`) open the one they move to.
 */
export function listboxOption(list: string, key: string | number, selected: boolean, onOpen: () => void) {
  return { id: optionId(list, key), role: 'option', 'aria-selected': selected, onClick: onOpen } as const;
}

/** The element id of the row `key` of the list whose test id is `list` (no spaces: it is an IDREF). */
export function optionId(list: string, key: string | number): string {
  return `${list}-option-${encodeURIComponent(String(key))}`;
}

/**
 * Moves a list's selection `delta` rows from `selectedIndex` (see movedIndex), opens the item there and
 * scrolls it into view.
 */
export function moveSelection<T>(
  rows: VirtualRowsState,
  list: readonly T[],
  selectedIndex: number,
  delta: number,
  open: (item: T) => void,
) {
  const index = movedIndex(selectedIndex, delta, list.length);
  const item = list[index];
  if (item === undefined) return;
  open(item);
  rows.virtualizer.scrollToIndex(index, { align: 'auto' });
}

/**
 * For a list without a selection (the run history): the keys scroll it `delta` rows, or to an end.
 * Give it as the list's `onMove`.
 */
export function scrollByRows(rows: VirtualRowsState) {
  return (delta: number) => {
    const element = rows.scrollRef.current;
    if (!element) return;
    if (Number.isFinite(delta)) element.scrollBy({ top: delta * rows.rowHeight });
    else element.scrollTo({ top: delta > 0 ? element.scrollHeight : 0 });
  };
}

/** The index `delta` rows from `current` (-1: nothing selected yet), kept inside a list of `length`. */
export function movedIndex(current: number, delta: number, length: number): number {
  return Math.max(0, Math.min(length - 1, (current < 0 ? -1 : current) + delta));
}

/** Arrow keys and j/k move the selection by one row, Home and End to the ends. */
export function onListKeys(move: (delta: number) => void) {
  return (event: KeyboardEvent) => {
    const delta =
      event.key === 'ArrowDown' || event.key === 'j'
        ? 1
        : event.key === 'ArrowUp' || event.key === 'k'
          ? -1
          : event.key === 'Home'
            ? -Infinity
            : event.key === 'End'
              ? Infinity
              : 0;
    if (delta === 0) return;
    event.preventDefault();
    move(delta);
  };
}
