// How often a screen polls its service: at the screen's own rate while the service answers; while it fails,
// twice as long after each failure in a row (up to 30 s), so a service that is down is not asked every few
// seconds by every open screen; back to the screen's rate on the first answer. A query the user stopped
// waiting for (ui/Waiting.tsx) is not polled until it is asked again. Every polling screen sets its
// `refetchInterval` with `pollEvery`. A query backing off is asked again at once when another call shows its
// service answers again (recovery.ts).
import { isCancelledError, type Query, type QueryKey } from '@tanstack/react-query';

/** The longest wait between two polls of a failing service (a screen polling slower keeps its own rate). */
export const MAX_POLL_MS = 30_000;

type Every = number | false | undefined;

/** Per query: its `dataUpdateCount` when last looked at, and its `errorUpdateCount` at its last answer. */
const marks = new WeakMap<object, { answers: number; errorsBefore: number }>();

interface QueryCounts {
  state: { dataUpdateCount: number; errorUpdateCount: number; dataUpdatedAt: number; errorUpdatedAt: number };
}

/**
 * Failed fetches in a row, up to the query's latest outcome (0 once it answered). Counted, not read from
 * `error`: a query without data clears its error while it fetches again. Called on every update of an
 * observed query, so a new answer is seen before the next failure; for a query not observed in between,
 * the later of the two times decides.
 */
export function failuresInARow(query: QueryCounts): number {
  const { dataUpdateCount, errorUpdateCount, dataUpdatedAt, errorUpdatedAt } = query.state;
  const mark = marks.get(query);
  if (!mark || mark.answers !== dataUpdateCount) {
    const answeredLast = dataUpdatedAt >= errorUpdatedAt;
    marks.set(query, {
      answers: dataUpdateCount,
      errorsBefore: answeredLast ? errorUpdateCount : (mark?.errorsBefore ?? 0),
    });
  }
  return errorUpdateCount - marks.get(query)!.errorsBefore;
}

/**
 * A `refetchInterval` that backs off while the service fails: `every` (ms, or false for no polling, or a
 * function of the query answering either) doubled for each failure in a row, at most MAX_POLL_MS.
 */
export function pollEvery<D = unknown, E = unknown, QD = D, K extends QueryKey = QueryKey>(
  every: Every | ((query: Query<D, E, QD, K>) => Every),
): (query: Query<D, E, QD, K>) => number | false {
  return (query) => {
    const base = typeof every === 'function' ? every(query) : every;
    if (base === undefined || base === false) return false;
    if (isCancelledError(query.state.error)) return false;
    const failures = failuresInARow(query);
    if (failures === 0) return base;
    return Math.min(base * 2 ** failures, Math.max(MAX_POLL_MS, base));
  };
}
