// What every screen showing one bridge query does before it has data: the service's own error text in a
// callout (a 404 is a warning: the thing is gone, nothing failed; a refused token says what to do), the
// waiting state while loading (a spinner; after a few seconds how long, and Stop waiting), and only then the
// screen's content (under a line saying so when a refresh of it keeps waiting).
import type { ReactNode } from 'react';
import type { BridgeError } from '../../../shared/bridge/errors';
import { errorMessage } from '../bridge/client';
import { Button } from './Button';
import { ErrorCallout } from './ErrorCallout';
import { RefreshIcon } from './icons';
import { Callout } from './misc';
import { failureOf, RefreshStatus, type WaitedQuery, Waiting } from './Waiting';

type QueryLike<T> = WaitedQuery & {
  data: T | undefined;
  error: BridgeError | null;
};

export function QueryView<T>({
  query,
  failure,
  children,
}: {
  query: QueryLike<T>;
  /** The callout's title when the query fails, e.g. "Could not load queues." */
  failure: string;
  children: (data: T) => ReactNode;
}) {
  if (query.error && failureOf(query.error)) {
    if (query.error.status === 404) {
      return (
        <Callout tone="warning" title={failure}>
          {errorMessage(query.error)}
        </Callout>
      );
    }
    return <ErrorCallout error={query.error} title={failure} />;
  }
  if (query.data === undefined) return <Waiting query={query} />;
  return (
    <>
      <RefreshStatus query={query} />
      {children(query.data)}
    </>
  );
}

/** The icon-only Refresh button of a screen's header or toolbar, busy while the query refetches. */
export function RefreshButton({
  query,
  title = 'Refresh',
}: {
  query: { isFetching: boolean; refetch: () => Promise<unknown> };
  title?: string;
}) {
  return (
    <Button
      icon={<RefreshIcon />}
      aria-label="Refresh"
      title={title}
      busy={query.isFetching}
      onClick={() => void query.refetch()}
    />
  );
}
