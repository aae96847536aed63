// Where the hosted KV service answers differently from stock Redis, and the SDK (and the console) rely on
// the hosted behaviour, the bridge emulates it here:
// - `SCAN cursor [MATCH p] [COUNT n] [TYPE t] WITHTYPE` answers `[cursor, [key, type, key, type, …]]`.
//   Redis has no WITHTYPE: the bridge sends the SCAN without it and then asks TYPE for the keys in one
//   pipelined write on the same connection (with a TYPE filter every key has that type, so none is asked).
//   The types are read right after the SCAN; a key deleted in between answers `none`. TYPE goes through the
//   JSON script, so a JSON document is `ReJSON-RL`, as with TYPE itself (json/commands.ts).
// - `COPY key key` (same source and destination, no DB option) answers 0 ("not copied") where Redis 7
//   says `ERR source and destination objects are the same`. The command still goes to Redis, so a token
//   that may not write gets Redis's own NOPERM refusal first.
// - `XTRIM`/`XADD` with `MAXLEN ~ n` or `MINID ~ id` and no LIMIT trim exactly. Redis trims `~` by whole
//   nodes of up to 100 entries (`XTRIM MAXLEN ~ 30` of 1,000 entries leaves 100 or so), the hosted service to
//   about the threshold (the SDK's own suite expects 29–31), and an app tuned against one would misjudge the
//   other. `~` promises at least the threshold, so exact trimming is one of its valid answers; the bridge
//   sends `=` instead. With LIMIT (allowed with `~` only) the command goes as it is.
import type { RedisConnection } from './connection';
import { isNoScript, typeCall } from './json/commands';
import { JSON_FIELD, JSON_TYPE } from './json/script';
import type { RespArg, RespValue } from './resp';
import { encodeCommands, RespError } from './resp';
import type { BridgeScripts } from './scripts';

const SAME_OBJECT_ERROR = 'ERR source and destination objects are the same';

function word(arg: RespArg | undefined): string {
  if (arg === undefined) return '';
  return (typeof arg === 'string' ? arg : arg.toString('latin1')).toLowerCase();
}

/** The commands whose arguments or replies an extension looks at (FCALL_RO: fcall-ro.ts). */
export function hasExtension(name: string): boolean {
  return name === 'scan' || name === 'copy' || name === 'fcall_ro';
}

/** The commands whose `~` trimming `exactTrim` may send as `=`. */
export function mayTrim(name: string): boolean {
  return name === 'xtrim' || name === 'xadd';
}

/**
 * `XTRIM`/`XADD … MAXLEN|MINID ~ …` without LIMIT: the same command with `=` (see the header), or undefined
 * to send it as it is. Only the options before XADD's id are read, so a field or value `~` is data.
 */
export function exactTrim(args: readonly RespArg[], name: string): RespArg[] | undefined {
  if (!mayTrim(name)) return undefined;
  let approximate = -1;
  // XTRIM key <strategy> …; XADD key [NOMKSTREAM] [<strategy> [=|~] threshold [LIMIT n]] <id> field value …
  for (let i = 2; i < args.length; i++) {
    const option = word(args[i]);
    if (option === 'maxlen' || option === 'minid') {
      if (word(args[i + 1]) === '~') approximate = i + 1;
      i += word(args[i + 1]) === '~' || word(args[i + 1]) === '=' ? 2 : 1;
    } else if (option === 'limit') {
      return undefined;
    } else if (option !== 'nomkstream' || name !== 'xadd') {
      break;
    }
  }
  if (approximate === -1) return undefined;
  const send = [...args];
  send[approximate] = '=';
  return send;
}

/** A SCAN with WITHTYPE: what to send to Redis instead, and the TYPE filter when there is one. */
export interface ScanWithType {
  send: RespArg[];
  /** Lower-case TYPE option (`ReJSON-RL` as Redis spells it): every key in the reply has this type. */
  type: string | undefined;
}

/**
 * `SCAN cursor [MATCH p] [COUNT n] [TYPE t] WITHTYPE` (options in any order): the SCAN to send without
 * WITHTYPE, or undefined when the command is not a SCAN with WITHTYPE. Option values are skipped, so
 * `MATCH withtype` is a pattern, not the flag; anything unexpected is left to Redis to refuse.
 */
export function scanWithType(args: readonly RespArg[], name: string): ScanWithType | undefined {
  if (name !== 'scan' || args.length < 3) return undefined;
  const send: RespArg[] = [args[0]!, args[1]!];
  let withType = false;
  let type: string | undefined;
  for (let i = 2; i < args.length; i++) {
    const option = word(args[i]);
    if (option === 'withtype') {
      withType = true;
      continue;
    }
    send.push(args[i]!);
    if ((option === 'match' || option === 'count' || option === 'type') && i + 1 < args.length) {
      if (option === 'type') type = word(args[i + 1]) === 'rejson-rl' ? JSON_TYPE : word(args[i + 1]);
      send.push(args[++i]!);
    }
  }
  return withType ? { send, type } : undefined;
}

/** Turns Redis's `[cursor, keys]` reply into `[cursor, [key, type, …]]`, asking TYPE on `connection`. */
export async function addTypes(
  connection: RedisConnection,
  reply: RespValue,
  scan: ScanWithType,
  scripts: BridgeScripts,
): Promise<RespValue> {
  if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[1])) return reply;
  const keys = reply[1] as RespArg[];
  let types: RespValue[];
  if (scan.type !== undefined) {
    types = keys.map(() => scan.type!);
  } else if (keys.length === 0) {
    types = [];
  } else {
    const ask = async (): Promise<RespValue[]> =>
      (await connection.send(encodeCommands(keys.map(typeCall)), keys.length)).values;
    types = await ask();
    if (types.some((t) => t instanceof RespError && isNoScript(t.message))) {
      await scripts.load();
      types = await ask();
    }
    if (types.some(isRefused)) types = await plainTypes(connection, keys);
  }
  const pairs: RespValue[] = [];
  for (let i = 0; i < keys.length; i++) {
    const type = types[i]!;
    // A TYPE that fails (e.g. a token allowed SCAN but not TYPE) fails the whole SCAN with its text.
    if (type instanceof RespError) return type;
    pairs.push(keys[i]!, type);
  }
  return [reply[0]!, pairs];
}

/** A NOPERM refusal: of the script call, when the caller's ACL user may not run EVALSHA_RO. */
export function isRefused(value: RespValue | undefined): boolean {
  return value instanceof RespError && value.message.startsWith('NOPERM');
}

/**
 * TYPE of each key asked as the caller's own commands, for an ACL user (ACL RESTTOKEN) who may run TYPE but
 * not the script that answers it (EVALSHA_RO is not in `+@read`): `TYPE k` and `HEXISTS k ReJSON-RL` in one
 * write, so a JSON document is still `ReJSON-RL` when the user may also run HEXISTS (`hash` when not). Redis
 * checks each command against the user's rules, so a user who may not run TYPE gets Redis's own NOPERM.
 */
export async function plainTypes(
  connection: RedisConnection,
  keys: readonly RespArg[],
): Promise<RespValue[]> {
  const replies = (
    await connection.send(
      encodeCommands(
        keys.flatMap((key) => [
          ['TYPE', key],
          ['HEXISTS', key, JSON_FIELD],
        ]),
      ),
      keys.length * 2,
    )
  ).values;
  return keys.map((_, i) => {
    const type = replies[2 * i]!;
    const isJson = type === 'hash' && replies[2 * i + 1] === 1;
    return isJson ? JSON_TYPE : type;
  });
}

/**
 * `SCAN … TYPE ReJSON-RL|hash` (which the JSON script answers) for a caller who may not run the script (see
 * `plainTypes`): the SCAN as the caller's own with `TYPE hash`, then `HEXISTS k ReJSON-RL` for the page's keys
 * to keep the JSON documents, or the other hashes. Each is checked against the caller's rules by Redis.
 */
export async function plainJsonTypeScan(
  connection: RedisConnection,
  args: readonly RespArg[],
): Promise<RespValue> {
  const send = [...args];
  let wanted = '';
  for (let i = 2; i + 1 < send.length; i++) {
    const option = word(send[i]);
    if (option === 'type') {
      wanted = word(send[i + 1]);
      send[++i] = 'hash';
    } else if (option === 'match' || option === 'count') {
      i++;
    }
  }
  const reply = await connection.call(send);
  if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[1])) return reply;
  const keys = reply[1] as RespArg[];
  if (keys.length === 0) return reply;
  const flags = (
    await connection.send(encodeCommands(keys.map((key) => ['HEXISTS', key, JSON_FIELD])), keys.length)
  ).values;
  // A user who may not run HEXISTS sees JSON documents as the hashes they are stored in (as plainTypes).
  const json = wanted === JSON_TYPE.toLowerCase();
  return [reply[0]!, keys.filter((_, i) => (flags[i] === 1) === json)];
}

/** `COPY k k` without a DB option: the hosted service answers 0 where Redis refuses. */
export function copyOntoItself(args: readonly RespArg[], name: string, reply: RespValue): RespValue {
  if (name !== 'copy' || !(reply instanceof RespError) || reply.message !== SAME_OBJECT_ERROR) return reply;
  for (let i = 3; i < args.length; i++) if (word(args[i]) === 'db') return reply;
  return 0;
}
