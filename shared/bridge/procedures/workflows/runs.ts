// The run explorer: pages of runs (summaries, newest first), one run in full, and the actions on runs —
// cancel, notify a waiting run, trigger a run again with the same or an edited body.
import { z } from 'zod';
import type { RunReason } from '../../../workflows/explain';
import type {
  FailureFunctionState,
  NotifyResponseItem,
  RunOriginSource,
  RunRef,
  RunState,
  WorkflowRunLog,
} from '../../../workflows/types';
import { pagedListInput } from '../../list-input';
import { call } from '../../define';
import { runFiltersSchema } from './filters';
import { profileIdSchema as profileId } from '../../profile-id';

const runId = z.string().trim().min(1).max(300);

/** Service pages one bridge call follows at most (the service returns 10 runs per page). */
export const RUN_PAGES_PER_CALL_MAX = 10;

/** What the run list shows of a run; main builds it from the run log so the list stays light. */
export interface RunSummary {
  workflowRunId: string;
  workflowUrl: string;
  workflowState: RunState;
  workflowRunCreatedAt: number;
  workflowRunCompletedAt?: number;
  labels: string[];
  flowControlKey?: string;
  callerIp?: string;
  dlqId?: string;
  /** Steps recorded (the Initial step included; the `next` group not). */
  stepCount: number;
  /** The step running, retrying or failed now (from the `next` group), if the service named it. */
  currentStep?: { name?: string; state: string };
  /** The last failed step's name, for failed runs. */
  failedStepName?: string;
  invokerRunId?: string;
  failureFunctionState?: FailureFunctionState;
  /** "Why not done" (shared/workflows/explain.ts): empty for a run that succeeded. */
  reasons: RunReason[];
  /** How it was started, when the service says (the local stack does). */
  triggeredBy?: RunOriginSource;
  /** The failed run this one restarts (local stack). */
  restartedFrom?: RunRef;
  /** The failed run this one resumes: it kept that run's completed steps (local stack). */
  resumedFrom?: RunRef;
}

export interface RunsPage {
  runs: RunSummary[];
  /** Absent on the last page. */
  cursor?: string;
  /**
   * With a text search: `index` when the service searched all runs (the local stack), `loaded` when main
   * could only search the runs of the pages it read (the real service has no text search); `searched` says
   * how many runs that was.
   */
  search?: { scope: 'index' | 'loaded'; searched?: number };
}

/** Longest text a run search takes. */
export const RUN_SEARCH_MAX = 500;

/** Bodies up to this many bytes come with a run's detail; larger ones are fetched on demand. */
export const DETAIL_TRIM_BODY = 8 * 1024;
/** "Load the full body": the largest body the console asks for. */
export const FULL_BODY_BYTES = 10 * 1024 * 1024;

export const runProcedures = {
  'workflows.runs.list': call<RunsPage>()(
    pagedListInput(runFiltersSchema, 2000, {
      /** Service pages of 10 runs to follow in this call. */
      pages: z.number().int().min(1).max(RUN_PAGES_PER_CALL_MAX).default(3),
      /** Text in a run's payload, outputs or errors (blank: no search). */
      search: z.string().trim().max(RUN_SEARCH_MAX).optional(),
    }),
    'read',
  ),
  /** One run with every step; bodies cut to `trimBody` bytes. NOT_FOUND when no run has that id. */
  'workflows.runs.get': call<WorkflowRunLog>()(
    z.object({
      profileId,
      workflowRunId: runId,
      workflowCreatedAt: z.number().int().nonnegative().optional(),
      trimBody: z.number().int().min(0).max(FULL_BODY_BYTES).default(DETAIL_TRIM_BODY),
    }),
    'read',
  ),
  'workflows.runs.cancel': call<{ cancelled: number }>()(
    z.object({ profileId, workflowRunIds: z.array(runId).min(1, 'pick at least one run').max(1000) }),
    'write',
  ),
  /** Delivers an event to the runs waiting for it; with a run id, only that run (kept if it waits later). */
  'workflows.runs.notify': call<NotifyResponseItem[]>()(
    z.object({
      profileId,
      eventId: z.string().trim().min(1).max(500),
      eventData: z.string().max(1_000_000).default(''),
      workflowRunId: runId.optional(),
    }),
    'write',
  ),
  /** Starts a new run of a workflow URL with this body (as the SDK's `client.trigger` does). */
  'workflows.runs.trigger': call<{ workflowRunId: string }>()(
    z.object({
      profileId,
      workflowUrl: z
        .string()
        .trim()
        .refine((text) => /^https?:\/\//i.test(text), 'must start with http:// or https://'),
      body: z.string().max(1_000_000).default(''),
      /** Comma-separated. */
      label: z.string().trim().max(500).optional(),
      contentType: z.string().trim().max(200).optional(),
      /** The original run's settings, so that a run triggered again behaves like it (blank: the service's). */
      retries: z.number().int().min(0).max(100).optional(),
      retryDelay: z.string().trim().max(500).optional(),
      flowControlKey: z.string().trim().max(500).optional(),
      flowControlValue: z.string().trim().max(500).optional(),
      /** Headers forwarded to the app with every step (the original run's). */
      headers: z.record(z.string().trim().min(1).max(200), z.string().max(4000)).optional(),
      failureUrl: z
        .string()
        .trim()
        .refine((text) => /^https?:\/\//i.test(text), 'must start with http:// or https://')
        .optional(),
    }),
    'write',
  ),
};
