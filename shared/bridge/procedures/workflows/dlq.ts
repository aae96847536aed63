// The workflow DLQ: a page of failed runs, triage groups (by URL + failing step + status + error
// signature), the preview count of a filter, and bulk jobs — restart, resume, delete, retry the failure
// function — as a stream: chunked, progress per chunk, closing the stream stops before the next chunk,
// every job written to the profile's journal.
import { z } from 'zod';
import { parseFlowControlValue } from '../../../messages/flow-control';
import { retryOverridesSchema } from '../../../messages/overrides';
import type { RestartedRun, WorkflowDlqMessage } from '../../../workflows/types';
import type { JobDone, JobProgress } from '../../job-events';
import { pagedListInput } from '../../list-input';
import { call, stream } from '../../define';
import { EMPTY_FILTER_REFUSAL, hasAnyWorkflowFilter, workflowDlqFiltersSchema } from './filters';
import { profileIdSchema as profileId } from '../../profile-id';

const dlqId = z.string().trim().min(1).max(300);

/** Entries per page of the DLQ list (the service's maximum). */
export const WORKFLOW_DLQ_PAGE = 100;
/** Triage and preview counts look at most this many entries. */
export const DLQ_SCAN_LIMIT = 20_000;

export const BULK_ACTIONS = ['restart', 'resume', 'delete', 'callback'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** Every override of the restart/resume endpoints, checked like the message DLQ's; each becomes a header. */
export const runOverridesSchema = retryOverridesSchema
  .pick({ retries: true, delay: true, retryDelay: true, failureCallback: true, label: true })
  .extend({
    flowControlKey: z.string().trim().min(1).max(500).optional(),
    /** `parallelism=<n>, rate=<n>, period=<duration>` (any of the three). */
    flowControlValue: z
      .string()
      .trim()
      .superRefine((text, ctx) => {
        const parsed = parseFlowControlValue(text);
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
      })
      .optional(),
  });
export type RunOverrides = z.output<typeof runOverridesSchema>;
export type RunOverridesInput = z.input<typeof runOverridesSchema>;

/** What a bulk job acts on: listed DLQ ids, or every entry a non-empty filter matches. */
export const bulkTargetSchema = z.union([
  z.object({ dlqIds: z.array(dlqId).min(1, 'pick at least one entry').max(DLQ_SCAN_LIMIT) }),
  z.object({ filters: workflowDlqFiltersSchema.refine(hasAnyWorkflowFilter, EMPTY_FILTER_REFUSAL) }),
]);
export type BulkTarget = z.output<typeof bulkTargetSchema>;
export type BulkTargetInput = z.input<typeof bulkTargetSchema>;

export interface WorkflowDlqPage {
  messages: WorkflowDlqMessage[];
  cursor?: string;
}

/** One triage row: failed runs that failed the same way. */
export interface FailureGroup {
  key: string;
  workflowUrl: string;
  /** The step the SDK named in its failure response; absent when it did not say. */
  stepName?: string;
  /** The last attempt's HTTP status (0: no response). */
  status: number;
  /** The error text with ids, numbers and times replaced by placeholders. */
  signature: string;
  /** The newest entry's error text, as the service gave it. */
  sample: string;
  count: number;
  /** Creation times of the oldest and newest failed message of the group. */
  firstSeen: number;
  lastSeen: number;
  dlqIds: string[];
  workflowRunIds: string[];
}

export interface FailureGroups {
  groups: FailureGroup[];
  /** Entries looked at. */
  scanned: number;
  /** True when the scan stopped at DLQ_SCAN_LIMIT. */
  capped: boolean;
}

export interface BulkFailure {
  /** The entry, when the failure concerns one (a filter chunk fails as a whole). */
  dlqId?: string;
  /** The service's own text. */
  message: string;
}

export interface BulkSummary {
  jobId: string;
  action: BulkAction;
  /** Entries the job meant to touch (the preview count for filters; may be exceeded by new failures). */
  total: number;
  succeeded: number;
  failures: BulkFailure[];
  /** Runs created by restart / resume (and the runs whose failure function was re-sent). */
  runs: RestartedRun[];
  /** True when the job was cancelled before it finished. */
  cancelled: boolean;
}

export type BulkEvent =
  { type: 'started'; jobId: string; total: number } | JobProgress | JobDone<BulkSummary>;

export const workflowDlqProcedures = {
  'workflows.dlq.list': call<WorkflowDlqPage>()(pagedListInput(workflowDlqFiltersSchema, 2000), 'read'),
  'workflows.dlq.groups': call<FailureGroups>()(
    z.object({ profileId, filters: workflowDlqFiltersSchema.default({}) }),
    'read',
  ),
  /** How many entries a bulk action on this target would touch (`capped` past DLQ_SCAN_LIMIT). */
  'workflows.dlq.count': call<{ count: number; capped: boolean }>()(
    z.object({ profileId, target: bulkTargetSchema }),
    'read',
  ),
  'workflows.dlq.bulk': stream<BulkEvent>()(
    z.object({
      profileId,
      action: z.enum(BULK_ACTIONS),
      target: bulkTargetSchema,
      overrides: runOverridesSchema.default({}),
      /** How the target reads in the journal ("group charge · 503 · …", "3 selected entries"). */
      description: z.string().trim().min(1).max(500),
    }),
    'write',
  ),
};
