// Active expiry of hash fields. Reads only hide a field whose time has come (a read-only script may not
// delete), so without this a hash whose fields all expired would stay in the database: EXISTS, SCAN and
// DBSIZE would still count it, as they would not in Redis 7.4. The sweeper knows the keys whose fields have
// times (the routing tells it when a command gives one or copies a hash; at start it scans the database
// once) and runs the script's SWITCHYARD.SWEEP for them when their next field is due, as the admin user.
import type { Logger } from 'pino';

import type { RedisConnection } from '../connection';
import type { RespArg } from '../resp';
import { RespError } from '../resp';
import type { BridgeScripts } from '../scripts';
import { isNoScript } from '../json/commands';
import { HASH_EXPIRY_SHA } from './routing';

/** Keys swept by one script call, at most (each is a few Redis commands). */
const BATCH = 200;
/** Sweeps start at most this often (unless a full batch is waiting). */
const MIN_GAP_MS = 100;
/** When Redis cannot be reached, the next try. */
const RETRY_MS = 1000;
/** A key named by a command is kept this long even if a sweep finds no field time on it yet (see `sweep`). */
const GRACE_MS = 5000;

export class FieldExpirySweeper {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private sweeping = false;
  /** A key was named while a sweep was on its way: sweep again right after it. */
  private namedWhileSweeping = false;
  private lastSweepAt = 0;
  private stopped = false;

  constructor(
    private readonly admin: () => Promise<RedisConnection>,
    private readonly scripts: BridgeScripts,
    private readonly logger: Logger,
  ) {}

  /** A key whose fields may have times now: swept soon, then when its next field is due. */
  watch(key: RespArg): void {
    const bytes = typeof key === 'string' ? Buffer.from(key) : key;
    const id = bytes.toString('latin1');
    const now = Date.now();
    const entry = this.watched.get(id);
    if (entry) {
      entry.dueAt = now;
      entry.namedAt = now;
    } else {
      this.watched.set(id, { key: bytes, dueAt: now, namedAt: now });
    }
    // O(1): a command naming a hash (a bulk HEXPIRE of many) must not cost a pass over every watched key.
    if (this.sweeping) this.namedWhileSweeping = true;
    else this.arm(now, false);
  }

  /** The keys watched (for tests). */
  get size(): number {
    return this.watched.size;
  }

  /**
   * Finds the hashes that hold field times (once, at start: they are known only to Redis after a restart),
   * a SCAN step at a time; resolves to whether there were any.
   */
  async scanDatabase(): Promise<boolean> {
    let cursor = '0';
    let found = false;
    do {
      const reply = await this.runScript(['SWITCHYARD.FIND', cursor], []);
      if (!Array.isArray(reply)) throw new Error(`cannot scan for field times: ${String(reply)}`);
      cursor = String(reply[0]);
      for (const key of reply[1] as Buffer[]) {
        found = true;
        this.watch(key);
      }
    } while (cursor !== '0' && !this.stopped);
    return found;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /**
   * The next sweep at `dueAt`, but at most every MIN_GAP_MS (as Redis's own active expiry runs 10 times a
   * second): each sweep passes over every watched key, so many keys due at many different times must not
   * make a sweep per key. `now` (a full batch is waiting) skips the gap.
   */
  private arm(dueAt: number, now: boolean): void {
    if (this.stopped || dueAt === Infinity) return;
    const at = now ? dueAt : Math.max(dueAt, this.lastSweepAt + MIN_GAP_MS);
    if (at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => void this.sweep(), Math.max(0, at - Date.now()));
    // The sweeper never keeps the process alive by itself.
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    this.timerAt = Infinity;
    this.timer = undefined;
    this.sweeping = true;
    this.namedWhileSweeping = false;
    const startedAt = Date.now();
    this.lastSweepAt = startedAt;
    // One pass: the keys due now (a batch of them) and when the next of the others is.
    const due: Watched[] = [];
    let next = Infinity;
    for (const entry of this.watched.values()) {
      if (entry.dueAt <= startedAt && due.length < BATCH) due.push(entry);
      else next = Math.min(next, entry.dueAt);
    }
    try {
      const reply = await this.runScript(
        ['SWITCHYARD.SWEEP'],
        due.map((entry) => entry.key),
      );
      if (!Array.isArray(reply)) throw new Error(String(reply));
      due.forEach((entry, i) => {
        const nextField = Number(reply[i]);
        // Named again while this sweep was on its way: its new times may not have been seen; look again.
        if (entry.namedAt >= startedAt) {
          next = Math.min(next, entry.dueAt);
        } else if (nextField >= 0) {
          entry.dueAt = nextField;
          next = Math.min(next, nextField);
        } else if (startedAt - entry.namedAt < GRACE_MS) {
          // No time on it yet: the command that named it may still be on its way to Redis on another
          // connection. Looked at again later.
          entry.dueAt = startedAt + GRACE_MS;
          next = Math.min(next, entry.dueAt);
        } else {
          this.watched.delete(entry.key.toString('latin1'));
        }
      });
    } catch (error) {
      this.logger.debug({ err: (error as Error).message }, 'kv: field expiry sweep failed; retrying');
      // Whatever else is due waits for Redis too.
      for (const entry of due) entry.dueAt = Math.max(entry.dueAt, startedAt + RETRY_MS);
      next = startedAt + RETRY_MS;
    } finally {
      this.sweeping = false;
    }
    if (this.namedWhileSweeping) next = Math.min(next, Date.now());
    this.arm(next, due.length === BATCH);
  }

  /** The script as the admin user, loaded again when Redis lost it (SCRIPT FLUSH, a restart). */
  private async runScript(args: RespArg[], keys: Buffer[]): Promise<unknown> {
    const call = ['EVALSHA', HASH_EXPIRY_SHA, String(keys.length), ...keys, ...args];
    const connection = await this.admin();
    let reply = await connection.call(call);
    if (reply instanceof RespError && isNoScript(reply.message)) {
      await this.scripts.load(HASH_EXPIRY_SHA);
      reply = await connection.call(call);
    }
    if (reply instanceof RespError) throw new Error(reply.message);
    return reply;
  }
}

/** A hash the sweeper knows holds (or may hold) field times. */
interface Watched {
  key: Buffer;
  /** Unix ms when its next field is due (now: not known yet). */
  dueAt: number;
  /** When a command last named it. */
  namedAt: number;
}
