// The summary of every job: a result bar, "n of m retried." with what was already gone, what a request
// whose answer was lost did, what failed and why the job stopped early, then the service's own part (the
// new message, the new runs) and every failure with the service's own text (a request that failed as a
// whole has no item).
import type { ReactNode } from 'react';
import type { JobSummary } from '../../../../shared/bridge/job';
import { type AreaId, useNav } from '../../shell/nav';
import { plural } from '../format';
import { Callout } from '../misc';
import { ProgressBar } from '../ProgressBar';
import { ScrollTable } from '../ScrollTable';
import { describeOverrides } from './overrides-draft';

export function JobSummaryView({
  summary,
  verbed,
  itemLabel,
  overrides,
  notes,
  children,
}: {
  summary: JobSummary;
  /** "retried", "restarted", "cancelled". */
  verbed: string;
  /** The failures table's item column: "DLQ id", "Run", "Key". */
  itemLabel: string;
  /** The overrides the job ran with (a retry's, a restart's): listed after the result. */
  overrides?: Record<string, unknown>;
  /** Appended to the result line (a link to the journal). */
  notes?: ReactNode;
  /** The service's part: what the job created. */
  children?: ReactNode;
}) {
  const allGood = summary.status === 'done' && summary.failed === 0 && summary.skipped === 0;
  const overridden = overrides ? describeOverrides(overrides) : [];
  return (
    <div className="stack" data-testid="bulk-summary">
      <ProgressBar
        label="Result"
        value={summary.succeeded}
        max={Math.max(1, summary.total, summary.succeeded)}
        tone={allGood ? 'success' : 'danger'}
      />
      <Callout
        tone={allGood ? 'success' : 'warning'}
        title={`${summary.succeeded.toLocaleString()} of ${summary.total.toLocaleString()} ${verbed}.`}
      >
        {summary.status === 'cancelled'
          ? `Cancelled after ${summary.processed.toLocaleString()}: resume it from Jobs. `
          : ''}
        {summary.error ? `${summary.error}. ` : ''}
        {summary.skipped > 0
          ? `${summary.skipped.toLocaleString()} were already gone (handled or removed elsewhere). `
          : ''}
        {summary.unconfirmed
          ? `${summary.unconfirmed.toLocaleString()} were ${verbed} by a first request whose answer got lost (the service failed after acting): anything it created is not listed. `
          : ''}
        {summary.failed > 0 ? `${plural(summary.failed, 'failure')} — listed below. ` : ''}
        {overridden.length > 0 ? `Overrides: ${overridden.join(' · ')}. ` : ''}
        {notes}
      </Callout>
      {children}
      {summary.failures.length > 0 ? (
        <ScrollTable label="Failures" columns={[itemLabel, 'Why']}>
          {summary.failures.map((failure, index) => (
            <tr key={`${failure.id ?? 'request'}-${index}`}>
              <td className="mono">{failure.id ?? '(request)'}</td>
              <td className="cell-wrap">{failure.message}</td>
            </tr>
          ))}
        </ScrollTable>
      ) : null}
    </div>
  );
}

/**
 * Where a summary's links lead (the new message, the new runs, Jobs): elsewhere in the console, so the
 * dialog closes first.
 */
export type OpenElsewhere = (area: AreaId, ...params: string[]) => void;

export function useOpenElsewhere(closeDialog: () => void): OpenElsewhere {
  const navigate = useNav((state) => state.navigate);
  return (area, ...params) => {
    closeDialog();
    navigate(area, ...params);
  };
}
