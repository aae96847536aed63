// The DLQ filter form (text as typed) → bridge filters, and the UI state of the screen (zustand).
import type { DlqFiltersInput } from '../../../../shared/bridge/procedures/messages/filters';
import { describeDraft, splitList, toDateRange } from '../../ui/filter-draft';
import { createFilterStore } from '../../ui/list/filter-store';

export interface DlqFilterDraft {
  messageId: string;
  url: string;
  topicName: string;
  queueName: string;
  label: string;
  /** Comma-separated HTTP statuses of the last attempt. */
  responseStatus: string;
  from: string;
  to: string;
}

export const EMPTY_DLQ_DRAFT: DlqFilterDraft = {
  messageId: '',
  url: '',
  topicName: '',
  queueName: '',
  label: '',
  responseStatus: '',
  from: '',
  to: '',
};

export function toDlqFilters(draft: DlqFilterDraft): { filters: DlqFiltersInput; error?: string } {
  const statuses = splitList(draft.responseStatus);
  const badStatus = statuses?.find((status) => !/^\d{3}$/.test(status));
  const { fromDate, toDate, error: rangeError } = toDateRange(draft.from, draft.to);
  const filters: DlqFiltersInput = {
    messageId: draft.messageId.trim() || undefined,
    url: splitList(draft.url),
    topicName: splitList(draft.topicName),
    queueName: splitList(draft.queueName),
    label: splitList(draft.label),
    responseStatus: badStatus ? undefined : statuses?.map(Number),
    fromDate,
    toDate,
  };
  for (const key of Object.keys(filters) as (keyof DlqFiltersInput)[]) {
    if (filters[key] === undefined) delete filters[key];
  }
  if (badStatus) return { filters, error: `“${badStatus}” is not an HTTP status (e.g. 500, 404).` };
  return rangeError ? { filters, error: rangeError } : { filters };
}

export function describeDlqFilters(draft: DlqFilterDraft): string {
  return describeDraft(draft, [
    ['messageId', 'message'],
    ['url', 'URL'],
    ['topicName', 'group'],
    ['queueName', 'queue'],
    ['label', 'label'],
    ['responseStatus', 'status'],
  ]);
}

export const useDlqUi = createFilterStore(EMPTY_DLQ_DRAFT);
