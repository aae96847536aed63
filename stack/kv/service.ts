// Wires the KV service together: Redis (managed or given by URL), credentials, connection backends per
// token, and the HTTP server.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

import { callerLabel, ClientLabels } from './client-labels';
import type { RedisCredentials, RedisTarget } from './connection';
import { RedisAuthError, RedisConnection, RedisUnavailableError } from './connection';
import { CredentialStore, settingsOfDataDir, type SecretSettings } from './credentials';
import { KvUnavailableError, REDIS_INSTALL_HINT } from './errors';
import type { Principal } from './execute';
import type { StreamStats } from './streams';
import { createRequestHandler } from './http-server';
import { Backend, type BackendOptions } from './pool';
import { READ_ONLY_USER } from './policy';
import { mayOpenStream } from './request';
import { DailyQuota } from './quota';
import type { RespArg, RespValue } from './resp';
import { RespError } from './resp';
import { ManagedRedis, READ_ONLY_RULES } from './redis-server';
import { HASH_EXPIRY_LUA } from './hash-expiry/lua';
import { HashExpiryRouting } from './hash-expiry/routing';
import { FieldExpirySweeper } from './hash-expiry/sweeper';
import { BridgeScripts } from './scripts';
import { SearchCatalog } from './search/catalog';
import { SEARCH_IN_MONITOR_LUA, SearchCommands } from './search/commands';
import { versionFromInfo } from './versions';
import { XREADGROUP_NOACK_LUA } from './xreadgroup-noack';

import { createBrowserGuard } from '../security/browser-guard';
import { installFastPath } from '../http/fast-path';
import {
  baseUrl,
  closeServer,
  createJsonServer,
  KEEP_ALIVE_TIMEOUT_MS,
  listen,
  type RequestTimeouts,
} from '../http/server';

export const DEFAULT_MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** REST callers (IP and token) whose commands MONITOR lines name; later ones share their token's set. */
const MAX_CALLERS = 64;
/**
 * The hosted service's largest record is 100 MB, so a value of that size must be readable; anything above
 * this is refused (400) rather than held in memory (issue 18).
 */
export const DEFAULT_MAX_REPLY_BYTES = 128 * 1024 * 1024;

export interface KvServiceOptions {
  /** Interface to bind, 127.0.0.1 unless the user asked otherwise. */
  host: string;
  /** Port for the KV REST server; 0 picks a free one. */
  port: number;
  /** The stack's data dir; the KV service keeps its redis-server folder under `<dataDir>/kv`. */
  dataDir: string;
  /**
   * Where its secrets (Redis passwords, random and ACL tokens) live: the stack's settings table, the one
   * credentials store of the stack. Default: the data dir's database, opened per use (a service without a stack).
   */
  settings?: SecretSettings;
  /** How long a client may take to send a request (stack/http/server.ts). */
  timeouts?: RequestTimeouts;
  /** Use this Redis instead of starting redis-server from PATH. */
  redisUrl?: string;
  /** Generate fresh tokens instead of the well-known local ones (persisted in the data dir). */
  randomCredentials: boolean;
  logger: Logger;
  /** Largest request (URL + body) accepted; default 10 MiB (`ERR max request size exceeded`). */
  maxRequestBytes?: number;
  /** Largest Redis reply passed on (bigger ones: 400 `ERR max reply size exceeded`); default 128 MiB. */
  maxReplyBytes?: number;
  /** Commands per UTC day before `ERR max daily request limit exceeded`; default: no limit. */
  dailyRequestLimit?: number;
  /** Bytes an SSE client may fall behind before lines are dropped (with a notice); default 1 MiB. */
  sseBufferBytes?: number;
  /** Interval of SSE keep-alive comments; default 15 s. */
  sseHeartbeatMs?: number;
  /** Drop a Redis connection that stays silent this long with commands in flight (503); default 30 s. */
  replyTimeoutMs?: number;
  /** redis-server binary; default `redis-server` from PATH. */
  redisBinary?: string;
  /** Host names accepted besides loopback ones (--allow-host), e.g. a tunnel; see security/browser-guard.ts. */
  allowedHosts?: readonly string[];
}

export interface KvService {
  /** Base URL of the REST server, e.g. http://127.0.0.1:8079 */
  url: string;
  token: string;
  readOnlyToken: string;
  close(): Promise<void>;
}

/** What tests (and diagnostics) can see beyond the public KvService. */
export interface KvServiceInternals extends KvService {
  /** Where Redis is now. */
  target(): RedisTarget;
  /** The redis-server the service started, if it did not use --redis-url. */
  managed: ManagedRedis | undefined;
  /** Redis connections the service holds open right now. */
  connections(): { shared: number; idle: number; dedicated: number };
  /** SSE streams: open now, lines dropped, most bytes buffered for a client. */
  streamStats(): StreamStats;
  /** Runs one command as the service's admin user (outside the HTTP API). */
  admin(args: RespArg[]): Promise<RespValue>;
}

interface ExternalRedis {
  target: RedisTarget;
  credentials: RedisCredentials;
  display: string;
}

function parseRedisUrl(url: string): ExternalRedis {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new KvUnavailableError(`--redis-url is not a URL: ${url}`);
  }
  if (parsed.protocol === 'rediss:') {
    throw new KvUnavailableError('rediss:// (TLS) is not supported by the local KV service; use redis://');
  }
  if (parsed.protocol !== 'redis:') {
    throw new KvUnavailableError(`--redis-url must start with redis:// (got ${parsed.protocol}//)`);
  }
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new KvUnavailableError(`--redis-url has a bad database number`);
  const credentials: RedisCredentials = {};
  if (parsed.password) credentials.password = decodeURIComponent(parsed.password);
  if (parsed.username && credentials.password !== undefined)
    credentials.username = decodeURIComponent(parsed.username);
  const host = parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  const port = parsed.port ? Number(parsed.port) : 6379;
  return { target: { host, port, db }, credentials, display: `redis://${parsed.host}${parsed.pathname}` };
}

async function withConnection<T>(
  target: RedisTarget,
  credentials: RedisCredentials,
  use: (c: RedisConnection) => Promise<T>,
): Promise<T> {
  const connection = await RedisConnection.open(target, credentials);
  try {
    return await use(connection);
  } finally {
    connection.close();
  }
}

export async function createKvService(options: KvServiceOptions): Promise<KvServiceInternals> {
  const { logger } = options;
  const dir = path.join(options.dataDir, 'kv');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const settings = options.settings ?? settingsOfDataDir(options.dataDir);
  const store = CredentialStore.load(settings, dir);
  // SEARCH.* indexes and aliases: in the same store, never in Redis (search/catalog.ts).
  const search = new SearchCommands(new SearchCatalog(settings));
  const maxReplyBytes = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;

  let managed: ManagedRedis | undefined;
  let target: () => RedisTarget;
  let adminCredentials: RedisCredentials;
  const readOnlyCredentials: RedisCredentials = {
    username: READ_ONLY_USER,
    password: store.readOnlyPassword,
  };

  if (options.redisUrl) {
    const external = parseRedisUrl(options.redisUrl);
    external.target.replyTimeoutMs = options.replyTimeoutMs;
    external.target.maxReplyBytes = maxReplyBytes;
    target = () => external.target;
    adminCredentials = external.credentials;
    try {
      await withConnection(external.target, adminCredentials, async (c) => {
        const pong = await c.call(['PING']);
        if (pong instanceof RespError) throw new RedisUnavailableError(pong.message);
      });
    } catch (error) {
      throw new KvUnavailableError(
        `cannot use Redis at ${external.display}: ${(error as Error).message}; ${REDIS_INSTALL_HINT}`,
      );
    }
  } else {
    managed = await ManagedRedis.start({
      dir: path.join(dir, 'redis'),
      password: store.redisPassword,
      readOnlyPassword: store.readOnlyPassword,
      logger,
      binary: options.redisBinary,
    });
    const m = managed;
    target = () => ({
      host: m.host,
      port: m.port,
      db: 0,
      replyTimeoutMs: options.replyTimeoutMs,
      maxReplyBytes,
    });
    adminCredentials = { username: 'default', password: store.redisPassword };
  }

  /** An external Redis gets the read-only user on start, and again if it restarted and forgot it. */
  async function ensureReadOnlyUser(): Promise<boolean> {
    try {
      const reply = await withConnection(target(), adminCredentials, (c) =>
        c.call([
          'ACL',
          'SETUSER',
          READ_ONLY_USER,
          'reset',
          'on',
          `>${store.readOnlyPassword}`,
          '~*',
          '&*',
          ...READ_ONLY_RULES,
          // The bridge itself selects the URL's database on each connection (clients cannot).
          ...(target().db !== 0 ? ['+select'] : []),
        ]),
      );
      if (reply instanceof RespError) throw new Error(reply.message);
      return true;
    } catch (error) {
      logger.warn(
        { err: (error as Error).message },
        'kv: cannot create the read-only ACL user; read-only tokens will fail',
      );
      return false;
    }
  }
  if (!managed) await ensureReadOnlyUser();

  const admin = new Backend({ target, credentials: adminCredentials });
  const readOnly = new Backend({
    target,
    credentials: readOnlyCredentials,
    repairCredentials: managed ? undefined : ensureReadOnlyUser,
  });
  const adminConnection = (): Promise<RedisConnection> => admin.sharedConnection();
  const scripts = new BridgeScripts(adminConnection);
  scripts.register(HASH_EXPIRY_LUA);
  scripts.register(XREADGROUP_NOACK_LUA);
  const searchInMonitor = scripts.register(SEARCH_IN_MONITOR_LUA);
  let redisVersion: string | undefined;
  const sweeper = new FieldExpirySweeper(adminConnection, scripts, logger);
  const hashExpiry = new HashExpiryRouting(() => redisVersion, sweeper);
  /** The server's version (for "needs Redis 7.4; this server is 7.0.15") and the bridge's scripts, loaded ahead. */
  async function learnRedis(): Promise<void> {
    try {
      const connection = await adminConnection();
      const info = await connection.call(['INFO', 'server']);
      if (Buffer.isBuffer(info)) redisVersion = versionFromInfo(info.toString('latin1'));
      await scripts.loadAll();
    } catch (error) {
      // Not fatal: the script is loaded again on first use (NOSCRIPT), the version is only for error texts.
      logger.warn(
        { err: (error as Error).message },
        "kv: cannot read the Redis version or load the bridge's scripts",
      );
    }
  }
  await learnRedis();
  /** The hashes whose fields have times, found in the background: Redis alone knows them after a restart. */
  async function findFieldTimes(): Promise<void> {
    if (!hashExpiry.emulating) return;
    try {
      hashExpiry.scanned(await sweeper.scanDatabase());
    } catch (error) {
      // Hash commands keep going through the script (correct, a little slower); swept when next named.
      logger.warn({ err: (error as Error).message }, 'kv: cannot look for hash fields with times');
    }
  }
  void findFieldTimes();
  const aclBackends = new Map<string, Backend>();
  const { token, readOnlyToken } = store.tokens(options.randomCredentials);
  const aclTokens = new Map(store.aclTokens());

  // REST callers get connections of their own, one set per caller (IP and the token's user), so that
  // MONITOR lines can name them (client-labels.ts). Past MAX_CALLERS sets a new caller shares its token's
  // unlabelled set, whose MONITOR lines stay masked.
  const clientLabels = new ClientLabels();
  const callerBackends = new Map<string, Backend>();
  function callerBackend(
    presented: string,
    user: string,
    remoteAddress: string | undefined,
    shared: Backend,
    options: BackendOptions,
  ): Backend {
    const label = callerLabel(remoteAddress, user);
    const key = `${presented}\n${label}`;
    let backend = callerBackends.get(key);
    if (!backend) {
      if (callerBackends.size >= MAX_CALLERS) return shared;
      backend = new Backend({ ...options, caller: { label, labels: clientLabels } });
      callerBackends.set(key, backend);
    }
    return backend;
  }

  // Per token, connections whose commands MONITOR leaves out (the search emulation's reads; client-labels.ts).
  // Opened on first use: most databases never see a SEARCH command.
  const unshownBackends = new Map<string, Backend>();
  function unshownBackend(presented: string, options: BackendOptions): Backend {
    let backend = unshownBackends.get(presented);
    if (!backend) {
      backend = new Backend({ ...options, sharedSize: 1, unshownIn: clientLabels });
      unshownBackends.set(presented, backend);
    }
    return backend;
  }

  // The last caller and its principal. Why: nearly every request comes from the same caller as the one
  // before (an app's keep-alive connections), and finding its connections again built a label, a map key and
  // a principal per request. The answer for a token and address never changes (tokens are only added, and a
  // caller's set of connections, once chosen, stays), so it can be kept.
  let lastCaller: { presented: string; remoteAddress: string | undefined; principal: Principal } | undefined;

  function authenticate(presented: string, remoteAddress: string | undefined): Principal | undefined {
    if (lastCaller && lastCaller.presented === presented && lastCaller.remoteAddress === remoteAddress) {
      return lastCaller.principal;
    }
    const principal = findPrincipal(presented, remoteAddress);
    if (principal) lastCaller = { presented, remoteAddress, principal };
    return principal;
  }

  function findPrincipal(presented: string, remoteAddress: string | undefined): Principal | undefined {
    if (presented === token) {
      const options: BackendOptions = { target, credentials: adminCredentials };
      return {
        backend: callerBackend(presented, 'default', remoteAddress, admin, options),
        unshown: unshownBackend(presented, options),
      };
    }
    if (presented === readOnlyToken) {
      const options: BackendOptions = {
        target,
        credentials: readOnlyCredentials,
        repairCredentials: managed ? undefined : ensureReadOnlyUser,
      };
      return {
        backend: callerBackend(presented, 'read-only', remoteAddress, readOnly, options),
        readOnly: true,
        unshown: unshownBackend(presented, options),
      };
    }
    const entry = aclTokens.get(presented);
    if (!entry) return undefined;
    const options: BackendOptions = {
      target,
      credentials: { username: entry.user, password: entry.password },
      sharedSize: 2,
    };
    let shared = aclBackends.get(presented);
    if (!shared) {
      shared = new Backend(options);
      aclBackends.set(presented, shared);
    }
    return {
      backend: callerBackend(presented, entry.user, remoteAddress, shared, options),
      unshown: unshownBackend(presented, options),
      aclUser: entry.user,
    };
  }

  async function restToken(userArg: RespArg, passwordArg: RespArg): Promise<RespValue> {
    const user = userArg.toString();
    const password = passwordArg.toString();
    try {
      await withConnection(target(), { username: user, password }, async () => {});
    } catch (error) {
      if (error instanceof RedisAuthError)
        return new RespError(`ERR Wrong password or user "${user}" does not exist`);
      throw error;
    }
    const issued = store.addAclToken(user, password);
    aclTokens.set(issued, { user, password });
    return Buffer.from(issued);
  }

  function aclChanged(): void {
    if (!managed) return;
    // Users created through the API live in the managed server's ACL file, so they (and tokens issued
    // for them) survive restarts.
    admin
      .sharedConnection()
      .then((c) => c.call(['ACL', 'SAVE']))
      .then(
        (r) => {
          if (r instanceof RespError) logger.warn({ err: r.message }, 'kv: ACL SAVE failed');
        },
        (error: Error) => logger.warn({ err: error.message }, 'kv: ACL SAVE failed'),
      );
  }

  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const unshownAdmin = unshownBackend(token, { target, credentials: adminCredentials });
  const handler = createRequestHandler({
    authenticate,
    clientLabels,
    restToken,
    aclChanged,
    scripts,
    admin: adminConnection,
    redisVersion: () => redisVersion,
    hashExpiry,
    unshownAdmin: () => unshownAdmin.sharedConnection(),
    search: { commands: search, lister: { backend: unshownAdmin }, inMonitor: searchInMonitor },
    quota: options.dailyRequestLimit ? new DailyQuota(options.dailyRequestLimit) : undefined,
    maxRequestBytes,
    sse: {
      bufferBytes: options.sseBufferBytes ?? 1024 * 1024,
      heartbeatMs: options.sseHeartbeatMs ?? 15_000,
    },
    logger,
    guard: createBrowserGuard({ bindHost: options.host, allowedHosts: options.allowedHosts }),
  });
  // Long path-form URLs carry values; allow more than Node's 16 KB of headers (the body limit still applies).
  const server = createJsonServer(handler.handle, {
    ...options.timeouts,
    maxHeaderSize: 1024 * 1024,
    errorPrefix: 'ERR ',
    allowedMethods: 'GET, HEAD, POST, PUT, OPTIONS',
  });
  // The SDKs' ordinary requests skip node:http's request and response objects (issue 26; why in fast-path.ts).
  const fastPath = installFastPath(server, handler.handle, {
    accepts: (_method, url) => !mayOpenStream(url),
    maxBodyBytes: maxRequestBytes,
    keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
  });

  async function shutdown(): Promise<void> {
    // SSE streams never end by themselves: cut every connection at once.
    fastPath.destroyConnections();
    sweeper.stop();
    await closeServer(server, 0);
    for (const backend of [
      admin,
      readOnly,
      ...aclBackends.values(),
      ...callerBackends.values(),
      ...unshownBackends.values(),
    ]) {
      backend.close();
    }
    await managed?.stop();
  }

  let port: number;
  try {
    port = await listen(server, options.host, options.port);
  } catch (error) {
    await shutdown().catch(() => {});
    throw new KvUnavailableError(
      `the KV REST server cannot listen on ${options.host}:${options.port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const url = baseUrl(options.host, port);
  if (managed) {
    managed.onRestart = () => {
      logger.info({ port: managed?.port }, 'kv: redis-server is back');
      void learnRedis();
    };
  }
  logger.info({ url, redis: managed ? `managed 127.0.0.1:${managed.port}` : 'external' }, 'kv: ready');

  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    readOnlyToken,
    close: () => (closing ??= shutdown()),
    target,
    managed,
    connections() {
      const total = { shared: 0, idle: 0, dedicated: 0 };
      for (const backend of [admin, readOnly, ...aclBackends.values(), ...callerBackends.values()]) {
        const s = backend.stats();
        total.shared += s.shared;
        total.idle += s.idle;
        total.dedicated += s.dedicated;
      }
      return total;
    },
    streamStats: () => handler.streamStats(),
    async admin(args) {
      const connection = await admin.sharedConnection();
      return connection.call(args);
    },
  };
}
