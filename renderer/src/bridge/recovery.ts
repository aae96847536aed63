// A service that answers again is picked up at once by the queries that failed on it, not at their next
// backed-off poll (up to 30 s away, `polling.ts`): when a bridge call to a service (the same procedure
// family and profile) answers, and that call is new or had failed, every active query of that service whose
// latest fetch failed in a way that may pass (not a refusal: a 401 answers the same again) is asked again
// now; a poll that succeeds is back at its own rate. The same when the window is shown again (TanStack
// Query's focus; its refetch on focus is off for the rest, main.tsx).
//
// No storm: a call that keeps answering (a poll of another endpoint that works) says nothing new, so a
// query failing beside it stays on its back-off; and a query asked again this way is not asked again so
// until its own next poll has failed too — at most one extra request per back-off step.
import { focusManager, isCancelledError, type Query, type QueryClient } from '@tanstack/react-query';
import { type BridgeErrorData, mayPass } from '../../../shared/bridge/errors';
import type { BridgeClient } from './client';

/** At most this many calls' latest outcomes are kept (the oldest forgotten first). */
const OUTCOMES_KEPT = 500;

/** The service a call or query asks: its procedure family (`messages`, `kv`…) and its profile. */
function serviceKey(name: unknown, input: unknown): string {
  const family = typeof name === 'string' ? name.split('.')[0] : '';
  const profileId =
    typeof input === 'object' && input !== null && 'profileId' in input ? String(input.profileId) : '';
  return JSON.stringify([family, profileId]);
}

/** A query key is `[name, input]` (`bridgeKey`) or `[name, 'pages', input]` (`pagedKey`). */
function serviceOfQuery(query: Query): string {
  const [name, ...rest] = query.queryKey;
  return serviceKey(
    name,
    rest.find((part) => typeof part === 'object' && part !== null),
  );
}

/** Per query asked again early: its error and answer counts then. */
const askedEarly = new WeakMap<Query, { errors: number; answers: number }>();

/**
 * The query failed last in a way a recovered service mends (unreachable, 5xx, 429, or no answer in time —
 * not a refusal such as 401 or 404, which answers the same again; not stopped by the user), is shown,
 * idle, and was not just asked early.
 */
function waitsForRecovery(query: Query): boolean {
  if (!query.isActive() || query.state.fetchStatus !== 'idle') return false;
  const { error } = query.state;
  if (query.state.status !== 'error' || isCancelledError(error)) return false;
  if (!mayPass(error) && (error as Partial<BridgeErrorData> | null)?.code !== 'TIMEOUT') return false;
  const asked = askedEarly.get(query);
  // Asked early, it failed once (that ask): not again before its own next poll fails as well.
  return (
    !asked ||
    query.state.dataUpdateCount !== asked.answers ||
    query.state.errorUpdateCount >= asked.errors + 2
  );
}

/** Asks again now every query of `service` (every query when undefined) waiting for recovery. */
export function askAgain(queryClient: QueryClient, service?: string): void {
  const queries = queryClient
    .getQueryCache()
    .getAll()
    .filter(
      (query) => (service === undefined || serviceOfQuery(query) === service) && waitsForRecovery(query),
    );
  for (const query of queries) {
    askedEarly.set(query, { errors: query.state.errorUpdateCount, answers: query.state.dataUpdateCount });
  }
  if (queries.length === 0) return;
  void queryClient.refetchQueries({ predicate: (query) => queries.includes(query) });
}

/** Watches every call's outcome and the window's focus; returns the function that stops watching. */
export function askAgainOnRecovery(bridge: BridgeClient, queryClient: QueryClient): () => void {
  /** Each call's latest outcome (true: answered), by `[name, input]`. */
  const outcomes = new Map<string, boolean>();
  const stopCalls = bridge.onOutcome((name, input, answered) => {
    const call = JSON.stringify([name, input]);
    const before = outcomes.get(call);
    outcomes.delete(call);
    outcomes.set(call, answered);
    if (outcomes.size > OUTCOMES_KEPT) outcomes.delete(outcomes.keys().next().value!);
    if (answered && before !== true) askAgain(queryClient, serviceKey(name, input));
  });
  const stopFocus = focusManager.subscribe((focused) => {
    if (focused) askAgain(queryClient);
  });
  return () => {
    stopCalls();
    stopFocus();
  };
}
