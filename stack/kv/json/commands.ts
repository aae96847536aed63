// Which commands the JSON script answers (and the Redis 8.2 commands it emulates for an older redis-server,
// lua-newer.ts), and how
// the bridge sends them: `EVALSHA_RO sha numkeys keys… <the command as the client sent it>` for reads (the
// read-only token's ACL user may run EVALSHA_RO, not EVALSHA, so Redis itself refuses it every write),
// `EVALSHA …` for writes. The keys are declared (so ACL key patterns apply) and the command follows
// unchanged, which is also how MONITOR shows it again (monitor-view.ts).
import type { RespArg } from '../resp';
import { isNewerBitop, isNewerCommand } from '../versions';
import { JSON_SCRIPT_SHA } from './script';

/** JSON.* commands that only read (EVALSHA_RO) — the SDK's auto-pipeline routes the same ones to reads. */
const READS = new Set([
  'json.get',
  'json.mget',
  'json.type',
  'json.strlen',
  'json.arrlen',
  'json.arrindex',
  'json.objkeys',
  'json.objlen',
  'json.resp',
  'json.debug',
]);

const WRITES = new Set([
  'json.set',
  'json.mset',
  'json.merge',
  'json.del',
  'json.forget',
  'json.numincrby',
  'json.nummultby',
  'json.strappend',
  'json.toggle',
  'json.clear',
  'json.arrappend',
  'json.arrinsert',
  'json.arrpop',
  'json.arrtrim',
]);

/** Every JSON command the local stack answers, for the console's command table and docs. */
export const JSON_COMMANDS: readonly string[] = [...READS, ...WRITES].map((name) => name.toUpperCase());

function text(arg: RespArg | undefined): string {
  if (arg === undefined) return '';
  return typeof arg === 'string' ? arg : arg.toString('latin1');
}

/**
 * Redis 8.x commands the script emulates when the running redis-server is older (all of them write). The
 * hash commands of Redis 7.4 / 8.0 have a script of their own (hash-expiry/).
 */
const NEWER = new Set(['xdelex', 'xackdel']);

/** Whether the bridge looks at this command to send it through the JSON script. */
export function mayUseJsonScript(name: string): boolean {
  return (
    name === 'type' || name === 'scan' || name === 'bitop' || NEWER.has(name) || name.startsWith('json.')
  );
}

/** A command the bridge answers itself instead (unknown JSON.* name, too few arguments). */
export interface Refused {
  error: string;
}

function keysOf(args: readonly RespArg[], name: string): RespArg[] {
  switch (name) {
    case 'json.mget':
      return args.slice(1, -1);
    case 'json.mset': {
      const keys: RespArg[] = [];
      for (let i = 1; i < args.length; i += 3) keys.push(args[i]!);
      return keys;
    }
    case 'json.debug':
      return text(args[1]).toLowerCase() === 'memory' && args[2] !== undefined ? [args[2]] : [];
    default:
      return args.length > 1 ? [args[1]!] : [];
  }
}

function scriptCall(readOnly: boolean, keys: RespArg[], args: readonly RespArg[]): RespArg[] {
  return [readOnly ? 'EVALSHA_RO' : 'EVALSHA', JSON_SCRIPT_SHA, String(keys.length), ...keys, ...args];
}

/** Redis's own text for a command it does not know, so an unknown JSON.* reads like any unknown command. */
function unknownCommand(args: readonly RespArg[]): string {
  const shown = args
    .slice(1, 21)
    .map((arg) => `'${text(arg).slice(0, 128)}' `)
    .join('');
  return `ERR unknown command '${text(args[0])}', with args beginning with: ${shown}`;
}

/**
 * What to send instead of `args`: the script call, a refusal answered by the bridge, or undefined when
 * the command goes to Redis unchanged (TYPE with the wrong arity, SCAN without a TYPE filter that
 * involves JSON keys, a BITOP or newer command that the running Redis has). `redisVersion` is the running
 * Redis's.
 */
export function jsonScriptCall(
  args: readonly RespArg[],
  name: string,
  redisVersion: string | undefined,
): RespArg[] | Refused | undefined {
  if (name === 'type') return args.length === 2 ? scriptCall(true, [args[1]!], args) : undefined;
  // Redis 8.x's commands, emulated by the script for an older redis-server (their keys declared for ACLs).
  if (NEWER.has(name)) {
    return isNewerCommand(name, redisVersion) ? scriptCall(false, args.slice(1, 2), args) : undefined;
  }
  if (name === 'bitop') {
    const operation = text(args[1]);
    return isNewerBitop(operation, redisVersion) ? scriptCall(false, args.slice(2), args) : undefined;
  }
  if (name === 'scan') return scanWithJsonType(args) ? scriptCall(true, [], args) : undefined;
  const read = READS.has(name);
  if (!read && !WRITES.has(name)) return { error: unknownCommand(args) };
  if (args.length < 2) return { error: `ERR wrong number of arguments for '${name}' command` };
  return scriptCall(read, keysOf(args, name), args);
}

/**
 * A SCAN whose TYPE filter is `ReJSON-RL` or `hash`: Redis sees a JSON document as a hash, so the script
 * scans hashes and keeps the JSON ones, or the others.
 */
function scanWithJsonType(args: readonly RespArg[]): boolean {
  for (let i = 2; i + 1 < args.length; i++) {
    const option = text(args[i]).toLowerCase();
    if (option === 'type') {
      const type = text(args[i + 1]).toLowerCase();
      return type === 'rejson-rl' || type === 'hash';
    }
    if (option === 'match' || option === 'count') i++;
  }
  return false;
}

/** The scripted TYPE of one key (the bridge's own SCAN … WITHTYPE uses it for each key of a page). */
export function typeCall(key: RespArg): RespArg[] {
  return scriptCall(true, [key], ['TYPE', key]);
}

/**
 * Redis names the script command in a refusal ("no permissions to run the 'evalsha' command"); the
 * client sent `name`.
 */
export function explainScriptError(name: string, message: string): string {
  if (!message.startsWith('NOPERM')) return message;
  return message.replace(/'evalsha(_ro)?'/, `'${name}'`);
}

export function isNoScript(message: string): boolean {
  return message.startsWith('NOSCRIPT');
}
