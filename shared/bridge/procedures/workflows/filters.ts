// Input schemas for the filters of the workflow run list (`GET /v2/workflows/logs`) and the workflow DLQ
// (list, preview count and the bulk actions). Multi-value filters OR within a filter and AND across
// filters, as the service does.
import { z } from 'zod';
import { FAILURE_FUNCTION_STATES, LOG_STATE_FILTERS } from '../../../workflows/types';

const value = z.string().trim().min(1).max(2000);
const values = z.array(value).max(100).optional();
const time = z.number().int().nonnegative().optional();

const httpUrl = value.refine((text) => /^https?:\/\//i.test(text), 'must start with http:// or https://');

/** Filters of the run list: every filter of the logs endpoint. Dates are inclusive unix ms on the creation time. */
export const runFiltersSchema = z.object({
  /** A run state, or a step state (runs with a step in that state). */
  state: z.enum(LOG_STATE_FILTERS).optional(),
  /** Exact match. */
  workflowUrl: httpUrl.optional(),
  workflowRunId: value.optional(),
  workflowCreatedAt: time,
  /** A run matches if it has any of them. */
  label: values,
  flowControlKey: value.optional(),
  callerIp: value.optional(),
  fromDate: time,
  toDate: time,
});
export type RunFilters = z.output<typeof runFiltersSchema>;
export type RunFiltersInput = z.input<typeof runFiltersSchema>;

/** Filters of the workflow DLQ, shared by its list and its bulk actions. */
export const workflowDlqFiltersSchema = z.object({
  workflowUrl: z.array(httpUrl).max(100).optional(),
  workflowRunId: value.optional(),
  workflowCreatedAt: time,
  label: values,
  failureFunctionState: z.array(z.enum(FAILURE_FUNCTION_STATES)).max(4).optional(),
  callerIp: values,
  flowControlKey: values,
  fromDate: time,
  toDate: time,
});
export type WorkflowDlqFilters = z.output<typeof workflowDlqFiltersSchema>;
export type WorkflowDlqFiltersInput = z.input<typeof workflowDlqFiltersSchema>;
