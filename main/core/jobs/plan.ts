// What a service contributes to the one job runner: a plan. The runner (runner.ts) does everything else —
// the preview list, waiting for the user's go, chunks, progress, cancel, giving up, the journal, resume.
// A plan says how to list a filter's items one page at a time, and how to act on one chunk of them.
import { BridgeError, jobWaitsThrough, mayHaveActed } from '../../../shared/bridge/errors';
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
  /**
   * Of `succeeded`: items an earlier ask of this job did (its request reached the service, then a 5xx or a
   * reset lost the answer), found gone when asked again. What that request made is not in `created`.
   */
  unconfirmed?: number;
  /**
   * The service failed in a way that may pass (`jobWaitsThrough`: unreachable, 5xx, 429) before the chunk was
   * done: its last `left` items were not done (and are not in this outcome). The runner waits and asks
   * again for them. `reached`: those of them whose request may have reached the service (by default all
   * `left` when the failure may have come after the service acted — `mayHaveActed` —, else none).
   */
  interrupted?: { left: number; error: unknown; reached?: readonly string[] };
}

/** A chunk's counts, every field set (as the journal keeps them; `unconfirmed` only when some). */
export type ChunkTally = Required<Omit<ChunkOutcome, 'interrupted' | 'unconfirmed'>> &
  Pick<ChunkOutcome, 'unconfirmed'>;

export interface ChunkContext {
  /** True once the user cancelled: a plan that falls back to one request per item stops asking. */
  stopped(): boolean;
  /**
   * True for an item whose request, in an earlier ask of this job, may have reached the service before a
   * failure that may pass (a 5xx, a reset): the service may have done it then.
   */
  askedBefore?(item: string): boolean;
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
 * because some items are gone): a failed request fails its item only, and a cancel stops asking.
 *
 * A failure that may pass (`jobWaitsThrough`: refused, reset, 5xx, 429) stops the chunk there, `interrupted`: the
 * runner waits and asks again from that item on. The item is asked again too when its action is harmless
 * to repeat (`repeatable`, the default: pause, resume, reset, cancel and delete end the same however often
 * they are sent), or when the failure proves its request was never sent (`neverSent`: refused, DNS, connect
 * timeout). An action that is not harmless (the workflow DLQ's failure callback is sent again each time it
 * is asked) after a failure that may have come once the service acted (a reset, a 5xx) records that item as
 * failed, and only the items never sent are asked again.
 *
 * An item an earlier ask may have done (`askedBefore`) that the service no longer knows (404) was done by
 * that ask: it counts as succeeded, `unconfirmed` (a DLQ entry retried by a request whose answer was lost).
 *
 * A service that did not answer in time (TIMEOUT) fails the rest of the chunk unasked: it is not the item,
 * and asking again for each would wait its timeout once per item before the runner gives up.
 */
export async function oneByOne(
  chunk: readonly string[],
  context: ChunkContext,
  one: (item: string) => Promise<ChunkOutcome>,
  { repeatable = true }: { repeatable?: boolean } = {},
): Promise<ChunkOutcome> {
  const total: ChunkTally & { unconfirmed: number } = {
    succeeded: 0,
    skipped: 0,
    failures: [],
    created: [],
    unconfirmed: 0,
  };
  let unanswered: string | undefined;
  for (const [index, item] of chunk.entries()) {
    if (context.stopped() || unanswered !== undefined) {
      const why = unanswered ?? 'the job was cancelled';
      total.failures.push({ id: item, message: `not attempted: ${why}` });
      continue;
    }
    try {
      const outcome = await one(item);
      total.succeeded += outcome.succeeded;
      total.skipped += outcome.skipped ?? 0;
      total.unconfirmed += outcome.unconfirmed ?? 0;
      total.failures.push(...(outcome.failures ?? []));
      total.created.push(...(outcome.created ?? []));
    } catch (error) {
      if (jobWaitsThrough(error)) {
        const again = repeatable || !mayHaveActed(error);
        if (!again) {
          total.failures.push({
            id: item,
            message: `${messageOf(error)} (it may have reached the service, so it is not sent again)`,
          });
        }
        const left = chunk.length - index - (again ? 0 : 1);
        const reached = again && mayHaveActed(error) ? [item] : [];
        return left > 0 ? { ...tallied(total), interrupted: { left, error, reached } } : tallied(total);
      }
      const earlier = doneEarlier(item, error, context);
      if (earlier) {
        total.succeeded += 1;
        total.unconfirmed += 1;
        continue;
      }
      total.failures.push({ id: item, message: messageOf(error) });
      if (isTimeout(error)) unanswered = messageOf(error);
    }
  }
  return tallied(total);
}

/** A tally without a zero `unconfirmed`: chunk lines stay as older versions wrote them when it is none. */
function tallied({ unconfirmed, ...tally }: ChunkTally): ChunkTally {
  return unconfirmed ? { ...tally, unconfirmed } : tally;
}

/**
 * The service no longer knows an item (404) whose request an earlier ask may have got to it before a
 * failure that may pass: that ask did it (a DLQ entry it retried is gone from the DLQ).
 */
function doneEarlier(item: string, error: unknown, context: ChunkContext): boolean {
  return isGone(error) && context.askedBefore?.(item) === true;
}

/** The service took the request and did not answer in time: stuck or overloaded, whatever the item. */
function isTimeout(error: unknown): boolean {
  return error instanceof BridgeError && error.code === 'TIMEOUT';
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
    if (!isGone(error)) throw error;
    if (chunk.length === 1) {
      if (doneEarlier(chunk[0]!, error, context)) return { succeeded: 1, unconfirmed: 1 };
      throw error;
    }
  }
  return oneByOne(chunk, context, one);
}
