import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { stream } from '../../../shared/bridge/define';
import type { ServerFrame } from '../../../shared/bridge/frames';
import { createRouter, type Handlers, type StreamSink } from './router';
import { BridgeSession } from './session';

/** A stream source that records whether it is running, like a KV monitor connection would. */
function setup(startDelayMs = 0) {
  const running = new Set<number>();
  let sinks: StreamSink<unknown>[] = [];
  let nextSource = 1;
  const handlers = {
    'test.source': async (_input: unknown, sink: StreamSink<unknown>) => {
      if (startDelayMs) await new Promise((resolve) => setTimeout(resolve, startDelayMs));
      const id = nextSource++;
      running.add(id);
      sinks.push(sink);
      return () => running.delete(id);
    },
  } as unknown as Handlers;
  const router = createRouter({
    handlers,
    registry: { 'test.source': stream<string>()(z.object({})) },
    isReadOnly: () => false,
    logError: () => {},
  });
  const frames: ServerFrame[] = [];
  const session = new BridgeSession(router, (frame) => frames.push(frame), { flushIntervalMs: 5 });
  return { session, frames, running, sinks: () => sinks, reset: () => (sinks = []) };
}

const settle = (ms = 20) => new Promise((resolve) => setTimeout(resolve, ms));

describe('BridgeSession', () => {
  it('stops every source when the connection goes away', async () => {
    const { session, running } = setup();
    await session.open(1, 'test.source', {});
    await session.open(2, 'test.source', {});
    expect(running.size).toBe(2);
    session.dispose();
    expect(running.size).toBe(0);
    expect(session.openStreamCount).toBe(0);
  });

  it('stops a source on close from the renderer and sends a final end frame', async () => {
    const { session, running, frames, sinks } = setup();
    await session.open(1, 'test.source', {});
    sinks()[0]!.push('hello');
    session.close(1);
    expect(running.size).toBe(0);
    expect(frames).toEqual([
      { type: 'events', id: 1, events: ['hello'], dropped: 0 },
      { type: 'end', id: 1 },
    ]);
  });

  it('stops a source whose close arrived while it was still starting', async () => {
    const { session, running, frames } = setup(10);
    const opening = session.open(1, 'test.source', {});
    session.close(1);
    await opening;
    expect(running.size).toBe(0);
    expect(frames.at(-1)).toEqual({ type: 'end', id: 1 });
  });

  it('stops a source whose connection went away while it was starting', async () => {
    const { session, running } = setup(10);
    const opening = session.open(1, 'test.source', {});
    session.dispose();
    await opening;
    expect(running.size).toBe(0);
  });

  it('lets the source end the stream with an error', async () => {
    const { session, frames, running, sinks } = setup();
    await session.open(4, 'test.source', {});
    sinks()[0]!.end({ code: 'UNREACHABLE', message: 'redis went away' });
    await settle();
    expect(frames).toEqual([
      { type: 'end', id: 4, error: { code: 'UNREACHABLE', message: 'redis went away' } },
    ]);
    expect(running.size).toBe(0);
  });

  it('answers a stream with an error frame when its input is invalid', async () => {
    const { session, frames } = setup();
    await session.open(9, 'no.such.stream', {});
    expect(frames).toEqual([
      { type: 'end', id: 9, error: expect.objectContaining({ code: 'UNKNOWN_PROCEDURE' }) },
    ]);
  });
});
