// The logs' filter form: what the user typed (text per field, comma-separated values), the filters the
// bridge takes, and the UI state kept while the user moves between tabs (zustand; no server data here).
import { create } from 'zustand';
import type {
  CancelFiltersInput,
  LogFiltersInput,
  LogStateFilter,
} from '../../../../../shared/bridge/procedures/message-filters';
import { hasAnyFilter } from '../../../../../shared/bridge/procedures/message-filters';

export interface LogFilterDraft {
  state: LogStateFilter | '';
  messageId: string;
  url: string;
  topicName: string;
  queueName: string;
  label: string;
  /** `datetime-local` values, local time. */
  from: string;
  to: string;
}

export const EMPTY_DRAFT: LogFilterDraft = {
  state: '',
  messageId: '',
  url: '',
  topicName: '',
  queueName: '',
  label: '',
  from: '',
  to: '',
};

/** `a, b ,,c` → ['a', 'b', 'c']; undefined when empty. */
export function splitList(text: string): string[] | undefined {
  const values = text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  return values.length > 0 ? [...new Set(values)] : undefined;
}

/** A `datetime-local` value → unix ms (local time); undefined when empty or unreadable. */
export function localToMs(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

export function toLogFilters(draft: LogFilterDraft): { filters: LogFiltersInput; error?: string } {
  const fromDate = localToMs(draft.from);
  // `to` is inclusive to the end of the chosen minute.
  const toMinute = localToMs(draft.to);
  const toDate = toMinute === undefined ? undefined : toMinute + 59_999;
  const filters: LogFiltersInput = {
    state: draft.state ? [draft.state] : undefined,
    messageId: draft.messageId.trim() || undefined,
    url: splitList(draft.url),
    topicName: splitList(draft.topicName),
    queueName: splitList(draft.queueName),
    label: splitList(draft.label),
    fromDate,
    toDate,
  };
  for (const key of Object.keys(filters) as (keyof LogFiltersInput)[]) {
    if (filters[key] === undefined) delete filters[key];
  }
  if (fromDate !== undefined && toDate !== undefined && fromDate > toDate) {
    return { filters, error: '“From” is after “To”.' };
  }
  return { filters };
}

/**
 * The filters bulk cancel can use (it has no state or message id filter). Undefined when nothing is left:
 * an empty cancel request would cancel every message.
 */
export function toCancelFilters(filters: LogFiltersInput): CancelFiltersInput | undefined {
  const { state: _state, messageId: _messageId, ...rest } = filters;
  return hasAnyFilter(rest) ? rest : undefined;
}

interface LogsUiState {
  draft: LogFilterDraft;
  applied: LogFilterDraft;
  autoRefresh: boolean;
  setDraft: (patch: Partial<LogFilterDraft>) => void;
  apply: () => void;
  clear: () => void;
  /** Replaces both draft and applied filters (e.g. "view this queue's logs"). */
  show: (patch: Partial<LogFilterDraft>) => void;
  setAutoRefresh: (on: boolean) => void;
}

export const useLogsUi = create<LogsUiState>((set) => ({
  draft: EMPTY_DRAFT,
  applied: EMPTY_DRAFT,
  autoRefresh: false,
  setDraft: (patch) => set((state) => ({ draft: { ...state.draft, ...patch } })),
  apply: () => set((state) => ({ applied: state.draft })),
  clear: () => set({ draft: EMPTY_DRAFT, applied: EMPTY_DRAFT }),
  show: (patch) => set({ draft: { ...EMPTY_DRAFT, ...patch }, applied: { ...EMPTY_DRAFT, ...patch } }),
  setAutoRefresh: (autoRefresh) => set({ autoRefresh }),
}));
