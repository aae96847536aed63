// Public face of the KV REST service (issue 4). The stack process (stack/cli.ts) calls startKvService and
// reports either its URLs and tokens or, when Redis cannot be had, `kv: {error}` in its ready line.
import type { Logger } from 'pino';

import { KvUnavailableError } from './errors';
import { createKvService } from './service';

export { KvUnavailableError };

export interface KvServiceOptions {
  /** Interface to bind, 127.0.0.1 unless the user asked otherwise. */
  host: string;
  /** Port for the KV REST server; 0 picks a free one. */
  port: number;
  /** The stack's data dir; the KV service keeps its redis-server folder and tokens under `<dataDir>/kv`. */
  dataDir: string;
  /** Use this Redis instead of starting redis-server from PATH. */
  redisUrl?: string;
  /** Generate fresh tokens instead of the well-known local ones (persisted in the data dir). */
  randomCredentials: boolean;
  logger: Logger;
  /** Largest request (URL + body) accepted; default 10 MiB (`ERR max request size exceeded`). */
  maxRequestBytes?: number;
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

export async function startKvService(options: KvServiceOptions): Promise<KvService> {
  const { url, token, readOnlyToken, close } = await createKvService(options);
  return { url, token, readOnlyToken, close };
}
