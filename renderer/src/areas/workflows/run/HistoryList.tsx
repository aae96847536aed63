// A run's history (shared/workflows/history.ts) as one virtualized list: time and offset from the start,
// what happened in words, status and duration, and links to the runs and messages it names. Thousands of
// entries scroll smoothly: only the rows on screen are in the DOM (ui/list).
import { memo, useMemo } from 'react';
import type { HistoryEntry, RunHistory } from '../../../../../shared/workflows/history';
import type { RunRef } from '../../../../../shared/workflows/types';
import { formatClock, formatTime, plural } from '../../../ui/format';
import { InAppLink } from '../../../ui/InAppLink';
import { byKey, scrollByRows, useItemRows, VirtualList } from '../../../ui/list/VirtualRows';
import { formatDuration } from './duration';
import { Words } from './Words';

export const HISTORY_ROW_HEIGHT = 44;

/** What every row shows against, and where its links lead (the list passes them on unchanged). */
interface EntryContext {
  /** The run's creation time: each entry shows its offset from it. */
  start: number;
  onOpenRun: (run: RunRef) => void;
  onOpenMessage: (messageId: string) => void;
}

export function HistoryList({ history, ...context }: { history: RunHistory } & EntryContext) {
  const { entries } = history;
  const rows = useItemRows(entries, byKey, { rowHeight: HISTORY_ROW_HEIGHT, overscan: 12 });
  const counts = useMemo(() => entries.filter((entry) => entry.kind === 'attempt').length, [entries]);
  return (
    <div className="wf-history">
      <div className="wf-history-head faint">
        {plural(entries.length, 'entry', 'entries')}, {plural(counts, 'delivery attempt')}
        {history.complete
          ? ''
          : ' — this service does not report delivery durations or who triggered or canceled a run; the history holds what its record says'}
      </div>
      <VirtualList
        rows={rows}
        className="wf-history-scroll"
        label="Run history"
        testId="run-history"
        onMove={scrollByRows(rows)}
      >
        {(index) => <HistoryRow entry={entries[index]!} {...context} />}
      </VirtualList>
    </div>
  );
}

const HistoryRow = memo(function HistoryRow({
  entry,
  start,
  onOpenRun,
  onOpenMessage,
}: { entry: HistoryEntry } & EntryContext) {
  return (
    <div
      className={`wf-history-row tone-${entry.tone}`}
      role="listitem"
      data-kind={entry.kind}
      title={formatTime(entry.time)}
    >
      <span className="wf-history-time mono">
        <span>{formatClock(entry.time)}</span>
        <span className="faint">+{formatDuration(entry.time - start)}</span>
      </span>
      <span className="wf-history-dot" aria-hidden />
      <span className="wf-history-main">
        <span className="wf-history-title">
          <Words text={entry.title} />
          {entry.at !== undefined ? <span className="faint"> · {formatTime(entry.at)}</span> : null}
        </span>
        {entry.detail ? (
          <span className="wf-history-detail faint">
            <Words text={entry.detail} />
          </span>
        ) : null}
      </span>
      <span className="wf-history-meta mono faint">
        {entry.durationMs !== undefined ? formatDuration(entry.durationMs) : ''}
      </span>
      <span className="wf-history-links">
        {entry.run ? (
          <InAppLink
            href={`#/workflows/run/${encodeURIComponent(entry.run.workflowRunId)}`}
            className="mono"
            onOpen={() => onOpenRun(entry.run!)}
          >
            {entry.run.workflowRunId}
          </InAppLink>
        ) : entry.messageId ? (
          <InAppLink
            href={`#/messages/logs/${entry.messageId}`}
            className="mono faint"
            onOpen={() => onOpenMessage(entry.messageId!)}
          >
            message
          </InAppLink>
        ) : null}
      </span>
    </div>
  );
});
