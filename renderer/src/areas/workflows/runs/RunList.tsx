// The virtualized run list: only visible rows are in the DOM, so 10,000 runs scroll smoothly; the next
// pages load ahead while scrolling (the service pages 10 runs at a time); arrow keys move the selection
// and Enter opens it; the header sorts the loaded runs; active runs can be checked (for a cancel job).
import { type KeyboardEvent, memo } from 'react';
import type { RunSummary } from '../../../../../shared/bridge/procedures/workflows/runs';
import { formatClock, formatRelative, formatTime, plural } from '../../../ui/format';
import { RowCheck } from '../../../ui/list/SelectCells';
import { ItemList, listboxOption, moveSelection, useItemRows } from '../../../ui/list/VirtualRows';
import { Spinner } from '../../../ui/misc';
import { reasonText } from '../../../../../shared/workflows/explain';
import { REASON_FORMAT, reasonTone } from '../run/WhyNotDone';
import { plainWords } from '../run/Words';
import { WorkflowStateBadge } from '../WorkflowStateBadge';

export const RUN_ROW_HEIGHT = 52;
/** Start loading the next pages when the last visible row is this close to the end. */
const LOAD_AHEAD_ROWS = 40;

export type RunSort = { column: 'created' | 'state' | 'url' | 'steps'; descending: boolean };

export function sortRuns(runs: readonly RunSummary[], sort: RunSort): RunSummary[] {
  const sign = sort.descending ? -1 : 1;
  const value = (run: RunSummary): string | number =>
    sort.column === 'created'
      ? run.workflowRunCreatedAt
      : sort.column === 'state'
        ? run.workflowState
        : sort.column === 'url'
          ? run.workflowUrl
          : run.stepCount;
  return [...runs].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * sign || b.workflowRunCreatedAt - a.workflowRunCreatedAt;
  });
}

export function runKey(run: Pick<RunSummary, 'workflowRunId' | 'workflowRunCreatedAt'>): string {
  return `${run.workflowRunId}@${run.workflowRunCreatedAt}`;
}

/**
 * Checks on the rows: only active runs can be checked (only they can be cancelled). A row's check is its
 * option's aria-checked (an option may hold no checkbox): the box on it toggles it with the mouse, Space
 * the open run's (the one the list's focus is on).
 */
export interface RunChecks {
  isChecked: (workflowRunId: string) => boolean;
  onCheck: (workflowRunId: string, on: boolean) => void;
}

/** Whether a run can be checked for a cancel job: an active one. */
const checkable = (run: RunSummary) => run.workflowState === 'RUN_STARTED';

export function RunList({
  runs,
  selectedKey,
  hasMore,
  loadingMore,
  onLoadMore,
  onOpen,
  sort,
  onSort,
  compact,
  checks,
}: {
  runs: RunSummary[];
  selectedKey?: string;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onOpen: (run: RunSummary) => void;
  sort: RunSort;
  onSort: (sort: RunSort) => void;
  /** Narrow column beside an open run. */
  compact: boolean;
  checks?: RunChecks;
}) {
  const rows = useItemRows(runs, runKey, {
    rowHeight: RUN_ROW_HEIGHT,
    paging: { ahead: LOAD_AHEAD_ROWS, hasMore, loadingMore, onLoadMore },
  });

  const selectedIndex = runs.findIndex((run) => runKey(run) === selectedKey);
  const move = (delta: number) => moveSelection(rows, runs, selectedIndex, delta, onOpen);
  /** Space on the list checks or unchecks the open run, when it can be checked. */
  const onKeyDown = (event: KeyboardEvent) => {
    const run = runs[selectedIndex];
    if (event.key !== ' ' || !checks || (event.target as Element).getAttribute('role') !== 'listbox') return;
    event.preventDefault();
    if (run && checkable(run)) checks.onCheck(run.workflowRunId, !checks.isChecked(run.workflowRunId));
  };

  const header = (column: RunSort['column'], label: string) => (
    <button
      type="button"
      className="run-sort"
      onClick={() =>
        onSort({ column, descending: sort.column === column ? !sort.descending : column === 'created' })
      }
    >
      {label}
      {sort.column === column ? (
        <>
          <span aria-hidden="true">{sort.descending ? ' ↓' : ' ↑'}</span>
          <span className="visually-hidden">
            {sort.descending ? ', sorted descending' : ', sorted ascending'}
          </span>
        </>
      ) : null}
    </button>
  );

  return (
    <div
      className={['run-list-wrap', compact ? 'run-list-compact' : '', checks ? 'run-list-checks' : '']
        .filter(Boolean)
        .join(' ')}
      onKeyDown={onKeyDown}
    >
      <div className="list-row list-row-head run-row" role="presentation">
        {checks ? <span /> : null}
        <span>{header('state', 'State')}</span>
        <span>{header('url', 'Run')}</span>
        {compact ? null : <span>{header('steps', 'Steps')}</span>}
        <span>{header('created', 'Created')}</span>
      </div>
      <ItemList
        rows={rows}
        end={
          <div className="run-list-end faint" data-testid="run-list-end">
            {loadingMore ? <Spinner label="Loading more" /> : null}{' '}
            {runs.length === 0
              ? null
              : hasMore
                ? `${runs.length.toLocaleString()} loaded, more available`
                : `${plural(runs.length, 'run')} — the end`}
          </div>
        }
        className="run-list"
        role="listbox"
        label="Workflow runs"
        describedBy={checks ? 'run-list-space' : undefined}
        onMove={move}
        activeKey={selectedKey}
      >
        {(run) => (
          <RunRow
            run={run}
            selected={runKey(run) === selectedKey}
            compact={compact}
            onOpen={onOpen}
            checks={checks}
            checked={checks?.isChecked(run.workflowRunId) ?? false}
          />
        )}
      </ItemList>
      {checks ? (
        // A screen reader hears each active run "checked" or "not checked"; this says how to change it.
        <span id="run-list-space" className="visually-hidden">
          Space checks or unchecks the open run for a cancel job.
        </span>
      ) : null}
    </div>
  );
}

const RunRow = memo(function RunRow({
  run,
  selected,
  compact,
  onOpen,
  checks,
  checked,
}: {
  run: RunSummary;
  selected: boolean;
  compact: boolean;
  onOpen: (run: RunSummary) => void;
  checks?: RunChecks;
  checked: boolean;
}) {
  // The same sentence as the run page's "why not done"; a normal wait reads in the plain colour, only
  // retries, held deliveries and failures stand out.
  const reason = run.reasons?.[0];
  const detail = reason ? reasonText(reason, REASON_FORMAT) : undefined;
  const more = (run.reasons?.length ?? 0) - 1;
  return (
    <div
      className="list-row run-row"
      {...listboxOption('run-list', runKey(run), selected, () => onOpen(run))}
      aria-checked={checks && checkable(run) ? checked : undefined}
      data-run-id={run.workflowRunId}
    >
      {checks ? (
        <RowCheck
          label={`Select ${run.workflowRunId}`}
          checked={checked}
          disabled={!checkable(run)}
          title={checkable(run) ? 'Select to cancel (Space)' : 'Only active runs can be cancelled'}
          onChange={(on) => checks.onCheck(run.workflowRunId, on)}
        />
      ) : null}
      <span>
        <WorkflowStateBadge state={run.workflowState} />
      </span>
      <span className="run-row-main">
        <span className="mono run-row-id">{run.workflowRunId}</span>
        <span className="run-row-sub">
          <span className="mono" title={run.workflowUrl}>
            {run.workflowUrl}
          </span>
          {detail ? (
            <span className={`run-row-detail tone-${reasonTone(reason!)}`} title={plainWords(detail)}>
              {plainWords(detail)}
              {more > 0 ? ` (+${more} more)` : ''}
            </span>
          ) : null}
          {run.restartedFrom ? <span className="chip chip-static">restarted</span> : null}
          {run.resumedFrom ? <span className="chip chip-static">resumed</span> : null}
          {run.labels.map((label) => (
            <span key={label} className="chip chip-static">
              {label}
            </span>
          ))}
        </span>
      </span>
      {compact ? null : (
        <span className="mono faint">
          {run.stepCount}
          {/* The column's header, for a screen reader (the row is named by its content). */}
          <span className="visually-hidden">{run.stepCount === 1 ? ' step' : ' steps'}</span>
        </span>
      )}
      <span className="run-row-time" title={formatTime(run.workflowRunCreatedAt)}>
        <span className="mono">{formatClock(run.workflowRunCreatedAt)}</span>
        <span className="faint">{formatRelative(run.workflowRunCreatedAt)}</span>
      </span>
    </div>
  );
});
