// The hosted service's key size limit (quota.ts MAX_KEY_BYTES): which commands name a key over it.
//
// Why Redis is asked: which arguments are keys depends on the command and, for many, on its other arguments
// (EVAL's numkeys, XREAD … STREAMS, ZUNIONSTORE, MIGRATE … KEYS). `COMMAND GETKEYS` answers that from Redis's
// own key specs, so the bridge keeps no table of its own. It is asked only about a command with an argument
// over the limit — rare: while a body is read, the longest argument is noted (CommandList.longestArg), so a
// request with none costs one comparison.
//
// What is asked about is the command as the bridge sends it: a JSON.* or emulated hash command goes to Redis as
// `EVALSHA <sha> <numkeys> <keys…> <the command>`, whose keys json/commands.ts and hash-expiry/routing.ts
// declared, so GETKEYS names exactly those. A command Redis cannot answer for (unknown to it, no key
// arguments, wrong arity) is not refused: Redis answers it itself when it runs.
import { randomBytes } from 'node:crypto';

import type { RedisConnection } from './connection';
import { keySizeError, MAX_KEY_BYTES } from './quota';
import type { RespArg } from './resp';
import { encodeCommands } from './resp';

/** An argument's length in bytes as Redis gets it (a string is sent as UTF-8). */
export function argBytes(arg: RespArg): number {
  return typeof arg === 'string' ? Buffer.byteLength(arg) : arg.length;
}

/** The byte length of the longest argument of any of `commands`. */
export function longestArgOf(commands: readonly (readonly RespArg[])[]): number {
  let longest = 0;
  for (const args of commands) {
    for (const arg of args) {
      const bytes = argBytes(arg);
      if (bytes > longest) longest = bytes;
    }
  }
  return longest;
}

/**
 * What GETKEYS is sent instead of an argument over the limit: it cannot be a keyword or a count there (those
 * are short), so the command's shape is the same, and GETKEYS answers it back when it is a key — which names
 * the argument. The per-start random part keeps it from meaning any argument a client sent; sending the long
 * arguments themselves would copy a 10 MB value to Redis twice.
 */
const STAND_IN = `switchyard-long-argument-${randomBytes(8).toString('hex')}-`;

/**
 * For each command (as the bridge sends it to Redis), the key size refusal, or undefined. Commands without an
 * argument over the limit are not asked about; the rest are asked in one write on `connection` (the admin
 * user's, as a token's own user may not be allowed COMMAND; one MONITOR leaves out, as the client never sent it).
 */
export async function keySizeRefusals(
  connection: RedisConnection,
  commands: readonly (readonly RespArg[])[],
): Promise<(string | undefined)[]> {
  const refusals = new Array<string | undefined>(commands.length).fill(undefined);
  const asked: number[] = [];
  const asks: RespArg[][] = [];
  commands.forEach((args, i) => {
    let ask: RespArg[] | undefined;
    args.forEach((arg, a) => {
      if (argBytes(arg) <= MAX_KEY_BYTES) return;
      ask ??= ['COMMAND', 'GETKEYS', ...args];
      ask[a + 2] = `${STAND_IN}${a}`;
    });
    if (!ask) return;
    asked.push(i);
    asks.push(ask);
  });
  if (asks.length === 0) return refusals;
  const replies = (await connection.send(encodeCommands(asks), asks.length)).values;
  asked.forEach((i, k) => {
    const keys = replies[k];
    // An error (not a command Redis knows, no key arguments, wrong arity): Redis answers the command itself.
    if (!Array.isArray(keys)) return;
    for (const key of keys) {
      const text = Buffer.isBuffer(key) || typeof key === 'string' ? key.toString('latin1') : '';
      if (!text.startsWith(STAND_IN)) continue;
      refusals[i] = keySizeError(argBytes(commands[i]![Number(text.slice(STAND_IN.length))]!));
      return;
    }
  });
  return refusals;
}
