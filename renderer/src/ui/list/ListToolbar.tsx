// The toolbar above a list: what is loaded, Refresh, the screen's own switches, then (right-aligned) how
// many rows are selected and the actions. Actions are the screen's buttons; the bar only lays them out.
//
//   <ListToolbar summary={`${plural(n, 'entry', 'entries')}`} testId="dlq-summary"
//                refreshing={list.refreshing} onRefresh={refresh} selected={selection.count}>
//     <Button …>Retry selected…</Button>
//   </ListToolbar>
import type { ReactNode } from 'react';
import { Button } from '../Button';
import { RefreshIcon } from '../icons';

export function ListToolbar({
  summary,
  failed = false,
  lead,
  testId,
  refreshing,
  onRefresh,
  controls,
  selected = 0,
  className,
  children,
}: {
  /** "12 entries loaded"; undefined while the first page loads. */
  summary?: string;
  /** The list could not be loaded: no summary and no counts (they would read as an empty list). */
  failed?: boolean;
  /** Shown instead of the summary text, e.g. counts per state. */
  lead?: ReactNode;
  testId?: string;
  refreshing: boolean;
  onRefresh: () => void;
  /** Shown after Refresh, e.g. an auto-refresh switch. */
  controls?: ReactNode;
  selected?: number;
  className?: string;
  /** The actions, right-aligned. */
  children?: ReactNode;
}) {
  return (
    <div className={className ? `toolbar ${className}` : 'toolbar'}>
      {failed ? (
        <span className="muted" data-testid={testId}>
          Not loaded
        </span>
      ) : (
        (lead ?? (
          <span className="muted" data-testid={testId}>
            {summary ?? 'Loading…'}
          </span>
        ))
      )}
      {controls}
      <Button size="sm" icon={<RefreshIcon />} busy={refreshing} onClick={onRefresh}>
        Refresh
      </Button>
      <span className="spacer" />
      {selected > 0 ? <span className="muted">{selected} selected</span> : null}
      {children}
    </div>
  );
}
