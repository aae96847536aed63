// Runs the hot paths of publish and delivery before the stack says it is ready, so that the first second
// under load is as good as the rest: a fresh process measured p99 153–382 ms and a 1–1.8 s max in its first
// second at 1,000 msg/s before settling near 8 ms. Requests refused before storing were not enough (first
// second p99 still ~110 ms, spent in the publish answer): the write path — the insert and outcome operations
// in the writer thread, their statements, the engine's scheduling and outcome code — only warms up with real
// writes. So the warm-up publishes real messages to a sink of its own on loopback, with the writer in
// rehearsal (every transaction rolled back: stack/store/writer.ts), and waits until the engine is idle again.
// 1,000 of them: V8 tiers the per-message code up over the first thousand or so messages (the CPU the stack
// spent on the first 1,000 messages after ready was ~1,000 ms after 300 warm-up messages, ~650 ms after
// 1,000, ~600 ms after 3,000, against ~500 ms for the next 1,000); each 1,000 adds ~0.7 s before ready.
import http from 'node:http';
import { Agent, request } from 'undici';
import type { StackStore } from '../store/stack-store';
import { closeServer, listen } from '../http/server';
import type { Engine } from './engine';
import type { MessageWriter } from './write-ops';

export interface WarmUpOptions {
  /** The message API (`http://127.0.0.1:port`) and its token. */
  url: string;
  token: string;
  store: StackStore;
  writer: MessageWriter;
  engine: Engine;
  /** Messages published and delivered (default 1,000); enough for V8 to optimise the hot functions. */
  rounds?: number;
}

const BODY = Buffer.from(JSON.stringify({ warmUp: true, padding: 'x'.repeat(200) }));
/** Publishes in flight at once, as a loaded client would have. */
const WAVE = 50;

export async function warmUp(options: WarmUpOptions): Promise<void> {
  const rounds = options.rounds ?? 1_000;
  let arrived = 0;
  let onArrival: () => void = () => undefined;
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.end('ok');
      arrived++;
      onArrival();
    });
  });
  const sinkPort = await listen(sink, '127.0.0.1', 0);
  const client = new Agent({ connections: 16 });
  options.writer.rehearse(true);
  try {
    for (let batch = 0; batch < rounds; batch += WAVE) {
      const wave: Promise<unknown>[] = [];
      for (let i = batch; i < Math.min(rounds, batch + WAVE); i++) {
        wave.push(
          request(`${options.url}/v2/publish/http://127.0.0.1:${sinkPort}/warm-up/${i}`, {
            method: 'POST',
            dispatcher: client,
            headers: {
              authorization: `Bearer ${options.token}`,
              'content-type': 'application/json',
              'upstash-retries': '2',
              'upstash-forward-x-warm-up': String(i),
            },
            body: BODY,
          }).then(async (response) => {
            await response.body.dump();
            if (response.statusCode !== 200)
              throw new Error(`warm-up publish answered ${response.statusCode}`);
          }),
        );
      }
      await Promise.all(wave);
    }
    // Every message delivered, and the engine done with all of them (outcomes handed to the writer).
    await new Promise<void>((resolve) => {
      onArrival = () => {
        if (arrived >= rounds) resolve();
      };
      onArrival();
    });
    await engineIdle(options.engine);
    // Reads of the logs, the DLQ and pending messages: their statements are prepared and cached now.
    options.store.events.list({}, undefined, 1);
    options.store.dlq.list({}, undefined, 1);
  } finally {
    // The last rehearsed writes are rolled back before the writer commits for real again.
    await options.writer.commitAll([]).catch(() => undefined);
    options.writer.rehearse(false);
    await client.close();
    await closeServer(sink, 0);
  }
}

/** Resolves once the engine holds no message (an attempt's outcome is written right after its response). */
async function engineIdle(engine: Engine): Promise<void> {
  for (;;) {
    const { pending, inflight } = engine.stats();
    if (pending === 0 && inflight === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
