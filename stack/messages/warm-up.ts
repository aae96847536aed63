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
// This module only drives the requests: the service it is given must be one that nothing else can reach
// and whose storage is thrown away afterwards (stack/warm-up.ts: a scratch database, a private port).
import http from 'node:http';
import { closeServer, listen } from '../http/server';
import type { Engine } from './engine';

export interface RehearsalOptions {
  /** The rehearsal's own message service (`http://127.0.0.1:port`), its token and its engine. */
  url: string;
  token: string;
  engine: Engine;
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
}

const BODY = Buffer.from(JSON.stringify({ warmUp: true, padding: 'x'.repeat(200) }));
/** Publishes in flight at once, as a loaded client would have. */
const WAVE = 50;

export async function rehearse(options: RehearsalOptions): Promise<RehearsalReport> {
  const started = performance.now();
  const total = options.messages ?? 1_000;
  const maxMs = options.maxMs ?? 2_000;
  let delivered = 0;
  let onDelivery: () => void = () => undefined;
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.end('ok');
      delivered++;
      onDelivery();
    });
  });
  const sinkPort = await listen(sink, '127.0.0.1', 0);
  // node:http as the client (the stack's deliveries warm undici's Agent): the stack loads no more of undici.
  const client = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let published = 0;
  try {
    for (let wave = 0; wave < total && performance.now() - started < maxMs; wave += WAVE) {
      const requests: Promise<void>[] = [];
      for (let i = wave; i < Math.min(total, wave + WAVE); i++) {
        requests.push(
          publish(client, `${options.url}/v2/publish/http://127.0.0.1:${sinkPort}/warm-up/${i}`, {
            authorization: `Bearer ${options.token}`,
            'content-type': 'application/json',
            'upstash-retries': '2',
            'upstash-forward-x-warm-up': String(i),
          }).then(() => {
            published++;
          }),
        );
      }
      await Promise.all(requests);
    }
    // The engine done with every message: delivered, and its outcome handed to the writer.
    const drainUntil = performance.now() + (options.drainMs ?? 1_000);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.drainMs ?? 1_000);
      onDelivery = () => {
        if (delivered < published) return;
        clearTimeout(timer);
        resolve();
      };
      onDelivery();
    });
    while (performance.now() < drainUntil && options.engine.stats().pending > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  } finally {
    client.destroy();
    await closeServer(sink, 0);
  }
  return { published, delivered, ms: Math.round(performance.now() - started) };
}

/** One rehearsal publish; rejects unless the service answered 200. */
function publish(agent: http.Agent, url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers }, (response) => {
      response.resume();
      response.once('end', () =>
        response.statusCode === 200
          ? resolve()
          : reject(new Error(`warm-up publish answered ${response.statusCode}`)),
      );
    });
    req.once('error', reject);
    req.end(BODY);
  });
}
