// What a list screen shows in place of its rows: why the filters cannot be used, the service's error,
// the waiting state until the first page (a spinner; after a few seconds how long, and Stop waiting), the
// empty state, and only then the rows — under a line saying so when a refresh of them keeps waiting.
import type { ReactNode } from 'react';
import { ErrorCallout } from '../ErrorCallout';
import { Callout } from '../misc';
import { failureOf, RefreshStatus, type WaitedQuery, Waiting } from '../Waiting';

export function ListBody({
  problem,
  query,
  failure,
  empty,
  children,
}: {
  /** The filters as typed cannot be used: why (nothing is asked of the service). */
  problem?: string;
  /** The list's query (`usePagedBridgeQuery(…).query`, or `useBridgeQuery`): its error, its first answer. */
  query: WaitedQuery & { data: unknown };
  /** The error callout's title, e.g. "Could not load the DLQ." */
  failure: string;
  /** The empty state, when the loaded list is empty; undefined otherwise. */
  empty: ReactNode;
  children: ReactNode;
}) {
  if (problem) return <Callout tone="warning">{problem}</Callout>;
  if (failureOf(query.error)) return <ErrorCallout error={query.error} title={failure} />;
  if (query.data === undefined) return <Waiting query={query} />;
  return (
    <>
      <RefreshStatus query={query} />
      {empty ?? children}
    </>
  );
}
