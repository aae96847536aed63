// Runs the hot paths of publish and delivery before the stack says it is ready, so that the first second
// under load is as good as the rest: a fresh process measured p99 153–382 ms and a 1–1.8 s max in its first
// second at 1,000 msg/s (JIT compilation of the request, planning and delivery code, undici's first pool,
// first statement preparation) before settling near 8 ms. Nothing is stored: the API requests are ones the
// service refuses at the end of planning, and the deliveries go to a sink of its own on loopback.
import http from 'node:http';
import { Agent, request } from 'undici';
import type { StackStore } from '../store/stack-store';
import { closeServer, listen } from '../http/server';
import type { Transport } from './delivery';
import { signDelivery } from './signing';

export interface WarmUpOptions {
  /** The message API (`http://127.0.0.1:port`) and its token. */
  url: string;
  token: string;
  /** The delivery transport to warm up (undefined: deliveries are not warmed). */
  transport?: Transport;
  store: StackStore;
  signingKey: string;
  /** Requests of each kind; enough for V8 to optimise the hot functions. */
  rounds?: number;
}

const BODY = Buffer.from(JSON.stringify({ warmUp: true, padding: 'x'.repeat(200) }));

export async function warmUp(options: WarmUpOptions): Promise<void> {
  const rounds = options.rounds ?? 300;
  const sink = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  const sinkPort = await listen(sink, '127.0.0.1', 0);
  const client = new Agent({ connections: 16 });
  try {
    for (let batch = 0; batch < rounds; batch += 50) {
      const wave: Promise<unknown>[] = [];
      for (let i = batch; i < Math.min(rounds, batch + 50); i++) {
        // The API: auth, routing, header collection, body reading and publish planning, refused at the
        // queue-name check (`..`) that comes after every header rule, so nothing is stored.
        wave.push(
          request(`${options.url}/v2/enqueue/%2E%2E/http://127.0.0.1:${sinkPort}/warm-up`, {
            method: 'POST',
            dispatcher: client,
            headers: {
              authorization: `Bearer ${options.token}`,
              'content-type': 'application/json',
              'upstash-retries': '2',
              'upstash-forward-x-warm-up': String(i),
            },
            body: BODY,
          }).then((response) => response.body.dump()),
        );
        // The delivery: signing and the transport's undici pool, to a destination of our own.
        const url = `http://127.0.0.1:${sinkPort}/warm-up/${i}`;
        if (!options.transport) continue;
        wave.push(
          options.transport.send({
            url,
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'upstash-signature': signDelivery(options.signingKey, url, BODY, Date.now()),
            },
            body: BODY,
            timeoutMs: 10_000,
          }),
        );
      }
      await Promise.all(wave);
    }
    // Reads of the logs, the DLQ and pending messages: their statements are prepared and cached now.
    options.store.events.list({}, undefined, 1);
    options.store.dlq.list({}, undefined, 1);
  } finally {
    await client.close();
    await closeServer(sink, 0);
  }
}
