import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createFilterStore } from './filter-store';
import { useSelection } from './use-selection';

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
