// Composition of the local stack process. Shared infrastructure first — the data dir and its lock, the
// storage (SQLite store, group-commit writer, checkpointer: stack/store/open.ts), credentials — then the
// services as peers on it:
//
// - messages (stack/messages/): the HTTP API on `port` and the delivery engine;
// - engine peers (EnginePeer, stack/messages/service.ts): services that share that port and engine, each
//   attaching its routes and engine hooks — workflows (stack/workflows/), schedules
//   (stack/messages/schedule-service.ts) and the local-only extension under /local/ (stack/local/: the
//   stack clock and run now);
// - kv (stack/kv/): its own port, in front of redis-server.
//
// A service with tables of its own also adds a migration (stack/store/migrations.ts), a table module
// (stack/store/, reached with `store.group(...)`) and its write operations (stack/writes.ts), so its writes
// join the same group commits. The CLI (stack/cli.ts) is a thin shell around startStack(), which tests call
// directly (with a ManualClock, temp data dirs and port 0).
import { isIP } from 'node:net';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { type AdvanceableClock, StackClock, systemClock } from './clock';
import { CredentialStore } from './credentials';
import { defaultDataDir, lockDataDir } from './data-dir';
import type { RequestTimeouts } from './http/server';
import { startKvService, type KvService } from './kv/index';
import { createLocalService } from './local/service';
import { messageTimeSource, scheduleTimeSource, workflowTimeSource } from './local/time-sources';
import { savedClockOffset } from './local/write-ops';
import type { Transport } from './messages/delivery';
import { startMessageService, type MessageService, type MessageServiceOptions } from './messages/service';
import type { RehearsalReport } from './messages/warm-up';
import type { Durability } from './store/db';
import { openStorage, type Storage } from './store/open';
import { createScheduleService, type ScheduleService } from './messages/schedule-service';
import { createWorkflowService, type WorkflowService } from './workflows/service';
import { warmUpOnScratch } from './warm-up';
import { STACK_WRITES, type StackWrites } from './writes';

export interface StackOptions {
  host?: string;
  port?: number;
  kvPort?: number;
  dataDir?: string;
  redisUrl?: string;
  /** Host names accepted besides loopback ones (see stack/security/browser-guard.ts). */
  allowedHosts?: string[];
  randomCredentials?: boolean;
  maxBody?: number;
  maxConcurrency?: number;
  backoffFactor?: number;
  defaultTimeoutMs?: number;
  retentionMs?: number;
  dlqRetentionMs?: number;
  durability?: Durability;
  llmUrl?: string;
  llmKey?: string;
  /** KV request size limit in bytes (default 10 MiB) and daily command limit (default none). */
  kvMaxRequestBytes?: number;
  /** KV reply size limit in bytes (default 128 MiB). */
  kvMaxReplyBytes?: number;
  kvDailyLimit?: number;
  /** How long a client may take to send a request, on both ports (stack/http/server.ts). */
  timeouts?: RequestTimeouts;
  /** Start the KV service (default true). Message-only tests turn it off. */
  kv?: boolean;
  /**
   * A script that runs the SQLite background threads (checkpointer; writer with `durability: 'full'`) when
   * loaded as a worker — the bundled CLI passes itself. Without it, everything runs on the main thread.
   */
  writerScript?: string;
  /** The stack clock; by default a StackClock at the offset the data dir keeps (stack/local/). */
  clock?: AdvanceableClock;
  logger?: Logger;
  transport?: Transport;
  /**
   * Warm the hot paths up before reporting ready, on a scratch database and a private port (stack/warm-up.ts);
   * default true.
   */
  warmUp?: boolean;
}

export interface ReadyInfo {
  ready: true;
  messages: { url: string; token: string; currentSigningKey: string; nextSigningKey: string };
  kv: { url: string; token: string; readOnlyToken: string } | { error: string };
  dataDir: string;
}

export interface Stack {
  info: ReadyInfo;
  messages: MessageService;
  workflows: WorkflowService;
  schedules: ScheduleService;
  /** The clock of every timer and recorded time (stack/clock.ts). */
  clock: AdvanceableClock;
  credentials: CredentialStore;
  /** What the warm-up did before the ready line (undefined: it was off, or it failed and was logged). */
  warmUp?: RehearsalReport;
  /** Clean shutdown: stop accepting, let deliveries in flight finish (up to graceMs), close KV, then the store. */
  close(graceMs?: number): Promise<void>;
}

export class StackConfigError extends Error {}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./i.test(host);
  return false;
}

/** startStack's own share of the ≤ 1 s spawn-to-ready budget after which no new warm-up wave starts. */
const WARM_UP_READY_BY_MS = 600;

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const host = options.host ?? '127.0.0.1';
  const randomCredentials = options.randomCredentials ?? false;
  if (!isLoopback(host) && !randomCredentials) {
    throw new StackConfigError(
      `refusing to bind ${host} with the well-known dev credentials: anyone who can reach it could use them. ` +
        'Add --random-credentials (or bind 127.0.0.1).',
    );
  }
  const startedAt = performance.now();
  const logger = options.logger ?? pino({ level: 'silent' });
  const dataDir = options.dataDir ?? defaultDataDir();
  const unlock = lockDataDir(dataDir);
  const dbFile = join(dataDir, 'stack.db');
  const durability = options.durability ?? 'normal';
  let storage: Storage<StackWrites>;
  try {
    storage = await openStorage({
      file: dbFile,
      durability,
      writes: STACK_WRITES,
      threadScript: options.writerScript,
      onBackgroundError: (error) => logger.error({ err: error }, 'background write failed'),
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const credentials = new CredentialStore(storage.store, randomCredentials);

  // The service options that the warm-up's scratch service shares with the real one.
  const tuning = {
    maxBody: options.maxBody,
    timeouts: options.timeouts,
    maxConcurrency: options.maxConcurrency,
    backoffFactor: options.backoffFactor,
    defaultTimeoutMs: options.defaultTimeoutMs,
    retentionMs: options.retentionMs,
    dlqRetentionMs: options.dlqRetentionMs,
  } satisfies Partial<MessageServiceOptions>;

  // KV starts beside the warm-up: most of its start is redis-server's own, in another process, so the
  // rehearsal gets that time instead of waiting for it (the ready line is due ≤ 1 s after spawn).
  const kvStarting: Promise<{ kv?: KvService; kvInfo: ReadyInfo['kv'] }> =
    options.kv === false
      ? Promise.resolve({ kvInfo: { error: 'the KV service was not started (kv: false)' } })
      : startKvService({
          host,
          port: options.kvPort ?? 8079,
          dataDir,
          // The stack's one credentials store: KV's secrets beside the message token and signing keys.
          settings: storage.store.settings,
          redisUrl: options.redisUrl,
          allowedHosts: options.allowedHosts,
          randomCredentials,
          maxRequestBytes: options.kvMaxRequestBytes,
          maxReplyBytes: options.kvMaxReplyBytes,
          dailyRequestLimit: options.kvDailyLimit,
          timeouts: options.timeouts,
          logger: logger.child({ service: 'kv' }),
        }).then(
          (kv) => ({ kv, kvInfo: { url: kv.url, token: kv.token, readOnlyToken: kv.readOnlyToken } }),
          (error: unknown) => {
            // The message service keeps running without KV; the ready line says why KV is missing.
            logger.warn({ err: error }, 'KV service unavailable');
            return { kvInfo: { error: error instanceof Error ? error.message : String(error) } };
          },
        );

  // Before the real service exists: no recovered message is in its engine and its port is not listening
  // while the rehearsal runs (stack/warm-up.ts says why that makes losing data impossible).
  let warmUp: RehearsalReport | undefined;
  if (options.warmUp !== false) {
    const silent = pino({ level: 'silent' });
    try {
      warmUp = await warmUpOnScratch({
        dataDir,
        // The ready line is due ≤ 1 s after spawn (a restart after a crash must be fast). The rehearsal gets
        // what is left of WARM_UP_READY_BY_MS since startStack began: its first wave always runs, later waves
        // only while time is left, so a loaded machine — where the warm-up helps least — is not held up.
        maxMs: Math.max(1, WARM_UP_READY_BY_MS - (performance.now() - startedAt)),
        durability,
        writerScript: options.writerScript,
        startServices: (scratch, scratchCredentials) =>
          startMessageService({
            ...tuning,
            store: scratch.store,
            writer: scratch.writer,
            host: '127.0.0.1',
            port: 0,
            clock: systemClock,
            logger: silent,
            token: () => scratchCredentials.token(),
            signingKeys: scratchCredentials,
            peers: [createWorkflowService(silent)],
          }),
      });
      logger.info(warmUp, 'warm-up rehearsed on a scratch database');
    } catch (error) {
      // The rehearsal touched nothing of the real stack: start without it.
      logger.warn({ err: error }, 'warm-up failed; starting without it');
    }
  }

  // Peers of the message service: same port, same engine, in the order their hooks run.
  const workflows = createWorkflowService(logger.child({ service: 'workflows' }));
  const schedules = createScheduleService(logger.child({ service: 'schedules' }));
  // The one clock of every timer and recorded time; it moves forward on request (POST /local/clock/advance).
  const clock = options.clock ?? new StackClock(savedClockOffset(storage.store));
  const local = createLocalService({
    clock,
    logger: logger.child({ service: 'local' }),
    sources: [messageTimeSource, workflowTimeSource(workflows), scheduleTimeSource(schedules)],
  });

  let messages: MessageService;
  try {
    messages = await startMessageService({
      ...tuning,
      store: storage.store,
      writer: storage.writer,
      host,
      port: options.port ?? 8080,
      clock,
      logger,
      allowedHosts: options.allowedHosts,
      token: () => credentials.token(),
      signingKeys: credentials,
      llm: options.llmUrl ? { url: options.llmUrl, key: options.llmKey } : undefined,
      transport: options.transport,
      peers: [workflows, schedules, local],
    });
  } catch (error) {
    await (await kvStarting).kv?.close();
    await storage.close();
    unlock();
    throw error;
  }
  const { kv, kvInfo } = await kvStarting;

  const creds = credentials.credentials();
  const info: ReadyInfo = {
    ready: true,
    messages: {
      url: messages.url,
      token: creds.token,
      currentSigningKey: creds.currentSigningKey,
      nextSigningKey: creds.nextSigningKey,
    },
    kv: kvInfo,
    dataDir,
  };

  let closing: Promise<void> | undefined;
  return {
    info,
    messages,
    workflows,
    schedules,
    clock,
    credentials,
    warmUp,
    close(graceMs) {
      closing ??= (async () => {
        const results = await Promise.allSettled([messages.close(graceMs), kv?.close()]);
        // The store outlives every service: their last writes (engine bookkeeping) commit first.
        results.push(...(await Promise.allSettled([storage.close()])));
        unlock();
        for (const result of results) if (result.status === 'rejected') throw result.reason;
      })();
      return closing;
    },
  };
}
