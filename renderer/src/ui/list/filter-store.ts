// The filter state of a list screen as a small zustand store: the draft (text as typed in the filter bar)
// and what was applied (what the list shows), plus any UI state the screen keeps next to it. No server
// data goes here. The store is the `form` a FilterBar edits.
//
//   export const useDlqUi = createFilterStore(EMPTY_DLQ_DRAFT);
//   export const useLogsUi = createFilterStore(EMPTY_DRAFT, (set) => ({
//     autoRefresh: false,
//     setAutoRefresh: (autoRefresh: boolean) => set({ autoRefresh }),
//   }));
//   const applied = useDlqUi((state) => state.applied);
import { create } from 'zustand';

export interface FilterState<Draft> {
  draft: Draft;
  applied: Draft;
  setDraft: (patch: Partial<Draft>) => void;
  /** The draft becomes the applied filters (Apply, Enter). */
  apply: () => void;
  clear: () => void;
  /** Replaces draft and applied filters at once (links such as "view this queue's logs"). */
  show: (patch: Partial<Draft>) => void;
}

export function createFilterStore<Draft extends object, Extra extends object = object>(
  empty: Draft,
  /** The screen's own UI state next to the filters; `set` patches it. */
  extra?: (set: (patch: Record<string, unknown>) => void) => Extra,
) {
  return create<FilterState<Draft> & Extra>()(
    (set) =>
      ({
        draft: empty,
        applied: empty,
        setDraft: (patch: Partial<Draft>) =>
          set((state) => ({ ...state, draft: { ...state.draft, ...patch } })),
        apply: () => set((state) => ({ ...state, applied: state.draft })),
        clear: () => set((state) => ({ ...state, draft: empty, applied: empty })),
        show: (patch: Partial<Draft>) =>
          set((state) => ({ ...state, draft: { ...empty, ...patch }, applied: { ...empty, ...patch } })),
        ...extra?.((patch) => set((state) => ({ ...state, ...patch }))),
      }) as FilterState<Draft> & Extra,
  );
}
