import { act, renderHook } from '@testing-library/react';
import type { KeyboardEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createFilterStore } from './filter-store';
import { useSelection } from './use-selection';
import { movedIndex, onListKeys, useStreamRows } from './VirtualRows';

describe('createFilterStore', () => {
  const empty = { url: '', label: '' };

  it('keeps the draft apart from the applied filters until apply', () => {
    const useStore = createFilterStore(empty);
    useStore.getState().setDraft({ url: 'https://a.test' });
    expect(useStore.getState().applied).toEqual(empty);
    useStore.getState().apply();
    expect(useStore.getState().applied).toEqual({ url: 'https://a.test', label: '' });
    useStore.getState().clear();
    expect(useStore.getState()).toMatchObject({ draft: empty, applied: empty });
  });

  it('show replaces both, from empty', () => {
    const useStore = createFilterStore(empty);
    useStore.getState().setDraft({ url: 'typed' });
    useStore.getState().show({ label: 'nightly' });
    expect(useStore.getState().draft).toEqual({ url: '', label: 'nightly' });
    expect(useStore.getState().applied).toEqual({ url: '', label: 'nightly' });
  });

  it('carries the screen’s own state next to the filters', () => {
    const useStore = createFilterStore(empty, (set) => ({
      autoRefresh: false,
      setAutoRefresh: (on: boolean) => set({ autoRefresh: on }),
    }));
    useStore.getState().setAutoRefresh(true);
    useStore.getState().setDraft({ url: 'x' });
    expect(useStore.getState()).toMatchObject({ autoRefresh: true, draft: { url: 'x' } });
    useStore.getState().clear();
    expect(useStore.getState().autoRefresh).toBe(true);
  });
});

describe('useSelection', () => {
  it('selects among the loaded rows only', () => {
    const { result, rerender } = renderHook(({ rows }) => useSelection(rows), {
      initialProps: { rows: ['a', 'b', 'c'] },
    });
    act(() => result.current.toggle('b', true));
    act(() => result.current.toggle('c', true));
    expect(result.current.ids).toEqual(['b', 'c']);
    expect(result.current.allChecked).toBe(false);
    // 'c' left the list (a refresh): it is no longer part of the selection.
    rerender({ rows: ['a', 'b'] });
    expect(result.current.ids).toEqual(['b']);
    expect(result.current.count).toBe(1);
    act(() => result.current.setAll(true));
    expect(result.current.allChecked).toBe(true);
    act(() => result.current.clear());
    expect(result.current.ids).toEqual([]);
    expect(result.current.isChecked('a')).toBe(false);
  });
});

describe('list keys', () => {
  const press = (key: string) => {
    const move = vi.fn();
    const preventDefault = vi.fn();
    onListKeys(move)({ key, preventDefault } as unknown as KeyboardEvent);
    return { move, preventDefault };
  };

  it('arrows and j/k move by one row, Home and End to the ends; other keys pass through', () => {
    expect(press('ArrowDown').move).toHaveBeenCalledWith(1);
    expect(press('j').move).toHaveBeenCalledWith(1);
    expect(press('ArrowUp').move).toHaveBeenCalledWith(-1);
    expect(press('k').move).toHaveBeenCalledWith(-1);
    expect(press('Home').move).toHaveBeenCalledWith(-Infinity);
    expect(press('End').move).toHaveBeenCalledWith(Infinity);
    expect(press('ArrowDown').preventDefault).toHaveBeenCalled();
    const other = press('a');
    expect(other.move).not.toHaveBeenCalled();
    expect(other.preventDefault).not.toHaveBeenCalled();
  });

  it('movedIndex stays inside the list and starts from the top when nothing is selected', () => {
    expect(movedIndex(-1, 1, 5)).toBe(0);
    expect(movedIndex(2, 1, 5)).toBe(3);
    expect(movedIndex(4, 1, 5)).toBe(4);
    expect(movedIndex(0, -1, 5)).toBe(0);
    expect(movedIndex(2, Infinity, 5)).toBe(4);
    expect(movedIndex(2, -Infinity, 5)).toBe(0);
  });
});

describe('useStreamRows', () => {
  it('keys each row by its arrival number, not its place', () => {
    const { result, rerender } = renderHook(({ entries }) => useStreamRows(entries, 26), {
      initialProps: { entries: [{ seq: 7 }, { seq: 8 }] },
    });
    expect(result.current.virtualizer.options.getItemKey(0)).toBe(7);
    rerender({ entries: [{ seq: 8 }, { seq: 9 }] });
    expect(result.current.virtualizer.options.getItemKey(0)).toBe(8);
    expect(result.current.virtualizer.options.count).toBe(2);
    expect(result.current.rowHeight).toBe(26);
  });
});
