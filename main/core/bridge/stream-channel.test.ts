import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerFrame } from '../../../shared/bridge/frames';
import { StreamChannel } from './stream-channel';

describe('StreamChannel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('delivers events in batches, one frame per flush interval', () => {
    const frames: ServerFrame[] = [];
    const channel = new StreamChannel(7, (frame) => frames.push(frame), { flushIntervalMs: 50 });
    for (let i = 0; i < 100; i += 1) channel.push(i);
    expect(frames).toHaveLength(0);
    vi.advanceTimersByTime(50);
    expect(frames).toEqual([
      { type: 'events', id: 7, events: Array.from({ length: 100 }, (_, i) => i), dropped: 0 },
    ]);
  });

  it('sends the first batch on the next turn, then at most one batch per interval', () => {
    // The interval is measured with performance.now(): fake it too, so a slow machine cannot open it early.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const frames: ServerFrame[] = [];
    const channel = new StreamChannel(2, (frame) => frames.push(frame), { flushIntervalMs: 50 });
    channel.push('first');
    channel.push('same turn');
    vi.advanceTimersByTime(0);
    expect(frames).toEqual([{ type: 'events', id: 2, events: ['first', 'same turn'], dropped: 0 }]);
    channel.push('soon after');
    vi.advanceTimersByTime(0);
    expect(frames).toHaveLength(1);
    vi.advanceTimersByTime(50);
    expect(frames).toEqual([
      { type: 'events', id: 2, events: ['first', 'same turn'], dropped: 0 },
      { type: 'events', id: 2, events: ['soon after'], dropped: 0 },
    ]);
  });

  it('drops the oldest events beyond its capacity and counts them', () => {
    const frames: ServerFrame[] = [];
    const channel = new StreamChannel(1, (frame) => frames.push(frame), { capacity: 10 });
    for (let i = 0; i < 25; i += 1) channel.push(i);
    expect(channel.pending).toBe(10);
    vi.advanceTimersByTime(50);
    expect(frames[0]).toEqual({
      type: 'events',
      id: 1,
      events: [15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
      dropped: 15,
    });
  });

  it('keeps memory bounded under a long burst', () => {
    const channel = new StreamChannel(1, () => {}, { capacity: 100 });
    for (let i = 0; i < 100_000; i += 1) channel.push({ line: i });
    expect(channel.pending).toBe(100);
  });

  it('holds batches while the transport is congested', () => {
    const frames: ServerFrame[] = [];
    let congested = true;
    const channel = new StreamChannel(1, (frame) => frames.push(frame), {
      capacity: 5,
      isCongested: () => congested,
    });
    for (let i = 0; i < 8; i += 1) channel.push(i);
    vi.advanceTimersByTime(200);
    expect(frames).toHaveLength(0);
    congested = false;
    vi.advanceTimersByTime(50);
    expect(frames).toEqual([{ type: 'events', id: 1, events: [3, 4, 5, 6, 7], dropped: 3 }]);
  });

  it('flushes what is left when it ends, then ignores further events', () => {
    const frames: ServerFrame[] = [];
    const channel = new StreamChannel(3, (frame) => frames.push(frame));
    channel.push('a');
    channel.end({ code: 'UNREACHABLE', message: 'gone' });
    channel.push('b');
    channel.end();
    vi.advanceTimersByTime(100);
    expect(frames).toEqual([
      { type: 'events', id: 3, events: ['a'], dropped: 0 },
      { type: 'end', id: 3, error: { code: 'UNREACHABLE', message: 'gone' } },
    ]);
  });
});
