// Counts per state and a small chart of runs per minute by state, over the runs loaded so far (inline
// SVG: four stacked colours in at most 60 bars do not need a chart library).
import { useMemo } from 'react';
import type { RunSummary } from '../../../../../shared/bridge/procedures/workflows/runs';
import { RUN_STATES, type RunState } from '../../../../../shared/workflows/types';
import { ChartFrame } from '../../../ui/ChartFrame';
import { stateLabel } from '../StateBadge';
import { countStates, runsPerMinute } from './run-stats';

const STATE_COLOR: Record<RunState, string> = {
  RUN_STARTED: 'var(--info)',
  RUN_SUCCESS: 'var(--success)',
  RUN_FAILED: 'var(--danger)',
  RUN_CANCELED: 'var(--text-faint)',
};

export function RunStats({ runs, hasMore }: { runs: readonly RunSummary[]; hasMore: boolean }) {
  const counts = useMemo(() => countStates(runs), [runs]);
  const buckets = useMemo(() => runsPerMinute(runs), [runs]);
  const max = Math.max(1, ...buckets.map((bucket) => bucket.total));
  const width = 240;
  const height = 36;
  const barWidth = buckets.length > 0 ? width / buckets.length : width;
  return (
    <div className="run-stats" data-testid="run-stats">
      <div className="run-stats-counts">
        {RUN_STATES.map((state) => (
          <span key={state} className="run-stat" data-state={state}>
            <span className="run-stat-dot" style={{ background: STATE_COLOR[state] }} />
            {stateLabel(state)} <strong>{counts[state].toLocaleString()}</strong>
          </span>
        ))}
        <span className="faint">{hasMore ? 'of the runs loaded so far' : 'all runs matching'}</span>
      </div>
      {buckets.length > 1 ? (
        <ChartFrame
          className="run-stats-chart"
          width={width}
          height={height}
          label={`Runs per minute over ${buckets.length} minutes`}
        >
          {buckets.map((bucket, index) => {
            let y = height;
            return RUN_STATES.map((state) => {
              const h = (bucket.counts[state] / max) * height;
              y -= h;
              return h > 0 ? (
                <rect
                  key={`${bucket.at}-${state}`}
                  x={index * barWidth + 0.5}
                  y={y}
                  width={Math.max(1, barWidth - 1)}
                  height={h}
                  fill={STATE_COLOR[state]}
                >
                  <title>{`${new Date(bucket.at).toLocaleTimeString()}: ${bucket.counts[state]} ${stateLabel(state).toLowerCase()}`}</title>
                </rect>
              ) : null;
            });
          })}
        </ChartFrame>
      ) : null}
    </div>
  );
}
