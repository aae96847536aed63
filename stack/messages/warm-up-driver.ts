// The client side of the warm-up's rehearsal (stack/messages/warm-up.ts): it publishes to the rehearsal's
// message service and is the sink its deliveries go to. It runs in a worker thread of its own when the stack
// runs from its bundle (stack/cli.ts starts it with the role 'warm-up-driver'), so that the main thread spends
// the short warm-up window (≤ 1 s from spawn to ready) on the stack's own code only — publish, plan, commit,
// deliver — rather than sharing it with the client's requests and the sink's answers, which took about as
// much of it. In-process tests, where there is no bundle to start a thread from, drive from the main thread.
import http from 'node:http';
import { type MessagePort, Worker } from 'node:worker_threads';
import { closeServer, listen } from '../http/server';

export interface DriveJob {
  /** The rehearsal's message service (`http://127.0.0.1:port`) and its token. */
  url: string;
  token: string;
  /** Messages to publish at most. */
  messages: number;
  /** No new wave (after the first) starts after this wall-clock time (Date.now(): the same in every thread). */
  stopAt: number;
  /** How long to wait for the last deliveries once sending stopped. */
  drainMs: number;
}

export interface DriveReport {
  /** Publishes answered 200. */
  published: number;
  /** Deliveries that reached the sink. */
  delivered: number;
}

export interface RehearsalDriver {
  where: 'worker thread' | 'main thread';
  drive(job: DriveJob): Promise<DriveReport>;
  close(): Promise<void>;
}

const BODY = Buffer.from(JSON.stringify({ warmUp: true, padding: 'x'.repeat(200) }));
/** Publishes in flight at once, as a loaded client would have. */
const WAVE = 50;

/** A driver on this thread: its sink listens on 127.0.0.1 port 0. */
export async function startDriver(): Promise<RehearsalDriver> {
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
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  return {
    where: 'main thread',
    async drive(job) {
      delivered = 0;
      let published = 0;
      // The first wave always runs: it is the one that warms the most.
      for (let wave = 0; wave < job.messages && (wave === 0 || Date.now() < job.stopAt); wave += WAVE) {
        const requests: Promise<void>[] = [];
        for (let i = wave; i < Math.min(job.messages, wave + WAVE); i++) {
          const headers = {
            authorization: `Bearer ${job.token}`,
            'content-type': 'application/json',
            'upstash-retries': '2',
            'upstash-forward-x-warm-up': String(i),
          };
          const url = `${job.url}/v2/publish/http://127.0.0.1:${sinkPort}/warm-up/${i}`;
          requests.push(publish(agent, url, headers).then(() => void published++));
        }
        await Promise.all(requests);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, job.drainMs);
        onDelivery = () => {
          if (delivered < published) return;
          clearTimeout(timer);
          resolve();
        };
        onDelivery();
      });
      onDelivery = () => undefined;
      return { published, delivered };
    },
    async close() {
      agent.destroy();
      await closeServer(sink, 0);
    },
  };
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

type ToThread = { drive: DriveJob } | { close: true };
type FromThread = { ready: true } | { report: DriveReport } | { error: string };

/**
 * A driver in a worker thread started from `script` (the stack's bundled CLI, which calls runDriverThread for
 * the role 'warm-up-driver'). Start it early: the thread loads the bundle while the main thread opens the
 * database.
 */
export function startDriverThread(script: string): Promise<RehearsalDriver> {
  const worker = new Worker(script, {
    workerData: { role: 'warm-up-driver' },
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  /** The thread's next message, or its error / exit as a rejection. */
  const next = (): Promise<FromThread> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: FromThread): void => {
        worker.off('error', onError);
        worker.off('exit', onExit);
        if ('error' in message) reject(new Error(`warm-up driver: ${message.error}`));
        else resolve(message);
      };
      const onError = (error: Error): void => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        reject(new Error(`warm-up driver: ${error.message}`));
      };
      const onExit = (code: number): void => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        reject(new Error(`warm-up driver exited with ${code}`));
      };
      worker.once('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
    });
  const post = (message: ToThread): void => worker.postMessage(message);
  const close = async (): Promise<void> => {
    if (worker.threadId === -1) return;
    post({ close: true });
    await exited;
  };
  return next().then(
    () => ({
      where: 'worker thread' as const,
      async drive(job) {
        const answer = next();
        post({ drive: job });
        const message = await answer;
        if (!('report' in message)) throw new Error('warm-up driver: no report');
        return message.report;
      },
      close,
    }),
    async (error: unknown) => {
      await worker.terminate();
      throw error;
    },
  );
}

/** The worker thread's side of startDriverThread. */
export function runDriverThread(port: MessagePort): void {
  const send = (message: FromThread): void => port.postMessage(message);
  startDriver().then(
    (driver) => {
      port.on('message', (message: ToThread) => {
        if ('close' in message) {
          void driver.close().finally(() => port.close());
          return;
        }
        driver.drive(message.drive).then(
          (report) => send({ report }),
          (error: unknown) => send({ error: error instanceof Error ? error.message : String(error) }),
        );
      });
      send({ ready: true });
    },
    (error: unknown) => {
      send({ error: error instanceof Error ? error.message : String(error) });
      port.close();
    },
  );
}
