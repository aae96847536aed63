// The message delivery service: its HTTP API on one port and the delivery engine behind it, over the stack's
// SQLite database.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Clock, Timer } from '../clock';
import { createBrowserGuard } from '../security/browser-guard';
import { baseUrl, closeServer, createHttpService, listen, Router } from '../http/server';
import type { Db, Durability } from '../store/db';
import { MessageStore } from '../store/message-store';
import { Checkpointer, InlineWriter, ThreadWriter, type OpRegistry } from '../store/writer';
import { DEFAULT_BACKOFF_FACTOR } from './backoff';
import { HttpTransport, type Transport } from './delivery';
import { Engine, type EngineHooks } from './engine';
import { TOKEN_PARAMS } from './publish-request';
import { messageRoutes } from './routes-messages';
import { publishRoutes } from './routes-publish';
import { resourceRoutes } from './routes-resources';
import type { ServiceContext, SigningKeyStore } from './service-context';
import { MESSAGE_WRITES, type MessageWriter } from './write-ops';

export interface MessageServiceOptions {
  db: Db;
  /**
   * Background threads for SQLite, from `script` (a file that starts them when loaded as a worker: the bundled
   * CLI). Always a checkpointer thread; with `durability: 'full'` also a writer thread, so that per-commit
   * fsyncs never block the event loop. With `normal` durability commits stay on the main thread (no fsync, no
   * thread hop: shorter publish latency, higher throughput). Without it, everything runs on the main thread.
   */
  threads?: { script: string; file: string; durability: Durability };
  host: string;
  port: number;
  /** Host names accepted besides loopback ones (see stack/security/browser-guard.ts). */
  allowedHosts?: readonly string[];
  clock: Clock;
  logger: Logger;
  /** The token every request must carry (a function: it is read per request). */
  token: () => string;
  signingKeys: SigningKeyStore;
  /** Request body limit in bytes. */
  maxBody?: number;
  /** Deliveries in flight at once, across all destinations. */
  maxConcurrency?: number;
  /** k in the default backoff min(86400, e^(k·n)) seconds. */
  backoffFactor?: number;
  /** HTTP timeout of a delivery without Upstash-Timeout. */
  defaultTimeoutMs?: number;
  /** How long finished messages and log events are kept. */
  retentionMs?: number;
  llm?: { url: string; key?: string };
  transport?: Transport;
  hooks?: EngineHooks;
  /**
   * Extra routes on the same port (the workflow service). They are matched before the message service's own,
   * so that they can take over a path (e.g. `/v2/batch` for workflow runs) and hand the rest back.
   */
  extraRoutes?: (router: Router, context: ServiceContext) => void;
  /** Extra write operations (and the writer-thread registry holding both sets, see stack/writer-thread.ts). */
  extraWrites?: { ops: OpRegistry; registry: string };
}

export interface MessageService {
  url: string;
  port: number;
  engine: Engine;
  store: MessageStore;
  server: Server;
  /** Stops accepting requests, lets deliveries in flight finish (up to graceMs), and commits everything. */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_MAX_BODY = 1_048_576;
export const DEFAULT_MAX_CONCURRENCY = 256;
export const DEFAULT_TIMEOUT_MS = 300_000;
export const DEFAULT_RETENTION_MS = 7 * 86_400_000;

export async function startMessageService(options: MessageServiceOptions): Promise<MessageService> {
  const { clock, logger } = options;
  const log = logger.child({ service: 'messages' });
  const store = new MessageStore(options.db);
  const onWriteError = (error: Error): void => log.error({ err: error }, 'background write failed');
  const threads = options.threads;
  const checkpointer = threads ? new Checkpointer(threads.script, threads.file, onWriteError) : undefined;
  const writer: MessageWriter =
    threads?.durability === 'full'
      ? new ThreadWriter<typeof MESSAGE_WRITES>(
          threads.script,
          {
            file: threads.file,
            durability: threads.durability,
            registry: options.extraWrites?.registry ?? 'messages',
          },
          onWriteError,
        )
      : new InlineWriter(options.db, { ...MESSAGE_WRITES, ...options.extraWrites?.ops }, onWriteError);
  if (checkpointer && writer instanceof InlineWriter) writer.withCheckpointer();
  // The stack is only ready once its writer is: the first publishes must not wait for a thread to boot.
  if (writer instanceof ThreadWriter) await writer.ready;
  const transport = options.transport ?? new HttpTransport();
  const engine = new Engine({
    store,
    writer,
    clock,
    logger: log,
    transport,
    signingKey: () => options.signingKeys.keys().current,
    maxConcurrency: options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
    backoffFactor: options.backoffFactor ?? DEFAULT_BACKOFF_FACTOR,
    defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS,
    hooks: options.hooks,
  });
  const context: ServiceContext = {
    store,
    writer,
    engine,
    clock,
    logger: log,
    signingKeys: options.signingKeys,
    llm: options.llm,
  };
  const router = new Router();
  options.extraRoutes?.(router, context);
  publishRoutes(router, context);
  resourceRoutes(router, context);
  messageRoutes(router, context);
  const server = createHttpService({
    router,
    logger: log,
    maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
    token: options.token,
    tokenParams: TOKEN_PARAMS,
    // The default credentials are public: keep web pages (DNS rebinding, cross-site requests) out.
    guard: createBrowserGuard({ bindHost: options.host, allowedHosts: options.allowedHosts }),
  });
  engine.start();
  const port = await listen(server, options.host, options.port);

  // Housekeeping: expired dedup keys, old log events and finished messages.
  const retention = options.retentionMs ?? DEFAULT_RETENTION_MS;
  let pruneTimer: Timer | undefined;
  const prune = (): void => {
    const now = clock.now();
    // Chunked: keep going while whole chunks are deleted, one transaction at a time.
    const step = (): void => {
      writer
        .commit('prune', now, now - retention)
        .then((removed) => {
          if (removed >= 5_000) setImmediate(step);
        })
        .catch((error: unknown) => log.warn({ err: error }, 'pruning failed'));
    };
    step();
    pruneTimer = clock.setTimer(prune, 60_000);
  };
  pruneTimer = clock.setTimer(prune, 60_000);

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl(options.host, port),
    port,
    engine,
    store,
    server,
    close(graceMs = 5_000) {
      closing ??= (async () => {
        pruneTimer?.cancel();
        const serverClosed = closeServer(server);
        await engine.stop(graceMs);
        await serverClosed;
        await writer.close();
        await checkpointer?.close();
      })();
      return closing;
    },
  };
}
