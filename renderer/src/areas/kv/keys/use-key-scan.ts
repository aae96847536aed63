// The key browser's progressive SCAN: one bridge stream per walk (closing it — on a filter change, on
// cancel, on leaving — stops the walk in main between SCAN calls). Keys go into a KeyTree as they arrive;
// React hears about it at most once per frame, so a fast walk never re-renders per batch.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KvType } from '../../../../../shared/bridge/procedures/kv/key-browser';
import type { BridgeErrorData } from '../../../../../shared/bridge/errors';
import { KeyTree } from '../../../../../shared/kv/key-tree';
import { useBridge } from '../../../bridge/react';

export interface ScanFilter {
  match: string;
  type?: KvType;
  count: number;
  delimiter: string;
  /** Bumped to walk again with the same filter (after a delete by pattern). */
  epoch?: number;
}

export type ScanStatus = 'scanning' | 'capped' | 'done' | 'stopped' | 'error';

export interface ScanState {
  tree: KeyTree;
  /** Keys in arrival order (the flat view). */
  keys: string[];
  /** Types known from `SCAN … WITHTYPE` or the type filter. */
  types: Map<string, string>;
  status: ScanStatus;
  error?: BridgeErrorData;
  calls: number;
  dbsize?: number;
  withType: boolean;
  cursor: string;
  /** Bumps on every flush, so memoized views recompute. */
  version: number;
}

/** Keys per walk before pausing for "continue". */
export const SCAN_LIMIT = 10_000;

function fresh(delimiter: string): ScanState {
  return {
    tree: new KeyTree(delimiter),
    keys: [],
    types: new Map(),
    status: 'scanning',
    calls: 0,
    withType: false,
    cursor: '0',
    version: 0,
  };
}

export function useKeyScan(profileId: string, filter: ScanFilter, enabled: boolean) {
  const bridge = useBridge();
  const [snapshot, setSnapshot] = useState<ScanState>(() => fresh(filter.delimiter));
  const state = useRef<ScanState>(snapshot);
  const stop = useRef<(() => void) | undefined>(undefined);
  const frame = useRef<number | undefined>(undefined);
  const callsBefore = useRef(0);

  const publish = useCallback(() => {
    if (frame.current !== undefined) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = undefined;
      state.current = { ...state.current, version: state.current.version + 1 };
      setSnapshot(state.current);
    });
  }, []);

  const open = useCallback(
    (cursor: string) => {
      stop.current?.();
      state.current.status = 'scanning';
      publish();
      callsBefore.current = state.current.calls;
      stop.current = bridge.open(
        'kv.keys.scan',
        {
          profileId,
          match: filter.match || '*',
          type: filter.type,
          count: filter.count,
          cursor,
          limit: SCAN_LIMIT,
        },
        {
          onEvents: (events) => {
            const s = state.current;
            for (const event of events) {
              s.tree.add(event.keys);
              for (const key of event.keys) s.keys.push(key);
              if (event.types) event.keys.forEach((key, i) => s.types.set(key, event.types![i]!));
              s.calls = callsBefore.current + event.calls;
              s.cursor = event.cursor;
              s.withType = event.withType;
              if (event.dbsize !== undefined) s.dbsize = event.dbsize;
              if (event.done) s.status = 'done';
              else if (event.capped) s.status = 'capped';
            }
            publish();
          },
          onEnd: (error) => {
            if (error) {
              state.current.status = 'error';
              state.current.error = error;
            } else if (state.current.status === 'scanning') state.current.status = 'stopped';
            stop.current = undefined;
            publish();
          },
        },
      );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- epoch only forces a new walk
    [bridge, profileId, filter.match, filter.type, filter.count, filter.epoch, publish],
  );

  // A new filter is a new walk: the old stream closes (main stops scanning) and the tree starts empty.
  useEffect(() => {
    state.current = fresh(filter.delimiter);
    setSnapshot(state.current);
    if (enabled) open('0');
    return () => {
      stop.current?.();
      stop.current = undefined;
    };
  }, [open, enabled, filter.delimiter]);

  useEffect(
    () => () => {
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    },
    [],
  );

  return {
    scan: snapshot,
    /** Walks on from where the cap stopped. */
    continueScan: () => open(state.current.cursor),
    cancel: () => {
      stop.current?.();
      stop.current = undefined;
      state.current.status = 'stopped';
      publish();
    },
    /** Drops keys deleted or renamed from the view without a new walk. */
    forget: (keys: string[]) => {
      const gone = new Set(keys);
      for (const key of keys) state.current.tree.remove(key);
      state.current.keys = state.current.keys.filter((key) => !gone.has(key));
      publish();
    },
    /** Adds keys created here (duplicate, rename target) to the view. */
    remember: (keys: string[], type?: string) => {
      state.current.tree.add(keys);
      for (const key of keys) {
        if (!state.current.keys.includes(key)) state.current.keys.push(key);
        if (type) state.current.types.set(key, type);
      }
      publish();
    },
  };
}
