// The run list's filters as chips: the user adds one filter at a time (field + value), every applied
// filter shows as a chip with ×, and labels are one chip each (a run matches any of them). The applied
// filters live in a small zustand store per screen; saved views (kept by main) replace them at once.
import type { RunFilters } from '../../../../../shared/bridge/procedures/workflows/filters';
import { LOG_STATE_FILTERS, type LogStateFilter } from '../../../../../shared/workflows/types';
import { localToMs } from '../../../ui/filter-draft';
import { createFilterStore } from '../../../ui/list/filter-store';

export const FILTER_FIELDS = [
  { id: 'state', label: 'State' },
  { id: 'workflowUrl', label: 'Workflow URL' },
  { id: 'workflowRunId', label: 'Run id' },
  { id: 'workflowCreatedAt', label: 'Created at (ms)' },
  { id: 'label', label: 'Label' },
  { id: 'flowControlKey', label: 'Flow-control key' },
  { id: 'callerIp', label: 'Caller IP' },
  { id: 'fromDate', label: 'From' },
  { id: 'toDate', label: 'To' },
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number]['id'];

export const STATE_LABELS: Record<LogStateFilter, string> = {
  RUN_STARTED: 'Run running',
  RUN_SUCCESS: 'Run succeeded',
  RUN_FAILED: 'Run failed',
  RUN_CANCELED: 'Run canceled',
  STEP_SUCCESS: 'Has a succeeded step',
  STEP_RETRY: 'Has a retrying step',
  STEP_FAILED: 'Has a failed step',
  STEP_PROGRESS: 'Has a step in progress',
  STEP_CANCELED: 'Has a canceled step',
};

export interface Chip {
  field: FilterField;
  /** For labels: which one. */
  value: string;
  text: string;
}

const fieldLabel = (field: FilterField) => FILTER_FIELDS.find((entry) => entry.id === field)!.label;

function formatDate(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Adds one filter from typed text; an error sentence when the value cannot be used. */
export function addFilter(
  filters: RunFilters,
  field: FilterField,
  text: string,
): { filters: RunFilters } | { error: string } {
  const value = text.trim();
  if (!value) {
    return {
      error: field === 'state' ? 'Pick a state.' : `Type a value for ${fieldLabel(field).toLowerCase()}.`,
    };
  }
  switch (field) {
    case 'state':
      if (!(LOG_STATE_FILTERS as readonly string[]).includes(value))
        return { error: `Unknown state ${value}.` };
      return { filters: { ...filters, state: value as LogStateFilter } };
    case 'workflowUrl':
      if (!/^https?:\/\/\S+$/i.test(value))
        return { error: 'The workflow URL must start with http:// or https://.' };
      return { filters: { ...filters, workflowUrl: value } };
    case 'label': {
      const labels = new Set(filters.label ?? []);
      for (const label of value.split(',')) if (label.trim()) labels.add(label.trim());
      return { filters: { ...filters, label: [...labels] } };
    }
    case 'workflowCreatedAt': {
      const ms = /^\d+$/.test(value) ? Number(value) : localToMs(value);
      if (ms === undefined) return { error: 'Created at takes unix milliseconds or a date and time.' };
      return { filters: { ...filters, workflowCreatedAt: ms } };
    }
    case 'fromDate':
    case 'toDate': {
      const ms = localToMs(value);
      if (ms === undefined) return { error: 'Pick a date and time.' };
      const next = { ...filters, [field]: field === 'toDate' ? ms + 59_999 : ms };
      if (next.fromDate !== undefined && next.toDate !== undefined && next.fromDate > next.toDate) {
        return { error: '“From” is after “To”.' };
      }
      return { filters: next };
    }
    default:
      return { filters: { ...filters, [field]: value } };
  }
}

export function chipsOf(filters: RunFilters): Chip[] {
  const chips: Chip[] = [];
  if (filters.state) chips.push({ field: 'state', value: filters.state, text: STATE_LABELS[filters.state] });
  if (filters.workflowUrl)
    chips.push({ field: 'workflowUrl', value: filters.workflowUrl, text: `URL ${filters.workflowUrl}` });
  if (filters.workflowRunId)
    chips.push({
      field: 'workflowRunId',
      value: filters.workflowRunId,
      text: `Run ${filters.workflowRunId}`,
    });
  if (filters.workflowCreatedAt !== undefined) {
    chips.push({
      field: 'workflowCreatedAt',
      value: String(filters.workflowCreatedAt),
      text: `Created ${formatDate(filters.workflowCreatedAt)}`,
    });
  }
  for (const label of filters.label ?? [])
    chips.push({ field: 'label', value: label, text: `Label ${label}` });
  if (filters.flowControlKey)
    chips.push({
      field: 'flowControlKey',
      value: filters.flowControlKey,
      text: `Flow key ${filters.flowControlKey}`,
    });
  if (filters.callerIp)
    chips.push({ field: 'callerIp', value: filters.callerIp, text: `Caller ${filters.callerIp}` });
  if (filters.fromDate !== undefined)
    chips.push({
      field: 'fromDate',
      value: String(filters.fromDate),
      text: `From ${formatDate(filters.fromDate)}`,
    });
  if (filters.toDate !== undefined)
    chips.push({ field: 'toDate', value: String(filters.toDate), text: `To ${formatDate(filters.toDate)}` });
  return chips;
}

export function removeChip(filters: RunFilters, chip: Pick<Chip, 'field' | 'value'>): RunFilters {
  const next: RunFilters = { ...filters };
  if (chip.field === 'label') {
    const labels = (next.label ?? []).filter((label) => label !== chip.value);
    if (labels.length > 0) next.label = labels;
    else delete next.label;
  } else {
    delete next[chip.field];
  }
  return next;
}

/** The applied filters (`applied`); chips and saved views replace them at once with `show`. */
export const useRunsUi = createFilterStore<RunFilters>({});
