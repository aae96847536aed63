import { describe, expect, it } from 'vitest';
import { countStates, runsPerMinute } from './run-stats';

const M = 60_000;
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % M);

describe('run stats', () => {
  it('counts runs per state', () => {
    expect(
      countStates([
        { workflowState: 'RUN_FAILED' },
        { workflowState: 'RUN_FAILED' },
        { workflowState: 'RUN_SUCCESS' },
      ]),
    ).toEqual({ RUN_STARTED: 0, RUN_SUCCESS: 1, RUN_FAILED: 2, RUN_CANCELED: 0 });
  });

  it('buckets runs per minute by state, empty minutes included, newest minutes kept', () => {
    const buckets = runsPerMinute([
      { workflowState: 'RUN_SUCCESS', workflowRunCreatedAt: T0 + 5 },
      { workflowState: 'RUN_FAILED', workflowRunCreatedAt: T0 + 59_000 },
      { workflowState: 'RUN_SUCCESS', workflowRunCreatedAt: T0 + 2 * M + 1 },
    ]);
    expect(buckets.map((bucket) => [bucket.at - T0, bucket.total])).toEqual([
      [0, 2],
      [M, 0],
      [2 * M, 1],
    ]);
    expect(buckets[0]!.counts.RUN_FAILED).toBe(1);
    const cut = runsPerMinute(
      [
        { workflowState: 'RUN_SUCCESS', workflowRunCreatedAt: T0 },
        { workflowState: 'RUN_SUCCESS', workflowRunCreatedAt: T0 + 10 * M },
      ],
      3,
    );
    expect(cut.map((bucket) => bucket.at - T0)).toEqual([8 * M, 9 * M, 10 * M]);
    expect(runsPerMinute([])).toEqual([]);
  });
});
