import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { job, stream } from '../../../shared/bridge/define';
import { testSession } from '../testing/bridge-session';
import type { StreamSink } from './router';

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
  };
  const { session, frames } = testSession({ 'test.source': stream<string>()(z.object({})) }, handlers);
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

describe('BridgeSession with a job', () => {
  function jobSetup() {
    const seen: { starts: unknown[]; stopped: boolean } = { starts: [], stopped: false };
    const { session, frames } = testSession(
      {
        'test.job': job<unknown>()(z.object({}), 'local', { start: z.object({ retries: z.number().int() }) }),
      },
      {
        'test.job': () => ({
          start: (options: unknown, confirmed: number) => seen.starts.push({ options, confirmed }),
          stop: () => (seen.stopped = true),
        }),
      },
    );
    return { session, frames, seen };
  }

  it('carries the start frame to the job with its options checked against the declaration', async () => {
    const { session, seen } = jobSetup();
    await session.receive({ type: 'open', id: 1, name: 'test.job', input: {} });
    await session.receive({ type: 'start', id: 1, options: { retries: 2 }, confirmed: 7 });
    expect(seen.starts).toEqual([{ options: { retries: 2 }, confirmed: 7 }]);
    await session.receive({ type: 'close', id: 1 });
    expect(seen.stopped).toBe(true);
  });

  it('a start with options the declaration refuses stops the job and ends it with the reason', async () => {
    const { session, seen, frames } = jobSetup();
    await session.receive({ type: 'open', id: 1, name: 'test.job', input: {} });
    await session.receive({ type: 'start', id: 1, options: { retries: 'many' }, confirmed: 1 });
    expect(seen.starts).toEqual([]);
    expect(seen.stopped).toBe(true);
    expect(frames.at(-1)).toMatchObject({ type: 'end', id: 1, error: { code: 'INVALID_INPUT' } });
  });

  it('a job is not a call, and a start for a stream or an unknown id does nothing', async () => {
    const { session, seen, frames } = jobSetup();
    await session.receive({ type: 'call', id: 1, name: 'test.job', input: {} });
    expect(frames[0]).toMatchObject({ type: 'result', ok: false, error: { code: 'UNKNOWN_PROCEDURE' } });
    await session.receive({ type: 'start', id: 9, options: { retries: 1 }, confirmed: 1 });
    expect(seen.starts).toEqual([]);
  });

  it('the connection going away cancels the job', async () => {
    const { session, seen } = jobSetup();
    await session.receive({ type: 'open', id: 1, name: 'test.job', input: {} });
    session.dispose();
    expect(seen.stopped).toBe(true);
  });
});
