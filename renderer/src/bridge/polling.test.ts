// A polling screen backs off while its service fails and is back to its own rate on the first answer;
// a query the user stopped waiting for is not polled. Run on TanStack Query's own QueryClient and observer.
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BridgeError } from '../../../shared/bridge/errors';
import { MAX_POLL_MS, pollEvery } from './polling';

const down = new BridgeError({ code: 'SERVICE_ERROR', message: 'internal boom', status: 500 });
const key = ['messages.queues.list', { profileId: 'p' }];

function client() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** Fetches the query once with `answer`, and returns the interval `pollEvery(every)` then asks for. */
async function after(
  queries: QueryClient,
  answer: 'fail' | 'answer',
  every: Parameters<typeof pollEvery>[0],
) {
  await queries
    .fetchQuery({
      queryKey: key,
      queryFn: () => (answer === 'fail' ? Promise.reject(down) : Promise.resolve([])),
      staleTime: 0,
    })
    .catch(() => undefined);
  return pollEvery(every)(queries.getQueryCache().find({ queryKey: key, exact: true })!);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('pollEvery', () => {
  it('doubles the interval for each failure in a row, up to 30 s, and is back to its rate on an answer', async () => {
    const queries = client();
    expect(await after(queries, 'answer', 2000)).toBe(2000);
    const whileDown = [];
    for (let i = 0; i < 6; i += 1) whileDown.push(await after(queries, 'fail', 2000));
    expect(whileDown).toEqual([4000, 8000, 16_000, MAX_POLL_MS, MAX_POLL_MS, MAX_POLL_MS]);
    expect(await after(queries, 'answer', 2000)).toBe(2000);
    // A new run of failures starts from the screen's rate again.
    expect(await after(queries, 'fail', 2000)).toBe(4000);
  });

  it('keeps a screen that polls slower than the cap at its own rate, and a screen that does not poll off', async () => {
    const queries = client();
    expect(await after(queries, 'fail', 60_000)).toBe(60_000);
    expect(await after(queries, 'fail', false)).toBe(false);
    expect(await after(queries, 'fail', () => false)).toBe(false);
    expect(await after(queries, 'answer', () => 1500)).toBe(1500);
  });

  it('stops polling a query whose wait the user stopped', async () => {
    const queries = client();
    const fetching = queries.fetchQuery({ queryKey: key, queryFn: () => new Promise(() => {}) });
    await queries.cancelQueries({ queryKey: key, exact: true }, { revert: false });
    await fetching.catch(() => undefined);
    expect(pollEvery(2000)(queries.getQueryCache().find({ queryKey: key, exact: true })!)).toBe(false);
  });

  it('asks a service that stays down a few times a minute, not every 2 s (an observer on fake time)', async () => {
    vi.useFakeTimers();
    const queries = client();
    let requests = 0;
    const observer = new QueryObserver(queries, {
      queryKey: key,
      queryFn: () => {
        requests += 1;
        return Promise.reject(down);
      },
      refetchInterval: pollEvery(2000),
    });
    const stop = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(120_000);
    stop();
    // 0 s, then 4, 8, 16, 30, 30, 30 s apart: 7 requests in two minutes, where a steady 2 s is 60.
    expect(requests).toBe(7);
  });
});
