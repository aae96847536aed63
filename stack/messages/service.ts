// The message delivery service: its HTTP API on one port and the delivery engine behind it, over the stack's
// store. Peers (the workflow service) add their routes to the same port and their hooks to the same engine.
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { Clock, Timer } from '../clock';
import { createBrowserGuard } from '../security/browser-guard';
import {
  baseUrl,
  closeServer,
  createHttpService,
  listen,
  type RequestTimeouts,
  Router,
} from '../http/server';
import type { StackStore } from '../store/stack-store';
import { MAX_HEADER_BYTES } from '../../shared/messages/limits';
import { DEFAULT_BACKOFF_FACTOR } from './backoff';
import { HttpTransport, type Transport } from './delivery';
import { combineHooks, Engine, type EngineHooks } from './engine';
import { flowControlRoutes } from './flow-control-routes';
import { TOKEN_PARAMS } from './publish-request';
import { messageRoutes } from './routes-messages';
import { publishRoutes } from './routes-publish';
import { resourceRoutes } from './routes-resources';
import type { ServiceContext, SigningKeyStore } from './service-context';
import type { StackWriter } from '../writes';

/**
 * A service that shares the message service's port and delivery engine (the workflow service). It is
 * attached once, before the engine starts: its routes join the message router (ahead of the message
 * routes), and the hooks it returns run on every delivery (stack/stack.ts lists these peers).
 */
export interface EnginePeer {
  name: string;
  attach(context: ServiceContext, router: Router): EngineHooks | void;
  /** Called first when the stack stops (before the engine stops): the peer takes no new work. */
  close?(): Promise<void>;
}

/** The one object a peer runs (the workflow runtime, the scheduler). */
export interface PeerWork {
  hooks(): EngineHooks;
  start(): void;
  stop(): void;
}

export interface WorkPeer<Work extends PeerWork> extends EnginePeer {
  /** The peer's work, once the message service has attached the peer. */
  running(): Work | undefined;
}

/**
 * The peer that runs one PeerWork: attaching makes it (`make` adds its routes too), starts it and gives the
 * engine its hooks; closing stops it.
 */
export function workPeer<Work extends PeerWork>(
  name: string,
  make: (context: ServiceContext, router: Router) => Work,
): WorkPeer<Work> {
  let work: Work | undefined;
  return {
    name,
    attach(context, router) {
      work = make(context, router);
      work.start();
      return work.hooks();
    },
    async close() {
      work?.stop();
    },
    running: () => work,
  };
}

export interface MessageServiceOptions {
  /** The stack's store and its group-commit writer (stack/store/open.ts), shared with the other services. */
  store: StackStore;
  writer: StackWriter;
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
  /** How long a client may take to send a request (stack/http/server.ts). */
  timeouts?: RequestTimeouts;
  /** Deliveries in flight at once, across all destinations. */
  maxConcurrency?: number;
  /** k in the default backoff min(86400, e^(k·n)) seconds. */
  backoffFactor?: number;
  /** HTTP timeout of a delivery without Upstash-Timeout. */
  defaultTimeoutMs?: number;
  /** How long finished messages and log events are kept. */
  retentionMs?: number;
  /** How long DLQ entries are kept (a failed run's entry too). */
  dlqRetentionMs?: number;
  llm?: { url: string; key?: string };
  transport?: Transport;
  /** Services on the same port and engine (e.g. workflows), in the order their hooks run. */
  peers?: readonly EnginePeer[];
}

export interface MessageService {
  url: string;
  port: number;
  engine: Engine;
  store: StackStore;
  server: Server;
  /**
   * Closes the peers, stops accepting requests and lets deliveries in flight finish (up to graceMs). The
   * store and its writer are the stack's: they close after every service.
   */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_MAX_BODY = 1_048_576;
export const DEFAULT_MAX_CONCURRENCY = 256;
export const DEFAULT_TIMEOUT_MS = 300_000;
export const DEFAULT_RETENTION_MS = 7 * 86_400_000;

export async function startMessageService(options: MessageServiceOptions): Promise<MessageService> {
  const { clock, logger } = options;
  const log = logger.child({ service: 'messages' });
  const { store, writer } = options;
  const transport = options.transport ?? new HttpTransport();
  // Filled by the peers' attach() below, before the engine starts; the engine reads the list per delivery.
  const peerHooks: EngineHooks[] = [];
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
    hooks: combineHooks(peerHooks),
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
  // Peers' routes are matched first, so that a peer can take over a path (the workflow service takes
  // `/v2/publish` and `/v2/batch` for workflow runs) and hand the rest back to the message routes.
  for (const peer of options.peers ?? []) {
    const hooks = peer.attach(context, router);
    if (hooks) peerHooks.push(hooks);
  }
  publishRoutes(router, context);
  resourceRoutes(router, context);
  messageRoutes(router, context);
  flowControlRoutes(router, context);
  const server = createHttpService({
    router,
    logger: log,
    maxBody: options.maxBody ?? DEFAULT_MAX_BODY,
    token: options.token,
    tokenParams: TOKEN_PARAMS,
    timeouts: options.timeouts,
    maxHeaderSize: MAX_HEADER_BYTES,
    // The default credentials are public: keep web pages (DNS rebinding, cross-site requests) out.
    guard: createBrowserGuard({ bindHost: options.host, allowedHosts: options.allowedHosts }),
  });
  engine.start();
  const port = await listen(server, options.host, options.port);

  // Housekeeping: expired dedup keys, old DLQ entries, old log events and finished messages.
  const retention = options.retentionMs ?? DEFAULT_RETENTION_MS;
  const dlqRetention = options.dlqRetentionMs ?? DEFAULT_RETENTION_MS;
  let pruneTimer: Timer | undefined;
  // A clock advance of days fires this once per simulated minute, all at once: while a pass is under way the
  // next ones only ask for one more pass, which then reads the clock as it is by then.
  let pruning = false;
  let pruneAgain = false;
  let stopped = false;
  const prune = (): void => {
    if (stopped) return;
    pruneTimer = clock.setTimer(prune, 60_000);
    if (pruning) {
      pruneAgain = true;
      return;
    }
    pruning = true;
    const now = clock.now();
    engine.flowControl.prune(now - retention);
    // Chunked: keep going while whole chunks are deleted, one transaction at a time.
    const step = (): void => {
      writer
        .commit('prune', now, now - retention, now - dlqRetention)
        .then((removed) => {
          if (removed >= 5_000) setImmediate(step);
          else passDone();
        })
        .catch((error: unknown) => {
          log.warn({ err: error }, 'pruning failed');
          passDone();
        });
    };
    const passDone = (): void => {
      pruning = false;
      if (!pruneAgain || stopped) return;
      pruneAgain = false;
      pruneTimer?.cancel();
      prune();
    };
    step();
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
        stopped = true;
        pruneTimer?.cancel();
        for (const peer of options.peers ?? []) await peer.close?.();
        const serverClosed = closeServer(server);
        await engine.stop(graceMs);
        await serverClosed;
      })();
      return closing;
    },
  };
}
