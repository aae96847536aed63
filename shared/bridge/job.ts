// What every job shares, whatever the service: its target (ids, a filter, or an explicit "all"), its one
// event set, its summary and its record in the journal. A job runs in main (main/core/jobs/): it lists the
// target — the preview count the user confirms is that list, not a second count —, waits for the
// renderer's start, then works through the list in chunks of JOB_CHUNK, with progress after each chunk.
import { z } from 'zod';
import { profileIdSchema } from './profile-id';

/** Ids per request of every id-list job: the smallest per-request maximum of the services (workflow DLQ: 50). */
export const JOB_CHUNK = 50;
/** Most items a job lists for its preview (ids are kept in memory and in the journal). */
export const JOB_SCAN_LIMIT = 50_000;
/** Consecutive failed requests after which a job gives up (the service is down, the token revoked…). */
export const JOB_GIVE_UP_AFTER = 3;

/** True when at least one filter is set: to a service, an empty filter means "everything". */
export function hasAnyFilter(filters: Record<string, unknown>): boolean {
  return Object.values(filters).some((entry) =>
    Array.isArray(entry) ? entry.length > 0 : entry !== undefined && entry !== null && entry !== '',
  );
}

export const EMPTY_FILTER_REFUSAL =
  'refusing to act on an empty filter: the service would take it as "everything" — choose "all" explicitly';

/**
 * What a job acts on: listed ids, every item a non-empty filter matches, or — only when the user chose it
 * and confirmed it — everything (`all: true`). An empty filter is never taken to mean "all".
 */
export function jobTargetSchema<F extends z.ZodObject, Id extends z.ZodType<string>>(
  filters: F,
  ids: { id: Id; max: number; what: string },
) {
  return z.union([
    z.object({ ids: z.array(ids.id).min(1, `pick at least one ${ids.what}`).max(ids.max) }),
    z.object({ filters: filters.refine(hasAnyFilter, EMPTY_FILTER_REFUSAL) }),
    z.object({ all: z.literal(true) }),
  ]);
}

/**
 * The input of a job procedure: the profile, how the target reads in the journal (main words it itself
 * when the screen has nothing better than the target), and the job's own fields (its `target`).
 */
export function jobInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object({
    profileId: profileIdSchema,
    description: z.string().trim().min(1).max(500).optional(),
    ...shape,
  });
}

/** Any service's target, as main's runner and the journal see it. */
export type JobTarget = { ids: readonly string[] } | { filters: Record<string, unknown> } | { all: true };

/**
 * The events of every job, in this order (`waiting` between two `progress` when the service fails for a
 * moment); `done` is the last.
 */
export type JobEvent<Summary = JobSummary> =
  /**
   * Listing the target: items found so far. `done` once the list is complete (or `capped` at
   * JOB_SCAN_LIMIT): the preview is ready and the job waits for the renderer's start.
   */
  | { type: 'collecting'; jobId: string; found: number; done: boolean; capped: boolean }
  /** The user's start arrived: the job is in the journal and works through `total` items. */
  | { type: 'started'; jobId: string; total: number }
  /** After each chunk (and once with 0 processed). */
  | { type: 'progress'; total: number; processed: number; succeeded: number; failed: number }
  /**
   * The service failed in a way that may pass (unreachable, 5xx, 429): the job waits `delayMs` and asks
   * again for the same items (the `attempt`th time; the first ask is attempt 1). Not an error yet: the job
   * gives up only once its wait through an outage is spent.
   */
  | { type: 'waiting'; reason: string; attempt: number; delayMs: number }
  | { type: 'done'; summary: Summary };

export interface JobFailure {
  /** The item (entry, message, run, key) when the failure concerns one; a failed request has none. */
  id?: string;
  /** The service's own text. */
  message: string;
}

/** What a job made: the new message of a retried entry, the new run of a restart. */
export interface JobCreated {
  id: string;
  /** The item it was made from (the DLQ entry). */
  from?: string;
  /** Runs are addressed by id and creation time. */
  createdAt?: number;
}

export type JobStatus = 'running' | 'done' | 'cancelled' | 'failed' | 'interrupted';

export interface JobCounts {
  total: number;
  processed: number;
  succeeded: number;
  /** Items already gone when their chunk ran (retried, deleted or expired elsewhere). */
  skipped: number;
  failed: number;
  /** The failures (the first ones, for a job with very many). */
  failures: JobFailure[];
  created: JobCreated[];
  /**
   * Of `succeeded`: items done by a request whose answer was lost (the service acted, then a 5xx or a reset;
   * asked again, it no longer knew them). What they made (the new message, the new run) is not in
   * `created`: the service said it only in that lost answer. Absent when none (and in older journals).
   */
  unconfirmed?: number;
}

export interface JobSummary extends JobCounts {
  jobId: string;
  /** "retry", "restart", "cancel", "delete"… */
  action: string;
  status: Exclude<JobStatus, 'running' | 'interrupted'>;
  /** Why a failed job stopped. */
  error?: string;
}

/** How a target reads in the journal: the ids themselves are kept with the job, not in every listing. */
export type JobTargetView = { ids: number } | { filters: Record<string, unknown> } | { all: true };

/** One job in the journal. */
export interface JobRecord extends JobCounts {
  id: string;
  /** The job procedure that started it, e.g. `messages.dlq.job`. */
  procedure: string;
  service: 'messages' | 'workflows' | 'kv';
  profileId: string;
  /** The profile's name when the job started (it may be renamed or deleted since). */
  profileName: string;
  action: string;
  /** How the target reads ("the 3 selected entries", "runs matching label nightly"). */
  description: string;
  target: JobTargetView;
  /** The start options (overrides) the job ran with. */
  options: Record<string, unknown>;
  startedAt: number;
  finishedAt?: number;
  status: JobStatus;
  error?: string;
  /** Set once the job waited for its service (an outage, a 5xx, a 429): why it took longer. */
  waited?: JobWaited;
}

/** The waits of a job for its service, in all (journals of older versions have none). */
export interface JobWaited {
  /** How many waits. */
  times: number;
  /** Their length, added up. */
  ms: number;
  /** Why the last one was (the service's words). */
  reason: string;
  /** When the last one ends: a running job whose `until` is ahead is waiting now. */
  until: number;
}
