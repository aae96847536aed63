// The local stack's clock (a local-only extension under /local/, never /v2/): its wire shapes and the rule
// for an advance, shared by the stack (stack/local/), main's client and the console's Advance dialog.
import { tryParseDuration } from '../duration';

/** `GET /local/clock` and the answer of `POST /local/clock/advance`. */
export interface ClockState {
  /** The stack's time, unix ms: the wall clock plus `offsetMs`. */
  now: number;
  /** How far the stack's clock is ahead of the wall clock (0 until the first advance). */
  offsetMs: number;
  /** What the clock fires next (null: nothing waits for it). */
  next: DueItem | null;
}

/**
 * Something that waits for the stack clock: a message's delay, not-before or retry backoff (a workflow step's
 * sleep is its message's delay), a workflow wait's timeout, a schedule's next tick. `dueAt` is clock time.
 */
export type DueItem =
  | { kind: 'message'; messageId: string; dueAt: number; retried: number; workflowRunId?: string }
  | { kind: 'wait'; workflowRunId: string; eventId: string; dueAt: number }
  | { kind: 'schedule'; scheduleId: string; dueAt: number };

/** `POST /local/<collection>/<id>/run-now`: the item that was run, with the time it had been due. */
export interface RunNowResult {
  ran: DueItem;
}

/** `GET /local/<collection>/<id>/due`: what of that message, run or schedule waits for the clock, first due first. */
export interface DueList {
  items: DueItem[];
}

/** The collections of run-now paths: `/local/messages/<id>/run-now`, `/local/workflows/runs/<id>/run-now`, … */
export const RUN_NOW_COLLECTIONS = {
  message: 'messages',
  workflowRun: 'workflows/runs',
  schedule: 'schedules',
} as const;

/** One advance moves the clock at most this far (the longest delay a message may have). */
export const MAX_ADVANCE_MS = 365 * 86_400_000;

/** `{"by": "7d"}` → milliseconds, or why not (a 400's text). */
export function parseAdvanceBy(by: unknown): { ok: true; ms: number } | { ok: false; error: string } {
  if (typeof by !== 'string') {
    return { ok: false, error: 'expected {"by": "<duration>"}, e.g. {"by": "1h"} (units s, m, h, d)' };
  }
  const parsed = tryParseDuration(by);
  if (!parsed.ok) return parsed;
  if (parsed.ms <= 0) return { ok: false, error: `the clock only moves forward: '${by}' is not above zero` };
  if (parsed.ms > MAX_ADVANCE_MS) {
    return { ok: false, error: `'${by}' is more than one advance may move the clock (365d)` };
  }
  return parsed;
}
