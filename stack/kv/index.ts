// Public face of the KV REST service (issue 4). The stack process (stack/cli.ts) calls startKvService and
// reports either its URLs and tokens or, when Redis cannot be had, `kv: {error}` in its ready line.
import type { Logger } from 'pino';

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
}

export interface KvService {
  /** Base URL of the REST server, e.g. http://127.0.0.1:8079 */
  url: string;
  token: string;
  readOnlyToken: string;
  close(): Promise<void>;
}

/** Thrown when Redis is unavailable; its message is shown to users verbatim (with the install command). */
export class KvUnavailableError extends Error {}

export async function startKvService(_options: KvServiceOptions): Promise<KvService> {
  throw new KvUnavailableError('KV service not implemented yet');
}
