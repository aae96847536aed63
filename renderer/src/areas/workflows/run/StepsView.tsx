// The step tree beside the timeline, in one virtualized grid: each row is a step (or a group header) on
// the left and its bar on the right, so the two scroll together and selecting either highlights both.
// A run with thousands of steps keeps only the visible rows in the DOM.
import { memo, useEffect, type ComponentType, type SVGProps } from 'react';
import {
  CircleIcon,
  DotIcon,
  InvokeIcon,
  MailIcon,
  MoonIcon,
  ParallelIcon,
  PauseIcon,
  PlayIcon,
  RefreshIcon,
  SwapIcon,
} from '../../../ui/icons';
import { byKey, movedIndex, optionId, useItemRows, VirtualList } from '../../../ui/list/VirtualRows';
import { formatTime } from '../../../ui/format';
import { stateLabel } from '../WorkflowStateBadge';
import { formatDuration } from './duration';
import { barGeometry, type StepLayout, type StepRow } from './step-layout';

export const STEP_ROW_HEIGHT = 30;

// SVG icons, not glyphs: ⏸ or ☾ show as empty boxes where the fonts lack them (issue 19 item 8).
const TYPE_ICON: Record<string, ComponentType<SVGProps<SVGSVGElement>>> = {
  Initial: PlayIcon,
  Run: DotIcon,
  Call: SwapIcon,
  SleepFor: MoonIcon,
  SleepUntil: MoonIcon,
  Wait: PauseIcon,
  Notify: MailIcon,
  Invoke: InvokeIcon,
};

function StepTypeIcon({ type }: { type?: string }) {
  const Icon = TYPE_ICON[type ?? ''] ?? CircleIcon;
  return <Icon width={13} height={13} data-icon={type ?? 'none'} />;
}

export function StepsView({
  layout,
  rows,
  selectedKey,
  onSelect,
}: {
  layout: StepLayout;
  rows: StepRow[];
  selectedKey?: string;
  onSelect: (key: string) => void;
}) {
  const list = useItemRows(rows, byKey, { rowHeight: STEP_ROW_HEIGHT, overscan: 16 });
  const { virtualizer } = list;
  const selectedIndex = rows.findIndex((row) => row.key === selectedKey);
  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [selectedIndex, virtualizer]);
  const stepRows = rows.filter((row) => row.kind === 'step');
  const move = (delta: number) => {
    const at = stepRows.findIndex((row) => row.key === selectedKey);
    const next = stepRows[movedIndex(at, delta, stepRows.length)];
    if (next) onSelect(next.key);
  };
  const span = layout.end - layout.start;
  return (
    <div className="wf-steps">
      <div className="wf-steps-head" role="presentation">
        <span>Steps</span>
        <span className="wf-steps-axis">
          <span>0</span>
          <span>{formatDuration(span / 2)}</span>
          <span>{formatDuration(span)}</span>
        </span>
      </div>
      <VirtualList
        rows={list}
        className="wf-steps-scroll"
        role="tree"
        label="Steps and timeline"
        testId="step-tree"
        onMove={move}
        activeKey={selectedKey}
      >
        {(index) => {
          const row = rows[index]!;
          return (
            <StepLine
              row={row}
              layout={layout}
              selected={
                row.key === selectedKey ||
                (row.kind === 'header' && selectedKey?.startsWith(`${row.key}.`) === true)
              }
              onSelect={onSelect}
            />
          );
        }}
      </VirtualList>
    </div>
  );
}

export const StepLine = memo(function StepLine({
  row,
  layout,
  selected,
  onSelect,
}: {
  row: StepRow;
  layout: StepLayout;
  selected: boolean;
  onSelect: (key: string) => void;
}) {
  const { left, width } = barGeometry(row, layout);
  const span = Math.max(1, layout.end - layout.start);
  const duration = row.end - row.start;
  const select = () => onSelect(row.kind === 'header' ? `${row.key}.s0` : row.key);
  return (
    <div
      className={`wf-step-line wf-step-${row.kind}`}
      id={optionId('step-tree', row.key)}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-selected={selected}
      data-step-key={row.key}
      data-state={row.state}
    >
      <button
        type="button"
        className="wf-step-cell"
        style={{ paddingLeft: 8 + row.depth * 18 }}
        onClick={select}
      >
        {row.kind === 'header' ? (
          <span className="wf-group-tag" title={row.groupType === 'next' ? undefined : 'Parallel'}>
            {row.groupType === 'next' ? (
              'next'
            ) : (
              <ParallelIcon width={11} height={11} aria-label="parallel" />
            )}
          </span>
        ) : (
          <span className={`wf-step-icon wf-state-${row.state ?? 'none'}`} title={row.stepType}>
            <StepTypeIcon type={row.stepType} />
          </span>
        )}
        <span className="wf-step-name">{row.label}</span>
        {/* The state the icon's colour shows, in words for a screen reader (the row is named by its content). */}
        {row.state ? <span className="visually-hidden">{stateLabel(row.state)}</span> : null}
        {row.stepType && row.kind === 'step' ? (
          <span className="wf-step-type faint">{row.stepType}</span>
        ) : null}
        {row.attempts.length > 0 ? (
          <span className="wf-step-retries" title="Failed attempts">
            <RefreshIcon width={11} height={11} />
            {row.attempts.length}
            <span className="visually-hidden">
              {row.attempts.length === 1 ? ' failed attempt' : ' failed attempts'}
            </span>
          </span>
        ) : null}
      </button>
      {/* Named by what it adds to the step cell beside it ("Timeline: 1.2 s"), not the step's name again:
          the row (the treeitem) is named by both cells, so a screen reader would say the name twice. */}
      <button
        type="button"
        className="wf-bar-cell"
        onClick={select}
        title={`${row.label}: ${formatDuration(duration)}`}
      >
        <span className="visually-hidden">Timeline: </span>
        <span
          className={`wf-bar wf-bar-${row.bar} wf-state-${row.state ?? 'none'}${row.kind === 'header' ? ' wf-bar-group' : ''}`}
          style={{ left: `${left}%`, width: `${width}%` }}
        />
        {row.attempts.map((time, index) => (
          <span
            key={`${time}-${index}`}
            className="wf-bar-attempt"
            style={{ left: `${Math.min(100, Math.max(0, ((time - layout.start) / span) * 100))}%` }}
          />
        ))}
        {row.nextDeliveryTime ? (
          <span
            className="wf-bar-next"
            title="Next delivery"
            style={{
              left: `${Math.min(100, Math.max(0, ((row.nextDeliveryTime - layout.start) / span) * 100))}%`,
            }}
          />
        ) : null}
        <span className="wf-bar-label mono">{formatDuration(duration)}</span>
        {row.nextDeliveryTime ? (
          <span className="visually-hidden">, next delivery {formatTime(row.nextDeliveryTime)}</span>
        ) : null}
      </button>
    </div>
  );
});
