// The summary's head of a bulk job: a result bar and "n of m retried." with the service's notes.
import type { ReactNode } from 'react';
import { Callout } from '../misc';
import { ProgressBar } from '../ProgressBar';

export function BulkResult({
  total,
  succeeded,
  verbed,
  allGood,
  children,
}: {
  total: number;
  succeeded: number;
  /** "retried", "restarted". */
  verbed: string;
  allGood: boolean;
  children?: ReactNode;
}) {
  return (
    <>
      <ProgressBar
        label="Result"
        value={succeeded}
        max={Math.max(1, total, succeeded)}
        tone={allGood ? 'success' : 'danger'}
      />
      <Callout tone={allGood ? 'success' : 'warning'} title={`${succeeded} of ${total} ${verbed}.`}>
        {children}
      </Callout>
    </>
  );
}
