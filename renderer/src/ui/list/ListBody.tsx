// What a list screen shows in place of its rows: why the filters cannot be used, the service's error,
// a spinner until the first page (for lists without a loading row of their own), the empty state, and
// only then the rows.
import type { ReactNode } from 'react';
import { ErrorCallout } from '../ErrorCallout';
import { Callout, Spinner } from '../misc';

export function ListBody({
  problem,
  error,
  failure,
  waiting = false,
  empty,
  children,
}: {
  /** The filters as typed cannot be used: why (nothing is asked of the service). */
  problem?: string;
  error: unknown;
  /** The error callout's title, e.g. "Could not load the DLQ." */
  failure: string;
  /** Show a spinner: the first page has not come yet. */
  waiting?: boolean;
  /** The empty state, when the loaded list is empty; undefined otherwise. */
  empty: ReactNode;
  children: ReactNode;
}) {
  if (problem) return <Callout tone="warning">{problem}</Callout>;
  if (error) return <ErrorCallout error={error} title={failure} />;
  if (waiting) return <Spinner />;
  return <>{empty ?? children}</>;
}
