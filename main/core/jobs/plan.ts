// What a service contributes to the one job runner: a plan. The runner (runner.ts) does everything else —
// the preview list, waiting for the user's go, chunks, progress, cancel, giving up, the journal, resume.
// A plan says how to list a filter's items one page at a time, and how to act on one chunk of them.
import { BridgeError } from '../../../shared/bridge/errors';
import type { JobCreated, JobFailure, JobRecord, JobTarget } from '../../../shared/bridge/job';

/** Every job input: the profile, an optional description, and the target. */
export interface JobInput {
  profileId: string;
  description?: string;
  target: JobTarget;
}

export interface JobScanPage {
  /** Item ids (DLQ ids, message ids, run ids, keys) in the service's order. */
  items: readonly string[];
  /** Where the next page starts; absent on the last page. */
  cursor?: string;
}

/** What one chunk did. A chunk that succeeded at nothing and failed at something counts as a failed request. */
export interface ChunkOutcome {
  succeeded: number;
  /** Items already gone (the service said so, or counted fewer than it was sent). */
  skipped?: number;
  failures?: JobFailure[];
  created?: JobCreated[];
}

export interface ChunkContext {
  /** True once the user cancelled: a plan that falls back to one request per item stops asking. */
  stopped(): boolean;
}

export interface JobPlan<Input extends JobInput = JobInput, Start = unknown> {
  service: JobRecord['service'];
  /** The thing acted on, singular and plural ("DLQ entry", "DLQ entries"): descriptions and messages. */
  noun: readonly [string, string];
  /** The action the journal shows ("retry", "restart", "cancel", "delete"); the start may pick it. */
  action(input: Input, start: Start): string;
  /** Items per request: JOB_CHUNK unless the service takes more in one (KV's UNLINK). */
  chunk?: number;
  /**
   * One page of the items a filter (or "all") matches, from `cursor`. `signal` aborts the request in
   * flight when the user cancels. Never called for an ids target.
   */
  scan(input: Input, cursor: string | undefined, signal: AbortSignal): Promise<JobScanPage>;
  /**
   * The listing may go on past JOB_SCAN_LIMIT while the job runs, from where the preview stopped. Only for
   * a cursor that stays valid while items are acted on, and an action that is harmless to repeat (KV SCAN
   * and UNLINK).
   */
  continuesScan?: boolean;
  /**
   * Acts on one chunk. Throws when the request failed as a whole (every item of the chunk then fails with
   * its text). A request already sent completes even when the user cancels: the summary stays exact.
   */
  act(chunk: readonly string[], input: Input, start: Start, context: ChunkContext): Promise<ChunkOutcome>;
}

/** The text of anything thrown, for a failure row. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A chunk sent one request per item (an API without a bulk form, or a bulk request the service refused
 * because some items are gone): a failed request fails its item only, and a cancel stops asking. A service
 * that cannot be reached (refused, reset, no answer in time) fails the rest of the chunk unasked: it is not
 * the item, and asking again for each would send a whole chunk of requests to a service that is gone (or
 * wait its timeout once per item) before the runner gives up.
 */
export async function oneByOne(
  chunk: readonly string[],
  context: ChunkContext,
  one: (item: string) => Promise<ChunkOutcome>,
): Promise<ChunkOutcome> {
  const total: Required<ChunkOutcome> = { succeeded: 0, skipped: 0, failures: [], created: [] };
  let unreachable: string | undefined;
  for (const item of chunk) {
    if (context.stopped() || unreachable !== undefined) {
      const why = unreachable ?? 'the job was cancelled';
      total.failures.push({ id: item, message: `not attempted: ${why}` });
      continue;
    }
    try {
      const outcome = await one(item);
      total.succeeded += outcome.succeeded;
      total.skipped += outcome.skipped ?? 0;
      total.failures.push(...(outcome.failures ?? []));
      total.created.push(...(outcome.created ?? []));
    } catch (error) {
      total.failures.push({ id: item, message: messageOf(error) });
      if (isUnreachable(error)) unreachable = messageOf(error);
    }
  }
  return total;
}

/** The request never got an answer: the service is down, gone or stuck, whatever the item. */
function isUnreachable(error: unknown): boolean {
  return error instanceof BridgeError && (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT');
}

/** The filters a scan lists by: the target's, or none for "all" (an ids target is never scanned). */
export function filtersOf<Filters extends object>(
  target: { filters: Filters } | { ids: readonly string[] } | { all: true },
): Partial<Filters> {
  return 'filters' in target ? target.filters : {};
}

/** The service answered 404: the item (or one item of a bulk request) no longer exists there. */
function isGone(error: unknown): boolean {
  return error instanceof BridgeError && error.status === 404;
}

/** One item's request, in `oneByOne`: an item the service no longer knows (404) is already gone, not failed. */
export async function skipIfGone(request: () => Promise<unknown>): Promise<ChunkOutcome> {
  try {
    await request();
    return { succeeded: 1 };
  } catch (error) {
    if (isGone(error)) return { succeeded: 0, skipped: 1 };
    throw error;
  }
}

/**
 * The outcome of a bulk request the service answers with a count (deleted, cancelled, restarted) and not
 * with the ids: the rest of the chunk were already gone. A count above the chunk's size is read as all.
 */
export function countedOutcome(chunk: readonly string[], count: number): ChunkOutcome {
  const succeeded = Math.min(count, chunk.length);
  return { succeeded, skipped: chunk.length - succeeded };
}

/**
 * A chunk as one bulk request. When the service refuses it because some of its items are gone (404), the
 * chunk goes again one request per item (`one`, by default the bulk request of that item alone), so each
 * item gets its own outcome.
 */
export async function bulkOrOneByOne(
  chunk: readonly string[],
  context: ChunkContext,
  bulk: (items: readonly string[]) => Promise<ChunkOutcome>,
  one: (item: string) => Promise<ChunkOutcome> = (item) => bulk([item]),
): Promise<ChunkOutcome> {
  try {
    return await bulk(chunk);
  } catch (error) {
    if (!isGone(error) || chunk.length === 1) throw error;
  }
  return oneByOne(chunk, context, one);
}
