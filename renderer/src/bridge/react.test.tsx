// useBridgeMutation applies the invalidations a procedure declares in the contract: after a successful
// call every cached input of each declared query is stale, nothing else is, and the screen's own
// onSuccess runs after that. A failed call invalidates nothing. useBridgeJob does the same when a job
// ends after its start, starts with the count the preview showed, and cancels by closing.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { CallDef, JobDef } from '../../../shared/bridge/define';
import type { CallResult } from '../../../shared/bridge/frames';
import { type CallName, invalidatedBy, procedures } from '../../../shared/bridge/procedures';
import { BridgeClient } from './client';
import { BridgeProvider, useBridgeJob, useBridgeMutation, useBridgeQuery } from './react';
import type { StreamHandlers, Transport } from './transport';

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
    job: () => {
      throw new Error('no jobs in this test');
    },
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
    // One render per declaring call (dozens, more with every feature): over vitest's 5 s on a loaded machine.
  }, 60_000);

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

describe('useBridgeQuery', () => {
  it('keeps the last error on screen while a query without data tries again, until it succeeds', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const answers: ((result: CallResult) => void)[] = [];
    const bridge: Transport = {
      ...transport(() => ({ ok: true, value: null })),
      call: () => new Promise<CallResult>((resolve) => answers.push(resolve)),
    };
    const { result } = renderHook(() => useBridgeQuery('messages.queues.list', { profileId: 'a' }), {
      wrapper: wrapperFor(queryClient, bridge),
    });
    const refused = { code: 'UNREACHABLE', message: 'Connection refused by 127.0.0.1:9' } as const;
    await waitFor(() => expect(answers).toHaveLength(1));
    act(() => answers[0]!({ ok: false, error: refused }));
    await waitFor(() => expect(result.current.error?.message).toBe(refused.message));

    // Trying again (a refetch interval, Refresh): the error stays, not a spinner in its place.
    act(() => void result.current.refetch());
    await waitFor(() => expect(answers).toHaveLength(2));
    expect(result.current.isFetching).toBe(true);
    expect(result.current.error?.message).toBe(refused.message);
    expect(result.current.isLoading).toBe(false);
    expect(result.current.status).toBe('error');

    // The service is back: the data, and no error.
    act(() => answers[1]!({ ok: true, value: { queues: [] } }));
    await waitFor(() => expect(result.current.data).toEqual({ queues: [] }));
    expect(result.current.error).toBeNull();
    expect(result.current.isError).toBe(false);
  });
});

/** main's side of one job: the test plays its events and sees the start and the close. */
function jobTransport() {
  const seen: { started?: { options: unknown; confirmed: number }; closed: boolean } = { closed: false };
  let handlers: StreamHandlers | undefined;
  const bridge: Transport = {
    call: () => Promise.reject(new Error('no calls')),
    open: () => () => {},
    job: (_name, _input, jobHandlers) => {
      handlers = jobHandlers;
      return {
        start: (options, confirmed) => (seen.started = { options, confirmed }),
        close: () => (seen.closed = true),
      };
    },
    onConnection: () => () => {},
  };
  return {
    bridge,
    seen,
    send: (...events: unknown[]) => handlers!.onEvents(events, 0),
    end: () => handlers!.onEnd(),
  };
}

describe('useBridgeJob', () => {
  const input = { profileId: 'a', action: 'delete' as const, target: { ids: ['d1', 'd2'] } };

  it('previews, starts with the confirmed count, and invalidates what the job declares when it ends', async () => {
    const queryClient = filledCache();
    const main = jobTransport();
    const { result } = renderHook(() => useBridgeJob('messages.dlq.job', input), {
      wrapper: wrapperFor(queryClient, main.bridge),
    });
    expect(result.current.phase).toBe('collecting');
    act(() => main.send({ type: 'collecting', jobId: 'j', found: 2, done: true, capped: false }));
    expect(result.current).toMatchObject({ phase: 'ready', found: 2 });
    act(() => result.current.start({ overrides: {} }));
    expect(main.seen.started).toEqual({ options: { overrides: {} }, confirmed: 2 });
    act(() =>
      main.send(
        { type: 'started', jobId: 'j', total: 2 },
        { type: 'progress', total: 2, processed: 2, succeeded: 2, failed: 0 },
        { type: 'done', summary: { jobId: 'j', status: 'done', succeeded: 2 } },
      ),
    );
    expect(invalidatedNames(queryClient)).toEqual([]);
    await act(async () => main.end());
    await waitFor(() =>
      expect(invalidatedNames(queryClient)).toEqual(
        [...(procedures['messages.dlq.job'] as JobDef).invalidates]
          .filter((name) => CALLS.includes(name as CallName))
          .sort(),
      ),
    );
    expect(result.current.phase).toBe('ended');
  });

  it('shows a listing that waits through an outage, and drops the wait once the listing is answered', () => {
    const main = jobTransport();
    const { result } = renderHook(() => useBridgeJob('messages.dlq.job', input), {
      wrapper: wrapperFor(filledCache(), main.bridge),
    });
    act(() => main.send({ type: 'collecting', jobId: 'j', found: 1, done: false, capped: false }));
    act(() => main.send({ type: 'waiting', reason: 'HTTP 503', attempt: 1, delayMs: 1000 }));
    expect(result.current).toMatchObject({
      phase: 'collecting',
      waiting: { attempt: 1, reason: 'HTTP 503' },
    });
    act(() => main.send({ type: 'collecting', jobId: 'j', found: 2, done: true, capped: false }));
    expect(result.current.phase).toBe('ready');
    expect(result.current.waiting).toBeUndefined();
  });

  it('closing before the start cancels the listing and changes nothing', async () => {
    const queryClient = filledCache();
    const main = jobTransport();
    const { result, unmount } = renderHook(() => useBridgeJob('messages.dlq.job', input), {
      wrapper: wrapperFor(queryClient, main.bridge),
    });
    act(() => main.send({ type: 'collecting', jobId: 'j', found: 1, done: false, capped: false }));
    unmount();
    expect(main.seen).toEqual({ closed: true });
    expect(result.current.phase).toBe('collecting');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(invalidatedNames(queryClient)).toEqual([]);
  });

  it('cancel after the start closes the job and invalidates: chunks were sent', async () => {
    const queryClient = filledCache();
    const main = jobTransport();
    const { result } = renderHook(() => useBridgeJob('messages.dlq.job', input), {
      wrapper: wrapperFor(queryClient, main.bridge),
    });
    act(() => main.send({ type: 'collecting', jobId: 'j', found: 2, done: true, capped: false }));
    act(() => result.current.start({ overrides: {} }));
    act(() => main.send({ type: 'started', jobId: 'j', total: 2 }));
    act(() => result.current.cancel());
    expect(main.seen.closed).toBe(true);
    expect(result.current.phase).toBe('stopped');
    await waitFor(() => expect(invalidatedNames(queryClient)).toContain('messages.dlq.list'));
  });
});
