// Counts per state and a small chart of runs per minute by state (stacked bars, ui/Chart), over the runs
// loaded so far.
import { useMemo } from 'react';
import type { RunSummary } from '../../../../../shared/bridge/procedures/workflows/runs';
import { RUN_STATES, type RunState } from '../../../../../shared/workflows/types';
import { Chart, type ChartSeries } from '../../../ui/Chart';
import { stateLabel } from '../WorkflowStateBadge';
import { countStates, runsPerMinute } from './run-stats';

const STATE_COLOR: Record<RunState, string> = {
  RUN_STARTED: '--info',
  RUN_SUCCESS: '--success',
  RUN_FAILED: '--danger',
  RUN_CANCELED: '--text-faint',
};

const SERIES: readonly ChartSeries[] = RUN_STATES.map((state) => ({
  label: stateLabel(state),
  color: STATE_COLOR[state],
  kind: 'bars',
}));

export function RunStats({ runs, hasMore }: { runs: readonly RunSummary[]; hasMore: boolean }) {
  const counts = useMemo(() => countStates(runs), [runs]);
  const buckets = useMemo(() => runsPerMinute(runs), [runs]);
  const data = useMemo(
    () => [
      buckets.map((bucket) => bucket.at / 1000),
      ...RUN_STATES.map((state) => buckets.map((bucket) => bucket.counts[state])),
    ],
    [buckets],
  );
  return (
    <div className="run-stats" data-testid="run-stats">
      <div className="run-stats-counts">
        {RUN_STATES.map((state) => (
          <span key={state} className="run-stat" data-state={state}>
            <span className="run-stat-dot" style={{ background: `var(${STATE_COLOR[state]})` }} />
            {stateLabel(state)} <strong>{counts[state].toLocaleString()}</strong>
          </span>
        ))}
        <span className="faint">{hasMore ? 'of the runs loaded so far' : 'all runs matching'}</span>
      </div>
      {buckets.length > 1 ? (
        <Chart
          className="run-stats-chart"
          width={240}
          height={36}
          compact
          stacked
          label={`Runs per minute over ${buckets.length} minutes`}
          series={SERIES}
          data={data}
        />
      ) : null}
    </div>
  );
}
