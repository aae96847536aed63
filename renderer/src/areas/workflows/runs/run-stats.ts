// Counts per state and runs per minute by state, over the runs the list has loaded (the service has no
// count endpoint; counting everything would page through every run 10 at a time).
import type { RunSummary } from '../../../../../shared/bridge/procedures/workflows/runs';
import { RUN_STATES, type RunState } from '../../../../../shared/workflows/types';

export type StateCounts = Record<RunState, number>;

export interface MinuteBucket {
  /** Start of the minute, unix ms. */
  at: number;
  counts: StateCounts;
  total: number;
}

const zero = (): StateCounts => ({ RUN_STARTED: 0, RUN_SUCCESS: 0, RUN_FAILED: 0, RUN_CANCELED: 0 });

export function countStates(runs: readonly Pick<RunSummary, 'workflowState'>[]): StateCounts {
  const counts = zero();
  for (const run of runs) if (run.workflowState in counts) counts[run.workflowState] += 1;
  return counts;
}

/**
 * Runs per minute by state, from the oldest to the newest loaded run (at most `maxBuckets` minutes: a
 * wider range is cut to its newest minutes). Minutes without runs are present with zero counts.
 */
export function runsPerMinute(
  runs: readonly Pick<RunSummary, 'workflowState' | 'workflowRunCreatedAt'>[],
  maxBuckets = 60,
): MinuteBucket[] {
  if (runs.length === 0) return [];
  const minute = 60_000;
  let newest = -Infinity;
  let oldest = Infinity;
  for (const run of runs) {
    newest = Math.max(newest, run.workflowRunCreatedAt);
    oldest = Math.min(oldest, run.workflowRunCreatedAt);
  }
  const last = Math.floor(newest / minute) * minute;
  const first = Math.max(Math.floor(oldest / minute) * minute, last - (maxBuckets - 1) * minute);
  const buckets: MinuteBucket[] = [];
  for (let at = first; at <= last; at += minute) buckets.push({ at, counts: zero(), total: 0 });
  for (const run of runs) {
    const index = Math.floor((run.workflowRunCreatedAt - first) / minute);
    const bucket = buckets[index];
    if (!bucket || !(RUN_STATES as readonly string[]).includes(run.workflowState)) continue;
    bucket.counts[run.workflowState] += 1;
    bucket.total += 1;
  }
  return buckets;
}
