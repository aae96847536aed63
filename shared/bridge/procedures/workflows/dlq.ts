// The workflow DLQ: a page of failed runs, triage groups (by URL + failing step + status + error
// signature), and the job over many entries — restart, resume, delete, retry the failure function — on the
// one runner (main/core/jobs): the preview lists the entries, the job acts on exactly those in chunks.
import { z } from 'zod';
import { parseFlowControlValue } from '../../../messages/flow-control';
import { retryOverridesSchema } from '../../../messages/overrides';
import type { WorkflowDlqMessage } from '../../../workflows/types';
import { jobInput, type JobSummary, jobTargetSchema } from '../../job';
import { pagedListInput } from '../../list-input';
import { call, job } from '../../define';
import { listIdSchema } from '../../list-ids';
import { workflowDlqFiltersSchema } from './filters';
import { profileIdSchema as profileId } from '../../profile-id';

const dlqId = listIdSchema(300);

/** Entries per page of the DLQ list (the service's maximum). */
export const WORKFLOW_DLQ_PAGE = 100;
/** Triage groups look at most this many entries (kept whole in memory while grouped). */
export const TRIAGE_SCAN_LIMIT = 20_000;

export const DLQ_ACTIONS = ['restart', 'resume', 'delete', 'callback'] as const;
export type DlqAction = (typeof DLQ_ACTIONS)[number];

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

export const workflowDlqTargetSchema = jobTargetSchema(workflowDlqFiltersSchema, {
  id: dlqId,
  max: TRIAGE_SCAN_LIMIT,
  what: 'entry',
});
export type WorkflowDlqTarget = z.input<typeof workflowDlqTargetSchema>;

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
  /** True when the scan stopped at TRIAGE_SCAN_LIMIT. */
  capped: boolean;
}

export const workflowDlqProcedures = {
  'workflows.dlq.list': call<WorkflowDlqPage>()(pagedListInput(workflowDlqFiltersSchema, 2000), 'read'),
  'workflows.dlq.groups': call<FailureGroups>()(
    z.object({ profileId, filters: workflowDlqFiltersSchema.default({}) }),
    'read',
  ),
  /**
   * Restart, resume, delete or retry the failure function of many failed runs. Restart and resume list the
   * same entries, so the start picks between them (with the overrides the new runs get).
   */
  'workflows.dlq.job': job<JobSummary>()(
    jobInput({ action: z.enum(DLQ_ACTIONS), target: workflowDlqTargetSchema }),
    'write',
    {
      invalidates: ['workflows.dlq.list', 'workflows.dlq.groups', 'workflows.runs.list', 'jobs.list'],
      start: z.object({
        /** For a restart or resume job: which of the two (default: the input's action). */
        action: z.enum(['restart', 'resume']).optional(),
        overrides: runOverridesSchema.default({}),
      }),
    },
  ),
};
