// What a screen shows while its query has no answer yet: a spinner; once the service has kept it waiting a
// few seconds, for how long and a way to stop waiting; stopped, a way to ask again. Stopping cancels the
// query in TanStack Query, which aborts the bridge call, and main aborts the call's request to the service:
// nothing waits on for main's 30 s timeout. ListBody and QueryView show it, so every list and detail
// screen has it; a screen showing its own spinner for a query uses it in the spinner's place.
// A screen that already shows data and refreshes it (a poll, Refresh) keeps the data on screen: if the
// service keeps that refresh waiting, `RefreshStatus` — a line above the data, also shown by ListBody,
// QueryView and the detail panels — says so after the same 3 s and offers to stop; stopped, it says when
// the data shown was answered, with Refresh.
import { isCancelledError, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button } from './Button';
import { formatTime } from './format';
import { RefreshIcon, XIcon } from './icons';
import { Callout, Spinner } from './misc';

/** After this long without an answer the waiting state says so, and offers to stop. */
export const STILL_WAITING_AFTER_MS = 3000;

/** The service each procedure family asks (the first part of its name). */
const SERVICES: Record<string, string> = {
  messages: 'the message service',
  workflows: 'the workflow service',
  kv: 'the KV service',
  stack: 'the local stack',
};

/** What the waiting state needs of a query (what `useBridgeQuery` and `usePagedBridgeQuery` answer). */
export interface WaitedQuery {
  queryKey: QueryKey;
  isFetching: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
  /** When the data shown was answered (TanStack Query's `dataUpdatedAt`). */
  dataUpdatedAt?: number;
}

/** The user stopped waiting for this query's answer (a cancelled query keeps that as its error). */
export function stoppedWaiting(error: unknown): boolean {
  return isCancelledError(error);
}

/** The error a screen shows as a failure: none when the user stopped waiting (Waiting shows that state). */
export function failureOf<E>(error: E): E | null {
  return stoppedWaiting(error) ? null : error;
}

/**
 * The list or its toolbar counts as not loaded: it failed, or the user stopped waiting before anything was
 * shown. Data still shown after a refresh was stopped is loaded.
 */
export function notLoaded(query: { error: unknown; data: unknown }): boolean {
  return Boolean(failureOf(query.error)) || (stoppedWaiting(query.error) && query.data === undefined);
}

export function Waiting({ query }: { query: WaitedQuery }) {
  const { queryKey, isFetching, error, refetch } = query;
  const waitedMs = useWaitedMs(isFetching);
  const stop = useStopWaiting([queryKey]);
  const service = serviceOf(queryKey);

  if (stoppedWaiting(error) && !isFetching) {
    return (
      <Callout tone="warning" title={`Stopped waiting for ${service}.`}>
        It did not answer. Retry asks it again.{' '}
        <span className="row" style={{ marginTop: 8 }}>
          <Button size="sm" icon={<RefreshIcon />} onClick={() => void refetch()}>
            Retry
          </Button>
        </span>
      </Callout>
    );
  }
  if (waitedMs < STILL_WAITING_AFTER_MS) return <Spinner />;
  return (
    <Callout tone="info" title={`Still waiting for ${service}… (${Math.floor(waitedMs / 1000)} s)`}>
      It has not answered yet.{' '}
      <span className="row" style={{ marginTop: 8 }}>
        <Button size="sm" icon={<XIcon />} onClick={stop}>
          Stop waiting
        </Button>
      </span>
    </Callout>
  );
}

/**
 * Above data already shown: nothing while a refresh is quick; after 3 s of waiting for one, how long and
 * Stop waiting (the data stays); stopped, when the data shown was answered, and Refresh. A panel showing the
 * data of several queries (a key's facts and its value) gives them all: one line speaks for them, its Stop
 * waiting stops every one still waiting, its Refresh asks again the ones stopped.
 */
export function RefreshStatus({ query }: { query: WaitedQuery | readonly WaitedQuery[] }) {
  const queries: readonly WaitedQuery[] = 'queryKey' in query ? [query] : query;
  const waiting = queries.filter((one) => one.isFetching);
  const stopped = queries.filter((one) => stoppedWaiting(one.error) && !one.isFetching);
  const waitedMs = useWaitedMs(waiting.length > 0);
  const stop = useStopWaiting(waiting.map((one) => one.queryKey));
  const service = serviceOf(queries[0]!.queryKey);

  if (stopped.length > 0 && waiting.length === 0) {
    // The oldest answer among those not refreshed is what the panel shows as of.
    const shownAsOf = Math.min(...stopped.map((one) => one.dataUpdatedAt ?? 0));
    return (
      <div className="row refresh-status" role="status">
        <span>
          Stopped refreshing: {service} did not answer. Shown as of {formatTime(shownAsOf || undefined)}.
        </span>
        <Button
          size="sm"
          variant="ghost"
          icon={<RefreshIcon />}
          onClick={() => stopped.forEach((one) => void one.refetch())}
        >
          Refresh
        </Button>
      </div>
    );
  }
  if (waiting.length === 0 || waitedMs < STILL_WAITING_AFTER_MS) return null;
  return (
    <div className="row refresh-status" role="status">
      {/* The seconds tick outside what a screen reader announces: it hears the status once. */}
      <span>Refreshing: still waiting for {service}…</span>
      <span aria-hidden="true">{Math.floor(waitedMs / 1000)} s</span>
      <Button size="sm" variant="ghost" icon={<XIcon />} onClick={stop}>
        Stop waiting
      </Button>
    </div>
  );
}

/** Stops waiting for the queries: cancels them, which aborts their bridge calls and main's requests. */
function useStopWaiting(queryKeys: readonly QueryKey[]): () => void {
  const queryClient = useQueryClient();
  // Kept as the query's error (not reverted; data already shown stays), so polling stops and the screen
  // says it stopped.
  return () =>
    queryKeys.forEach(
      (queryKey) => void queryClient.cancelQueries({ queryKey, exact: true }, { revert: false }),
    );
}

/** How long the current fetch has been going, counted in whole seconds (0 while nothing is fetched). */
function useWaitedMs(fetching: boolean): number {
  const [waited, setWaited] = useState(0);
  useEffect(() => {
    if (!fetching) return;
    const started = Date.now();
    const timer = setInterval(() => setWaited(Date.now() - started), 1000);
    return () => {
      clearInterval(timer);
      setWaited(0);
    };
  }, [fetching]);
  return waited;
}

/** The service a query asks, from its procedure's name (`messages.logs.list` → the message service). */
export function serviceOf(queryKey: QueryKey): string {
  const procedure = typeof queryKey[0] === 'string' ? queryKey[0] : '';
  return SERVICES[procedure.split('.')[0]!] ?? "Switchyard's back end";
}
