// React glue for the bridge: a context holding the client, TanStack Query hooks for calls, a hook for
// streams that reopens them after a reconnect, and one for jobs (preview, start, progress, summary).
import {
  isCancelledError,
  type QueryKey,
  useMutation,
  type UseMutationOptions,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { BridgeError, BridgeErrorData } from '../../../shared/bridge/errors';
import type { JobEvent } from '../../../shared/bridge/job';
import type {
  CallName,
  EventOf,
  InputOf,
  invalidatedBy as InvalidatedBy,
  JobName,
  OutputOf,
  StartOf,
  StreamName,
  SummaryOf,
} from '../../../shared/bridge/procedures';
import type { BridgeClient, TypedJobHandle } from './client';
import type { ConnectionState } from './transport';

const BridgeContext = createContext<BridgeClient | null>(null);

export function BridgeProvider({ client, children }: { client: BridgeClient; children: ReactNode }) {
  return <BridgeContext.Provider value={client}>{children}</BridgeContext.Provider>;
}

export function useBridge(): BridgeClient {
  const client = useContext(BridgeContext);
  if (!client) throw new Error('useBridge outside BridgeProvider');
  return client;
}

/** Query keys are [procedure, input]: inputs of service procedures carry profileId, so keys are per profile. */
export function bridgeKey<N extends CallName>(name: N, input?: InputOf<N>): QueryKey {
  return input === undefined ? [name] : [name, input];
}

/**
 * A query of one call. The result carries its `queryKey`, so the waiting state (`ui/Waiting.tsx`) can stop
 * waiting for it: cancelling the query aborts the bridge call, and main aborts the call's requests.
 */
export function useBridgeQuery<N extends CallName>(
  name: N,
  input: InputOf<N>,
  options: Omit<UseQueryOptions<OutputOf<N>, BridgeError>, 'queryKey' | 'queryFn'> = {},
) {
  const bridge = useBridge();
  const queryKey = bridgeKey(name, input);
  const query = useQuery<OutputOf<N>, BridgeError>({
    queryKey,
    queryFn: ({ signal }) => bridge.call(name, input, signal),
    ...options,
  });
  return useHeldError(Object.assign(query, { queryKey }), JSON.stringify([name, input]));
}

/**
 * A query that has no data and failed is pending again, its error cleared, each time it tries again (its
 * refetch interval, a retry, Refresh): a screen polling a service that is down would swap the service's
 * error for a spinner every few seconds. Until the query succeeds, the error it last failed with stays —
 * `isFetching` still says it is trying again.
 */
function useHeldError<R extends UseQueryResult<unknown, BridgeError>>(query: R, key: string): R {
  const [held, setHeld] = useState<{ key: string; error: BridgeError } | null>(null);
  const { error, data, isFetching } = query;
  // Kept from render to render the way React keeps information from previous renders: set while rendering.
  // Stopping a wait is not a failure to keep: asked again, the query is waited for anew.
  if (error && isCancelledError(error) && held) setHeld(null);
  else if (error && !isCancelledError(error) && (held?.error !== error || held.key !== key))
    setHeld({ key, error });
  else if (!error && data !== undefined && held) setHeld(null);
  const stale = !error && data === undefined && isFetching && held?.key === key ? held.error : null;
  if (!stale) return query;
  const failed: Partial<UseQueryResult<unknown, BridgeError>> = {
    error: stale,
    isError: true,
    isLoadingError: true,
    status: 'error',
    isPending: false,
    isLoading: false,
  };
  return new Proxy(query, {
    get: (target, property, receiver) =>
      property in failed ? failed[property as keyof typeof failed] : Reflect.get(target, property, receiver),
  });
}

// The contract's values (every procedure's zod schema) stay out of the first screen's JavaScript: they
// load when a screen first mounts a mutation hook, long before that mutation can succeed.
let contract: Promise<{ invalidatedBy: typeof InvalidatedBy }> | undefined;
const loadContract = () => (contract ??= import('../../../shared/bridge/procedures'));
/**
 * Loads the contract ahead of need. A preload that fails (a chunk that did not load; in tests, a file that ended
 * before the import did) is forgotten, not left as an unhandled rejection: the next use loads it again.
 */
const preloadContract = (): void => {
  loadContract().catch(() => {
    contract = undefined;
  });
};

/**
 * A call that changes something. On success it first invalidates what the procedure declares in
 * `invalidates` (shared/bridge/procedures), then runs `onSuccess`; screens list no invalidations themselves.
 */
export function useBridgeMutation<N extends CallName>(
  name: N,
  options: Omit<UseMutationOptions<OutputOf<N>, BridgeError, InputOf<N>>, 'mutationFn'> = {},
) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  useEffect(preloadContract, []);
  const { onSuccess, ...rest } = options;
  return useMutation<OutputOf<N>, BridgeError, InputOf<N>>({
    mutationFn: (input) => bridge.call(name, input),
    onSuccess: async (...args) => {
      const { invalidatedBy } = await loadContract();
      await Promise.all(invalidatedBy(name).map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
      await onSuccess?.(...args);
    },
    ...rest,
  });
}

export function useConnectionState(): ConnectionState {
  const bridge = useBridge();
  const [state, setState] = useState<ConnectionState>('connecting');
  useEffect(() => bridge.onConnection(setState), [bridge]);
  return state;
}

/**
 * Keeps a stream open while the component is mounted (and the input unchanged); `onEvents` receives each
 * batch. Reopens after the connection comes back.
 */
export function useBridgeStream<N extends StreamName>(
  name: N,
  input: InputOf<N>,
  onEvents: (events: EventOf<N>[], dropped: number) => void,
  enabled = true,
): void {
  const bridge = useBridge();
  const connection = useConnectionState();
  const handler = useRef(onEvents);
  useEffect(() => {
    handler.current = onEvents;
  });
  const inputKey = JSON.stringify(input);
  useEffect(() => {
    if (!enabled || connection !== 'open') return;
    return bridge.open(name, JSON.parse(inputKey) as InputOf<N>, {
      onEvents: (events, dropped) => handler.current(events, dropped),
    });
  }, [bridge, name, inputKey, enabled, connection]);
}

/** The latest event of a stream, e.g. a status that the stream re-sends on every change. */
export function useLatestStreamEvent<N extends StreamName>(
  name: N,
  input: InputOf<N>,
): EventOf<N> | undefined {
  const [latest, setLatest] = useState<EventOf<N>>();
  useBridgeStream(name, input, (events) => {
    const last = events[events.length - 1];
    if (last !== undefined) setLatest(last);
  });
  return latest;
}

export interface JobProgressState {
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
}

/**
 * Where a job is: `collecting` its target, `ready` (the preview count is in, waiting for the user's go),
 * `running`, `ended` (its summary says done, cancelled or failed), `stopped` (the user cancelled; main
 * finishes the chunk in flight and writes no more), or `failed` to start or run (`error`).
 */
export type JobPhase = 'idle' | 'collecting' | 'ready' | 'running' | 'ended' | 'stopped' | 'failed';

export interface BridgeJobState<S> {
  phase: JobPhase;
  /** Items listed so far (the preview count once `ready`). */
  found: number;
  /** The listing stopped at the scan limit: "at least". */
  capped: boolean;
  progress?: JobProgressState;
  /** The job waits for its service before asking again (`at`: when the event came); cleared by progress. */
  waiting?: Extract<JobEvent, { type: 'waiting' }> & { at: number };
  summary?: S;
  error?: BridgeErrorData;
}

const IDLE = { phase: 'idle', found: 0, capped: false } as const;
const COLLECTING = { ...IDLE, phase: 'collecting' } as const;

/**
 * Opens a job while `input` is set (and the component mounted): main lists its target, then waits for
 * `start(options)`. Closing — unmounting, `cancel()`, a new input — cancels its scans and writes. When it
 * ends after starting (done, cancelled or failed: chunks were sent either way), the queries the procedure
 * declares in `invalidates` are invalidated; screens list none themselves.
 */
export function useBridgeJob<N extends JobName>(
  name: N,
  input: InputOf<N> | null,
): BridgeJobState<SummaryOf<N>> & { start(options: StartOf<N>): void; cancel(): void } {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  // The state belongs to one input: a new input starts from a fresh state without an effect resetting it.
  const [keyed, setKeyed] = useState<{ key: string | null; state: BridgeJobState<SummaryOf<N>> }>({
    key: null,
    state: IDLE,
  });
  /** The open job, and whether its chunks may have changed something (it started). */
  const open = useRef<{ handle: TypedJobHandle<N>; found: number; started: boolean } | null>(null);
  const inputKey = input === null ? null : JSON.stringify(input);

  const close = useCallback(() => {
    const job = open.current;
    open.current = null;
    if (!job) return;
    job.handle.close();
    if (job.started) void invalidateAfter(name, queryClient);
  }, [name, queryClient]);

  useEffect(preloadContract, []);
  useEffect(() => {
    if (inputKey === null) return;
    const setState = (next: (now: BridgeJobState<SummaryOf<N>>) => BridgeJobState<SummaryOf<N>>) =>
      setKeyed((now) => ({ key: inputKey, state: next(now.key === inputKey ? now.state : COLLECTING) }));
    const job = {
      found: 0,
      started: false,
      handle: bridge.job(name, JSON.parse(inputKey) as InputOf<N>, {
        onEvents: (events) => {
          for (const event of events as JobEvent<SummaryOf<N>>[]) {
            if (event.type === 'collecting') {
              job.found = event.found;
              const phase = event.done ? 'ready' : 'collecting';
              // A listing that waited through an outage (`waiting`) is answered again: the wait is over.
              setState(({ waiting: _, ...now }) => ({
                ...now,
                phase,
                found: event.found,
                capped: event.capped,
              }));
            } else if (event.type === 'started') {
              job.started = true;
              setState(({ waiting: _, ...now }) => ({ ...now, phase: 'running' }));
            } else if (event.type === 'progress') {
              setState(({ waiting: _, ...now }) => ({ ...now, progress: event }));
            } else if (event.type === 'waiting') {
              setState((now) => ({ ...now, waiting: { ...event, at: Date.now() } }));
            } else {
              setState((now) => ({ ...now, phase: 'ended', summary: event.summary }));
            }
          }
        },
        onEnd: (error) => {
          if (error) setState((now) => ({ ...now, phase: 'failed', error }));
          if (open.current === job) open.current = null;
          if (job.started) void invalidateAfter(name, queryClient);
        },
      }),
    };
    open.current = job;
    return () => {
      if (open.current === job) close();
    };
  }, [bridge, queryClient, name, inputKey, close]);

  const start = useCallback((options: StartOf<N>) => {
    const job = open.current;
    job?.handle.start(options, job.found);
  }, []);
  const cancel = useCallback(() => {
    close();
    setKeyed((now) => {
      const phase = now.key === inputKey ? now.state.phase : 'collecting';
      if (phase !== 'running' && phase !== 'collecting' && phase !== 'ready') return now;
      return {
        key: inputKey,
        state: { ...(now.key === inputKey ? now.state : COLLECTING), phase: 'stopped' },
      };
    });
  }, [close, inputKey]);
  const state = keyed.key === inputKey ? keyed.state : inputKey === null ? IDLE : COLLECTING;
  return { ...state, start, cancel };
}

/** After a job ends: what its declaration says it makes stale. */
async function invalidateAfter(name: JobName, queryClient: ReturnType<typeof useQueryClient>) {
  let invalidatedBy: typeof InvalidatedBy;
  try {
    ({ invalidatedBy } = await loadContract());
  } catch {
    // Without the contract the declaration is unknown: everything is stale rather than something stale shown.
    contract = undefined;
    await queryClient.invalidateQueries();
    return;
  }
  await Promise.all(invalidatedBy(name).map((key) => queryClient.invalidateQueries({ queryKey: [key] })));
}
