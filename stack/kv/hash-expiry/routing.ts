// Which commands the bridge sends through the hash-field expiry script (lua.ts) when the running
// redis-server is older than 7.4, and how: `EVALSHA_RO sha 1 key <the command as sent>` for reads (the
// read-only token's user may run EVALSHA_RO, and Redis checks every command of the script against its
// rules), `EVALSHA …` for writes, as for the JSON script (json/commands.ts). Redis 7.4 / 8.0's commands
// always go there; Redis's own hash commands only while a hash may hold field times, so a database that
// never used them pays nothing.
import type { RespArg } from '../resp';
import { sha1 } from '../scripts';
import { isNewerCommand } from '../versions';
import { HASH_EXPIRY_LUA } from './lua';

export const HASH_EXPIRY_SHA = sha1(HASH_EXPIRY_LUA);

/** How each routed command goes: its kind. */
type Route = 'newer-read' | 'newer-write' | 'read' | 'write' | 'copy';

const ROUTES = new Map<string, Route>();
// Redis 7.4 / 8.0's hash commands: always through the script.
for (const name of ['httl', 'hpttl', 'hexpiretime', 'hpexpiretime']) ROUTES.set(name, 'newer-read');
for (const name of [
  'hexpire',
  'hpexpire',
  'hexpireat',
  'hpexpireat',
  'hpersist',
  'hgetex',
  'hsetex',
  'hgetdel',
]) {
  ROUTES.set(name, 'newer-write');
}
// Redis's own hash commands, which must hide the script's bookkeeping and expired fields.
for (const name of [
  'hget',
  'hmget',
  'hgetall',
  'hkeys',
  'hvals',
  'hlen',
  'hexists',
  'hstrlen',
  'hscan',
  'hrandfield',
]) {
  ROUTES.set(name, 'read');
}
for (const name of ['hset', 'hmset', 'hsetnx', 'hdel', 'hincrby', 'hincrbyfloat']) ROUTES.set(name, 'write');

/**
 * Commands whose destination may now hold field times, copied with the source, and where they name it: the
 * destination goes to the sweeper too. They go to Redis as sent.
 */
const DESTINATION = new Map([
  ['rename', 2],
  ['renamenx', 2],
  ['copy', 2],
  ['restore', 1],
]);
for (const name of DESTINATION.keys()) ROUTES.set(name, 'copy');

/** The commands that give fields times: their key goes to the sweeper. */
const GIVES_TIMES = new Set(['hexpire', 'hpexpire', 'hexpireat', 'hpexpireat', 'hgetex', 'hsetex']);

/** What the sweeper is told (sweeper.ts). */
export interface ExpiryWatch {
  watch(key: RespArg): void;
}

/** The bridge's routing of hash commands for field expiry; one per service. */
export class HashExpiryRouting {
  /**
   * Whether a hash may hold field times. True from the start until the start-up scan found none (so that
   * nothing is sent past the script before it looked), and again from the first command that sets one.
   */
  private timesMayExist = true;
  /** Whether a command gave a field a time since the start (the start-up scan may have missed it). */
  private given = false;

  constructor(
    private readonly redisVersion: () => string | undefined,
    private readonly sweeper: ExpiryWatch,
  ) {}

  private versionSeen: string | undefined;
  private olderRedis = true;

  /** Whether the running Redis lacks hash-field expiry (unknown: assumed to). */
  get emulating(): boolean {
    const version = this.redisVersion();
    if (version !== this.versionSeen) {
      this.versionSeen = version;
      this.olderRedis = isNewerCommand('hexpire', version);
    }
    return this.olderRedis;
  }

  /** The start-up scan's finding (sweeper.ts): whether any hash holds field times. */
  scanned(found: boolean): void {
    this.timesMayExist = found || this.given;
  }

  /** Whether `name` (lower case) may be routed here: the bridge then calls `call`. */
  mayRoute(name: string): boolean {
    const route = ROUTES.get(name);
    if (route === undefined || !this.emulating) return false;
    return route === 'newer-read' || route === 'newer-write' || this.timesMayExist;
  }

  /** What to send instead of `args`, or undefined to send it as it is. */
  call(args: readonly RespArg[], name: string): RespArg[] | undefined {
    const key = args[1];
    if (GIVES_TIMES.has(name)) {
      this.timesMayExist = this.given = true;
      if (key !== undefined) this.sweeper.watch(key);
    }
    const route = ROUTES.get(name);
    if (route === 'copy') {
      const destination = args[DESTINATION.get(name)!];
      if (destination !== undefined) this.sweeper.watch(destination);
      return undefined;
    }
    const read = route === 'newer-read' || route === 'read';
    const keys = key === undefined ? [] : [key];
    return [read ? 'EVALSHA_RO' : 'EVALSHA', HASH_EXPIRY_SHA, String(keys.length), ...keys, ...args];
  }

  /**
   * Whether a refused script call of `name` is asked again as the command itself: Redis's own hash reads,
   * for an ACL user who may run them but not EVALSHA_RO.
   */
  isPlainRead(name: string): boolean {
    return ROUTES.get(name) === 'read';
  }
}
