// useBridgeMutation applies the invalidations a procedure declares in the contract: after a successful
// call every cached input of each declared query is stale, nothing else is, and the screen's own
// onSuccess runs after that. A failed call invalidates nothing.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { CallDef } from '../../../shared/bridge/define';
import type { CallResult } from '../../../shared/bridge/frames';
import { type CallName, invalidatedBy, procedures } from '../../../shared/bridge/procedures';
import { BridgeClient } from './client';
import { BridgeProvider, useBridgeMutation } from './react';
import type { Transport } from './transport';

const CALLS = Object.entries(procedures)
  .filter(([, def]) => def.kind === 'call')
  .map(([name]) => name as CallName);

/** main's side of the bridge, reduced to an answer per call (the hook under test never sees main). */
function transport(answer: (name: string) => CallResult): Transport & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    call: (name) => {
      calls.push(name);
      return Promise.resolve(answer(name));
    },
    open: () => () => {},
    onConnection: () => () => {},
  };
}

/** A cache holding one result of every call, for two profiles. */
function filledCache(): QueryClient {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  for (const name of CALLS) {
    queryClient.setQueryData([name, { profileId: 'a' }], { cached: name });
    queryClient.setQueryData([name, { profileId: 'b' }], { cached: name });
  }
  return queryClient;
}

function invalidatedNames(queryClient: QueryClient): string[] {
  const names = queryClient
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => String(query.queryKey[0]));
  return [...new Set(names)].sort();
}

function wrapperFor(queryClient: QueryClient, bridge: Transport) {
  const client = new BridgeClient(bridge);
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={client}>{children}</BridgeProvider>
    </QueryClientProvider>
  );
}

describe('useBridgeMutation', () => {
  it('invalidates what the procedure declares, for every profile, before the screen’s onSuccess', async () => {
    const queryClient = filledCache();
    const bridge = transport(() => ({
      ok: true,
      value: { name: 'q', parallelism: 1, paused: false, lag: 0 },
    }));
    let seenBySuccess: string[] = [];
    const { result } = renderHook(
      () =>
        useBridgeMutation('messages.queues.upsert', {
          onSuccess: () => {
            seenBySuccess = invalidatedNames(queryClient);
          },
        }),
      { wrapper: wrapperFor(queryClient, bridge) },
    );
    await act(() => result.current.mutateAsync({ profileId: 'a', name: 'q', parallelism: 1, paused: false }));

    expect(bridge.calls).toEqual(['messages.queues.upsert']);
    expect(invalidatedNames(queryClient)).toEqual(['messages.queues.list']);
    for (const profileId of ['a', 'b'])
      expect(queryClient.getQueryState(['messages.queues.list', { profileId }])?.isInvalidated).toBe(true);
    expect(seenBySuccess).toEqual(['messages.queues.list']);
  });

  it('applies each call’s own declaration, whatever it is', async () => {
    const declaring = CALLS.filter((name) => invalidatedBy(name).length > 0);
    expect(declaring).toContain('messages.dlq.delete');
    expect(declaring).toContain('profiles.activate');
    for (const name of declaring) {
      const queryClient = filledCache();
      const { result } = renderHook(() => useBridgeMutation(name), {
        wrapper: wrapperFor(
          queryClient,
          transport(() => ({ ok: true, value: {} })),
        ),
      });
      await act(() => result.current.mutateAsync({} as never));
      expect(invalidatedNames(queryClient), name).toEqual(
        [...new Set((procedures[name] as CallDef).invalidates)].sort(),
      );
    }
  });

  it('invalidates nothing when the call fails', async () => {
    const queryClient = filledCache();
    const bridge = transport(() => ({
      ok: false,
      error: { code: 'SERVICE_ERROR', status: 409, message: 'queue is locked' },
    }));
    const { result } = renderHook(() => useBridgeMutation('messages.queues.delete'), {
      wrapper: wrapperFor(queryClient, bridge),
    });
    await act(async () => {
      await expect(result.current.mutateAsync({ profileId: 'a', name: 'q' })).rejects.toThrow(
        'queue is locked',
      );
    });
    expect(invalidatedNames(queryClient)).toEqual([]);
  });
});
