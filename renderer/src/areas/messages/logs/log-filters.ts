// The logs' filter form: what the user typed (text per field, comma-separated values), the filters the
// bridge takes, and the UI state kept while the user moves between tabs (zustand; no server data here).
import type {
  CancelFiltersInput,
  LogFiltersInput,
  LogStateFilter,
} from '../../../../../shared/bridge/procedures/messages/filters';
import { hasAnyFilter } from '../../../../../shared/bridge/job';
import { MESSAGE_IDS_MAX } from '../../../../../shared/bridge/procedures/messages/filters';
import { useNav } from '../../../shell/nav';
import { splitList, toDateRange } from '../../../ui/filter-draft';
import type { CancelScope as CancelScopeOf } from '../../../ui/job/CancelJob';
import { createFilterStore } from '../../../ui/list/filter-store';

/** "Every message of this workflow run": the ids the run's steps carry (the service has no run filter). */
export interface RunMessagesFilter {
  runId: string;
  /** The newest MESSAGE_IDS_MAX of the run's messages: a logs query names at most that many. */
  messageIds: string[];
  /** How many messages the run has; more than `messageIds` holds when the run was cut to the newest. */
  total: number;
}

export interface LogFilterDraft {
  state: LogStateFilter | '';
  messageId: string;
  url: string;
  topicName: string;
  queueName: string;
  scheduleId: string;
  label: string;
  flowControlKey: string;
  /** `datetime-local` values, local time. */
  from: string;
  to: string;
  /** Set by a run's "Messages in logs"; shown as a removable chip, not a text field. */
  run: RunMessagesFilter | null;
}

export const EMPTY_DRAFT: LogFilterDraft = {
  state: '',
  messageId: '',
  url: '',
  topicName: '',
  queueName: '',
  scheduleId: '',
  label: '',
  flowControlKey: '',
  from: '',
  to: '',
  run: null,
};

export function toLogFilters(draft: LogFilterDraft): { filters: LogFiltersInput; error?: string } {
  const { fromDate, toDate, error } = toDateRange(draft.from, draft.to);
  const filters: LogFiltersInput = {
    state: draft.state ? [draft.state] : undefined,
    messageId: draft.messageId.trim() || undefined,
    messageIds: draft.run?.messageIds,
    url: splitList(draft.url),
    topicName: splitList(draft.topicName),
    queueName: splitList(draft.queueName),
    scheduleId: splitList(draft.scheduleId),
    label: splitList(draft.label),
    flowControlKey: splitList(draft.flowControlKey),
    fromDate,
    toDate,
  };
  for (const key of Object.keys(filters) as (keyof LogFiltersInput)[]) {
    if (filters[key] === undefined) delete filters[key];
  }
  return error ? { filters, error } : { filters };
}

/**
 * What "Cancel matching" acts on, as the logs' filters stand: the filters cancel understands, "all" (no
 * filter at all), or off when only filters cancel cannot take are set (state, message id, run).
 */
export type CancelScope = CancelScopeOf<CancelFiltersInput>;

const CANCEL_FILTER_WORDS: Record<keyof CancelFiltersInput, string> = {
  url: 'URL',
  topicName: 'URL group',
  queueName: 'queue',
  scheduleId: 'schedule',
  label: 'label',
  flowControlKey: 'flow-control key',
  callerIp: 'caller IP',
  host: 'host',
  path: 'path',
  fromDate: 'from',
  toDate: 'to',
};

/**
 * The cancel job's scope: the filters it can use (it has no state, message id or run filter). Never an
 * empty filter: with none set the scope is "all" (asked for explicitly), and with only the others set
 * there is nothing cancel could honour, so the action is off.
 */
export function cancelScope(filters: LogFiltersInput): CancelScope {
  const { state: _state, messageId: _messageId, messageIds: _messageIds, ...rest } = filters;
  if (hasAnyFilter(rest)) {
    const text = Object.entries(rest)
      .filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0))
      .map(([key, value]) => {
        const word = CANCEL_FILTER_WORDS[key as keyof CancelFiltersInput] ?? key;
        const shown =
          typeof value === 'number' ? new Date(value).toLocaleString() : (value as string[]).join(', ');
        return `${word} ${shown}`;
      })
      .join(', ');
    return { filters: rest, text };
  }
  if (!hasAnyFilter(filters)) return 'all';
  return {
    off: 'Cancel takes a URL, group, queue, schedule, label, flow-control key or date filter; the state, message-id and run filters do not apply',
  };
}

/** The run filter's chip text: what it is, honestly. */
export function runFilterText(run: RunMessagesFilter): string {
  const count = run.messageIds.length;
  if (run.total > count)
    return `Run ${run.runId}: newest ${count.toLocaleString('en')} of ${run.total.toLocaleString('en')} messages`;
  return `Run ${run.runId}: ${count} message${count === 1 ? '' : 's'}`;
}

/** The logs' filters, plus auto-refresh (kept while the user moves between tabs). */
export const useLogsUi = createFilterStore(EMPTY_DRAFT, (set) => ({
  autoRefresh: false,
  setAutoRefresh: (autoRefresh: boolean) => set({ autoRefresh }),
}));

/** Opens the Logs showing only the messages these filters match (a queue's, a schedule's, a key's). */
export function openLogs(filters: Partial<LogFilterDraft>): void {
  useLogsUi.getState().show(filters);
  useNav.getState().navigate('messages', 'logs');
}

/** Shows only the messages of one workflow run (the run detail's "Messages in logs"). */
export function showRunMessages(runId: string, newestFirst: string[]): void {
  const run = { runId, messageIds: newestFirst.slice(0, MESSAGE_IDS_MAX), total: newestFirst.length };
  useLogsUi.getState().show({ run });
}

/** Removes the run filter, keeping the other filters as they are. */
export function removeRunFilter(): void {
  useLogsUi.setState((state) => ({
    draft: { ...state.draft, run: null },
    applied: { ...state.applied, run: null },
  }));
}
