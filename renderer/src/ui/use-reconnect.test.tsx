// A live stream that lost its service is opened again by itself, less and less often while the service
// stays away, and from 1 s again once it answered; a refusal ends it for good.
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reconnectDelay, useReconnect } from './use-reconnect';

const refused = { code: 'UNREACHABLE', message: 'Connection refused by 127.0.0.1:8079' } as const;

describe('useReconnect', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens a lost stream again after 1 s, 2 s, 4 s … and from 1 s again once it was confirmed', () => {
    const { result } = renderHook(() => useReconnect());
    let again = false;
    act(() => void (again = result.current.ended(refused)));
    expect(again).toBe(true);
    expect(result.current.lost).toEqual(refused);
    act(() => vi.advanceTimersByTime(999));
    expect(result.current.attempt).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.attempt).toBe(1);

    // Still down: the next attempt waits twice as long.
    act(() => void result.current.ended(refused));
    act(() => vi.advanceTimersByTime(1999));
    expect(result.current.attempt).toBe(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.attempt).toBe(2);

    // Back: nothing pending, and the next loss waits 1 s again.
    act(() => result.current.opened());
    expect(result.current.lost).toBeUndefined();
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current.attempt).toBe(2);
    act(() => void result.current.ended({ code: 'TIMEOUT', message: 'no answer' }));
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.attempt).toBe(3);
  });

  it('ends a refused stream: no reconnect', () => {
    const { result } = renderHook(() => useReconnect());
    let again = true;
    act(
      () => void (again = result.current.ended({ code: 'SERVICE_ERROR', status: 401, message: 'WRONGPASS' })),
    );
    expect(again).toBe(false);
    act(() => void (again = result.current.ended(undefined)));
    expect(again).toBe(false);
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current.attempt).toBe(0);
    expect(result.current.lost).toBeUndefined();
  });

  it('waits at most 30 s between attempts', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});
