// A probe for `npm run bench -- workflows`: the stack time of each hop, from a publish arriving (its handler
// starting) to the delivery it created leaving (the engine's prepare hook, just before signing and sending).
// Workflow steps and plain messages are measured apart, so the bench can compare them in the same process.
// Off unless SWITCHYARD_STEP_TIMING_FILE names a file; the samples are written there when the service closes.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export type HopKind = 'workflow' | 'message';

export interface StepTiming {
  /** A publish of `kind` arrived at `at` (performance.now()) and created the message `messageId`. */
  arrived(kind: HopKind, messageId: string, at: number): void;
  /** The delivery of `messageId` is leaving now. */
  leaving(messageId: string): void;
  /** Writes the samples (milliseconds per hop, by kind). */
  close(): void;
}

const OFF: StepTiming = { arrived: () => undefined, leaving: () => undefined, close: () => undefined };

/** Hops kept waiting for their other end at most (a message delayed for long is simply not measured). */
const MAX_OPEN = 100_000;

export function stepTiming(file = process.env.SWITCHYARD_STEP_TIMING_FILE): StepTiming {
  if (!file) return OFF;
  const samples: Record<HopKind, number[]> = { workflow: [], message: [] };
  // Either end may come first: a message due now is sent before its publish handler has returned its id.
  const arrivals = new Map<string, { kind: HopKind; at: number }>();
  const departures = new Map<string, number>();
  const record = (kind: HopKind, from: number, to: number): void => {
    samples[kind].push(to - from);
  };
  return {
    arrived(kind, messageId, at) {
      const left = departures.get(messageId);
      if (left !== undefined) {
        departures.delete(messageId);
        record(kind, at, left);
      } else if (arrivals.size < MAX_OPEN) {
        arrivals.set(messageId, { kind, at });
      }
    },
    leaving(messageId) {
      const now = performance.now();
      const arrival = arrivals.get(messageId);
      if (arrival) {
        arrivals.delete(messageId);
        record(arrival.kind, arrival.at, now);
      } else if (departures.size < MAX_OPEN) {
        departures.set(messageId, now);
      }
    },
    close() {
      writeFileSync(file, JSON.stringify(samples));
    },
  };
}
