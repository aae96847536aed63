// The Lua scripts the bridge runs in Redis for its clients: the JSON script, the hash-field expiry script
// (hash-expiry/, registered by the service), and the read-only wrappers of FCALL_RO (fcall-ro.ts). Redis forgets cached scripts on SCRIPT FLUSH and on a restart; the bridge loads
// them again (as the admin user: the read-only user may not SCRIPT LOAD) when a call answers NOSCRIPT. The
// registry also tells MONITOR lines of these scripts from the clients' own (monitor-view.ts).
import { createHash } from 'node:crypto';

import type { RedisConnection } from './connection';
import { JSON_SCRIPT, JSON_SCRIPT_SHA } from './json/script';
import { RespError } from './resp';

export function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export class BridgeScripts {
  /** sha → source of every script the bridge runs. */
  private readonly sources = new Map<string, string>([[JSON_SCRIPT_SHA, JSON_SCRIPT]]);

  /** `admin` gives a connection of the service's admin user. */
  constructor(private readonly admin: () => Promise<RedisConnection>) {}

  /** Whether a MONITOR line's EVALSHA ran one of the bridge's scripts. */
  isOwn(sha: string): boolean {
    return this.sources.has(sha);
  }

  /** Registers a script (by its source) and returns its sha. */
  register(source: string): string {
    const sha = sha1(source);
    this.sources.set(sha, source);
    return sha;
  }

  /** SCRIPT LOAD of a registered script (default: the JSON script). */
  async load(sha = JSON_SCRIPT_SHA): Promise<void> {
    const source = this.sources.get(sha);
    if (source === undefined) throw new Error(`unknown script ${sha}`);
    const connection = await this.admin();
    const reply = await connection.call(['SCRIPT', 'LOAD', source]);
    if (reply instanceof RespError) throw new Error(`cannot load the bridge's script: ${reply.message}`);
  }

  /** SCRIPT LOAD of every registered script (at start, and when redis-server is back). */
  async loadAll(): Promise<void> {
    for (const sha of this.sources.keys()) await this.load(sha);
  }

  /** Loads the script unless Redis has it (before a transaction, where NOSCRIPT could not be retried). */
  async ensureLoaded(sha = JSON_SCRIPT_SHA): Promise<void> {
    const connection = await this.admin();
    const reply = await connection.call(['SCRIPT', 'EXISTS', sha]);
    if (Array.isArray(reply) && reply[0] === 1) return;
    await this.load(sha);
  }
}
