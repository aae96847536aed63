// The rehearsal of the stack's warm-up (stack/warm-up.ts sets up where it runs): real publishes through the
// HTTP API of a message service, delivered to a sink of its own on loopback, until V8 has optimised the
// per-message code and the write path (group commit, insert and outcome operations, their statements) is
// warm. Requests refused before storing were not enough — a fresh stack's first second still had p99 ~110 ms,
// spent in the publish answer's write path — and V8 tiers the per-message code up over the first thousand or
// so messages. So the rehearsal publishes up to `messages` (1,000) in waves of 50, as a loaded client would,
// and starts no new wave once `maxMs` (2 s) have passed, so that a loaded machine does not hold the ready line
// up for long: on a quiet machine 1,000 take ~0.7 s, at load average 25 on 2 cores one wave took 2.3 s. After
// the last wave, at most `drainMs` (1 s) for the deliveries, and the scratch service closes (0.5 s grace).
// The real stack passes a shorter `maxMs`: what is left of its spawn-to-ready budget (stack/stack.ts).
//
// The requests and the sink are the driver's (stack/messages/warm-up-driver.ts: a worker thread when the
// stack runs from its bundle). The service it is given must be one that nothing else can reach and whose
// storage is thrown away afterwards (stack/warm-up.ts: a scratch database, a private port).
import type { Engine } from './engine';
import { startDriver, type RehearsalDriver } from './warm-up-driver';

export interface RehearsalOptions {
  /** The rehearsal's own message service (`http://127.0.0.1:port`), its token and its engine. */
  url: string;
  token: string;
  engine: Engine;
  /** Who publishes and receives (default: a driver on this thread, closed afterwards). */
  driver?: RehearsalDriver;
  /** Messages to publish at most (default 1,000). */
  messages?: number;
  /** No new wave starts after this many milliseconds (default 2,000). */
  maxMs?: number;
  /** How long to wait for the last deliveries once sending stopped (default 1,000 ms). */
  drainMs?: number;
}

export interface RehearsalReport {
  /** Publishes answered 200. */
  published: number;
  /** Deliveries that reached the rehearsal's sink. */
  delivered: number;
  /** Wall time of the rehearsal. */
  ms: number;
  /** Where the requests came from. */
  driver: RehearsalDriver['where'];
}

export async function rehearse(options: RehearsalOptions): Promise<RehearsalReport> {
  const started = performance.now();
  const drainMs = options.drainMs ?? 1_000;
  const driver = options.driver ?? (await startDriver());
  try {
    const { published, delivered } = await driver.drive({
      url: options.url,
      token: options.token,
      messages: options.messages ?? 1_000,
      stopAt: Date.now() + (options.maxMs ?? 2_000),
      drainMs,
    });
    // The engine done with every message: delivered, and its outcome handed to the writer.
    const drainUntil = performance.now() + drainMs;
    while (performance.now() < drainUntil && options.engine.stats().pending > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return {
      published,
      delivered,
      ms: Math.round(performance.now() - started),
      driver: driver.where,
    };
  } finally {
    if (!options.driver) await driver.close();
  }
}
