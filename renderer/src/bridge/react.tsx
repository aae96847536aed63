// React glue for the bridge: a context holding the client, TanStack Query hooks for calls, and a hook
// for streams that reopens them after a reconnect.
import {
  type QueryKey,
  useMutation,
  type UseMutationOptions,
  useQuery,
  useQueryClient,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import type { BridgeError } from '../../../shared/bridge/errors';
import type {
  CallName,
  EventOf,
  InputOf,
  invalidatedBy as InvalidatedBy,
  OutputOf,
  StreamName,
} from '../../../shared/bridge/procedures';
import type { BridgeClient } from './client';
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

export function useBridgeQuery<N extends CallName>(
  name: N,
  input: InputOf<N>,
  options: Omit<UseQueryOptions<OutputOf<N>, BridgeError>, 'queryKey' | 'queryFn'> = {},
) {
  const bridge = useBridge();
  return useQuery<OutputOf<N>, BridgeError>({
    queryKey: bridgeKey(name, input),
    queryFn: () => bridge.call(name, input),
    ...options,
  });
}

// The contract's values (every procedure's zod schema) stay out of the first screen's JavaScript: they
// load when a screen first mounts a mutation hook, long before that mutation can succeed.
let contract: Promise<{ invalidatedBy: typeof InvalidatedBy }> | undefined;
const loadContract = () => (contract ??= import('../../../shared/bridge/procedures'));

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
  useEffect(() => void loadContract(), []);
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
