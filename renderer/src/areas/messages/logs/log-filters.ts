// The logs' filter form: what the user typed (text per field, comma-separated values), the filters the
// bridge takes, and the UI state kept while the user moves between tabs (zustand; no server data here).
import type {
  CancelFiltersInput,
  LogFiltersInput,
  LogStateFilter,
} from '../../../../../shared/bridge/procedures/messages/filters';
import { hasAnyFilter } from '../../../../../shared/bridge/procedures/messages/filters';
import { splitList, toDateRange } from '../../../ui/filter-draft';
import { createFilterStore } from '../../../ui/list/filter-store';

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

export function toLogFilters(draft: LogFilterDraft): { filters: LogFiltersInput; error?: string } {
  const { fromDate, toDate, error } = toDateRange(draft.from, draft.to);
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
  return error ? { filters, error } : { filters };
}

/**
 * The filters bulk cancel can use (it has no state or message id filter). Undefined when nothing is left:
 * an empty cancel request would cancel every message.
 */
export function toCancelFilters(filters: LogFiltersInput): CancelFiltersInput | undefined {
  const { state: _state, messageId: _messageId, ...rest } = filters;
  return hasAnyFilter(rest) ? rest : undefined;
}

/** The logs' filters, plus auto-refresh (kept while the user moves between tabs). */
export const useLogsUi = createFilterStore(EMPTY_DRAFT, (set) => ({
  autoRefresh: false,
  setAutoRefresh: (autoRefresh: boolean) => set({ autoRefresh }),
}));
