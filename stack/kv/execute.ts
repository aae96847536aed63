// Running commands: plain commands and pipelines on a shared connection, transactions on an exclusive one.
// Refused commands and the bridge's own extensions (ACL RESTTOKEN) are answered here, without Redis; the
// JSON commands (and TYPE, SCAN … TYPE) go to Redis as calls of the JSON script (json/commands.ts); SEARCH.*
// is answered by the search emulation (search/commands.ts), which reads documents through `run` itself. A
// command naming a key over the hosted service's size limit is refused before anything is sent (key-size.ts).
import type { CommandList } from './commands';
import { ArgsList } from './commands';
import type { RedisConnection } from './connection';
import { RedisUnavailableError } from './connection';
import { HttpError } from '../http/server';
import type { ScanWithType } from './extensions';
import {
  addTypes,
  copyOntoItself,
  exactTrim,
  hasExtension,
  isRefused,
  mayTrim,
  plainJsonTypeScan,
  plainTypes,
  scanWithType,
} from './extensions';
import { fcallReadOnly, WRITE_FLAG_ERROR } from './fcall-ro';
import { explainScriptError, isNoScript, jsonScriptCall, mayUseJsonScript } from './json/commands';
import type { Backend } from './pool';
import { changesAclUsers, commandName, hasRule, isRestTokenCommand, refusal } from './policy';
import { keySizeRefusals } from './key-size';
import type { DailyQuota } from './quota';
import { DAILY_LIMIT_ERROR, MAX_KEY_BYTES } from './quota';
import type { RespArg, RespValue } from './resp';
import { encodeCommands, ReplyTooLargeError, RespError } from './resp';
import { decodeRaw, rawEntriesJson } from './resp-json';
import { plainHashRead } from './hash-expiry/plain-reads';
import type { HashExpiryRouting } from './hash-expiry/routing';
import type { BridgeScripts } from './scripts';
import type { SearchCommands } from './search/commands';
import { isSearchCommand } from './search/commands';
import { explainNewerCommand } from './versions';
import { noAckCall } from './xreadgroup-noack';

/** Whom a request runs as: the connections of its token's Redis user. */
export interface Principal {
  backend: Backend;
  /** The read-only token: SEARCH.* may read indexes but not change them (Redis's ACL decides everything else). */
  readOnly?: boolean;
  /**
   * Connections of the same Redis user that MONITOR leaves out: the reads the search emulation makes for this
   * caller (the SEARCH command itself shows instead). Without them those reads show as the caller's.
   */
  unshown?: Backend;
  /** The Redis ACL user of a token made by ACL RESTTOKEN (absent for the standard and read-only tokens). */
  aclUser?: string;
}

/**
 * Replies to a list of commands, in order. `raws` (when asked for, for RESP2 output) holds each reply's
 * wire bytes as Redis sent them, or undefined for replies the bridge made itself.
 */
export interface Results {
  values: RespValue[];
  raws: (Buffer | undefined)[] | undefined;
}

/** A JSON body made from Redis's reply bytes, and how many of its entries are `{"error":…}`. */
export interface JsonBody {
  body: Buffer;
  errors: number;
}

export interface ExecutorContext {
  /** `ACL RESTTOKEN user password`: a token string (bulk) or the documented error. */
  restToken(user: RespArg, password: RespArg): Promise<RespValue>;
  /** A successful ACL SETUSER/DELUSER passed through (the managed Redis saves its ACL file). */
  aclChanged(): void;
  quota: DailyQuota | undefined;
  /** The bridge's scripts in Redis (JSON, FCALL_RO wrappers). */
  scripts: BridgeScripts;
  /** A connection of the admin user (FUNCTION LIST for FCALL_RO). */
  admin(): Promise<RedisConnection>;
  /**
   * A connection of the admin user that MONITOR leaves out (client-labels.ts): the bridge's own questions
   * about a request, such as the key size limit's COMMAND GETKEYS, which the client never sent.
   */
  unshownAdmin(): Promise<RedisConnection>;
  /** The running Redis's version (`7.0.15`), for errors about newer commands. */
  redisVersion(): string | undefined;
  /** Hash-field expiry for a Redis older than 7.4: which hash commands go through its script. */
  hashExpiry: HashExpiryRouting;
  /**
   * SEARCH.* (redis-server has none; without it they go to Redis, which does not know them). `lister` is whom
   * the keys under an index's prefixes are listed as: finding an index's keys is the index's work, as on the
   * hosted service, so a token that may not SCAN (the read-only one) can still query; the documents
   * themselves are read as the requesting token.
   */
  search?: {
    commands: SearchCommands;
    lister: Principal;
    /** `SEARCH_IN_MONITOR_LUA`'s sha, registered with `scripts`. */
    inMonitor: string;
  };
}

export interface Executor {
  run(principal: Principal, commands: CommandList, withRaw: boolean): Promise<Results>;
  /**
   * The same with plain JSON output: the body made straight from Redis's reply bytes — `[{"result":…},…]`
   * for a pipeline, the one entry alone when `asArray` is false (`POST /`, the path form) — when every
   * command goes to Redis as sent; else (or when a reply must be streamed) the Results of `run`.
   */
  runJson(principal: Principal, commands: CommandList, asArray: boolean): Promise<JsonBody | Results>;
  /** `longestArg`: the byte length of the longest argument (CommandList.longestArg). */
  transaction(principal: Principal, commands: RespArg[][], longestArg: number): Promise<RespValue[]>;
}

/**
 * Redis answers `-LOADING …` while it reads its data after a (re)start: the service is temporarily
 * unavailable, exactly like an unreachable Redis (503 with Retry-After), not a bad request.
 */
function isLoading(value: RespValue | undefined): boolean {
  return value instanceof RespError && value.message.startsWith('LOADING');
}

function unavailableWhileLoading(reply: RespError): RedisUnavailableError {
  return new RedisUnavailableError(`ERR Redis is loading its data (${reply.message})`);
}

export function createExecutor(ctx: ExecutorContext): Executor {
  /** Whether the bridge looks at a command to send it as a call of one of its scripts (or not at all). */
  const mayUseScript = (name: string): boolean =>
    mayUseJsonScript(name) || ctx.hashExpiry.mayRoute(name) || name === 'xreadgroup';

  /** The script call to send instead of `args`, a refusal, or undefined to send it as it is. */
  function scriptCall(args: readonly RespArg[], name: string): RespArg[] | { error: string } | undefined {
    if (ctx.hashExpiry.mayRoute(name)) return ctx.hashExpiry.call(args, name);
    if (name === 'xreadgroup') return noAckCall(args);
    return mayUseJsonScript(name) ? jsonScriptCall(args, name, ctx.redisVersion()) : undefined;
  }

  /** Whether the bridge answers this command itself (SEARCH.*). */
  const isLocal = (name: string): boolean => ctx.search !== undefined && isSearchCommand(name);

  /** Whether a command needs a look at its arguments (a rule, an extension, a script, a local answer). */
  const needsLook = (name: string): boolean =>
    hasRule(name) || hasExtension(name) || mayTrim(name) || mayUseScript(name) || isLocal(name);

  /** Runs commands on a shared connection; refused commands and bridge extensions are answered here. */
  function run(principal: Principal, commands: CommandList, withRaw: boolean): Promise<Results> {
    return runCounted(principal, commands, withRaw, true);
  }

  /**
   * `run`, for commands the client sent or not: the reads SEARCH.* makes for a request are not, so they do not
   * count towards the daily quota and their keys (read from Redis) are not held to the key size limit.
   */
  async function runCounted(
    principal: Principal,
    commands: CommandList,
    withRaw: boolean,
    counted: boolean,
  ): Promise<Results> {
    const count = commands.length;
    const values = new Array<RespValue>(count);
    const raws = withRaw ? new Array<Buffer | undefined>(count) : undefined;
    const granted = ctx.quota && counted ? ctx.quota.take(count) : count;
    const sentAt: number[] = [];
    const sentNames: string[] = [];
    // What is sent instead of the command itself: SCAN without WITHTYPE and `~` trims as `=` (extensions.ts),
    // script calls.
    // These and `local` are only needed by the few commands with a rule or an extension, so they are
    // created on first use: a plain GET or SET (nearly every request) allocates none of them.
    let replaced: Map<number, RespArg[]> | undefined;
    let scans: Map<number, ScanWithType> | undefined;
    let scripted: Set<number> | undefined;
    let local: Promise<void>[] | undefined;
    // SEARCH.* commands, answered in their place in the pipeline (after the commands before them ran).
    let searches: number[] | undefined;
    let lastName = '';
    let lastHasRule = false;
    for (let i = 0; i < count; i++) {
      if (i >= granted) {
        values[i] = new RespError(DAILY_LIMIT_ERROR);
        continue;
      }
      const name = commands.name(i);
      if (name !== lastName) {
        lastName = name;
        lastHasRule = needsLook(name);
      }
      // Arguments are only looked at for the few commands that have a rule (most have none).
      const args = lastHasRule ? commands.args(i) : undefined;
      const refused = args && refusal(args, name);
      if (refused) {
        values[i] = new RespError(refused);
      } else if (args && isLocal(name)) {
        (searches ??= []).push(i);
      } else if (args && isRestTokenCommand(args, name)) {
        if (args.length !== 4) {
          values[i] = new RespError("ERR wrong number of arguments for 'acl|resttoken' command");
          continue;
        }
        (local ??= []).push(
          ctx.restToken(args[2]!, args[3]!).then((value) => {
            values[i] = value;
          }),
        );
      } else {
        const scan = args && scanWithType(args, name);
        if (scan) {
          (scans ??= new Map()).set(i, scan);
          (replaced ??= new Map()).set(i, scan.send);
        }
        const trimmed = args && exactTrim(args, name);
        if (trimmed) (replaced ??= new Map()).set(i, trimmed);
        if (args && mayUseScript(name)) {
          const call = scriptCall(scan?.send ?? args, name);
          if (call && !Array.isArray(call)) {
            values[i] = new RespError(call.error);
            continue;
          }
          if (call) {
            (replaced ??= new Map()).set(i, call);
            (scripted ??= new Set()).add(i);
          }
        }
        sentAt.push(i);
        sentNames.push(name);
      }
    }
    // Settled before anything below can throw, so a failing RESTTOKEN is never an unhandled rejection.
    const localDone = local && Promise.all(local);
    localDone?.catch(() => {});
    // One comparison for nearly every request: only an argument over the key size limit makes it look at keys.
    if (counted && commands.longestArg > MAX_KEY_BYTES && sentAt.length > 0) {
      await refuseLongKeys(commands, sentAt, sentNames, replaced, values);
    }
    // Whether some command already ran (a pipeline with SEARCH.* goes to Redis in several writes).
    let ran = false;
    if (searches) {
      // In order: the commands before a SEARCH command are answered before it reads, so it sees their writes.
      const as =
        (who: Principal) =>
        async (reads: RespArg[][]): Promise<RespValue[]> =>
          (await runCounted(who, new ArgsList(reads), false, false)).values;
      const aclUser = principal.aclUser;
      const caller = {
        readOnly: principal.readOnly === true,
        read: as(principal.unshown ? { backend: principal.unshown } : principal),
        list: as(ctx.search!.lister),
        changeRefusal:
          aclUser === undefined
            ? undefined
            : (prefixes: readonly string[]) => writeRefusal(aclUser, prefixes),
      };
      let next = 0;
      for (const at of searches) {
        const before = sentAt.findIndex((i, j) => j >= next && i > at);
        const end = before === -1 ? sentAt.length : before;
        if (end > next) await send(sentAt.slice(next, end), sentNames.slice(next, end));
        next = end;
        try {
          await showInMonitor(principal, commands.args(at));
          values[at] = await ctx.search!.commands.answer(commands.args(at), commands.name(at), caller);
        } catch (error) {
          // Redis unreachable or loading: the request fails as a whole (503, retried) only if nothing ran yet.
          if (!(error instanceof RedisUnavailableError) || !ran) throw error;
          values[at] = new RespError(error.message);
        }
        ran = true;
      }
      if (next < sentAt.length) await send(sentAt.slice(next), sentNames.slice(next));
    } else if (sentAt.length > 0) {
      await send(sentAt, sentNames);
    }
    if (localDone) await localDone;
    return { values, raws };

    /** Sends the commands at `sentAt` (in one write) and puts their replies in `values` and `raws`. */
    async function send(sentAt: number[], sentNames: string[]): Promise<void> {
      const connection = principal.backend.readyConnection() ?? (await principal.backend.sharedConnection());
      const replies = await connection.send(encodeSent(commands, sentAt, replaced), sentAt.length, withRaw);
      // Only when nothing ran: a command that did run must be reported, never retried by the client.
      if (!ran && replies.values.every(isLoading))
        throw unavailableWhileLoading(replies.values[0] as RespError);
      ran = true;
      if (scripted) {
        await retryNoScript(connection, sentAt, replaced!, scripted, replies);
        await askWithoutScript(connection, commands, sentAt, sentNames, scripted, scans, replies);
      }
      for (let j = 0; j < sentAt.length; j++) {
        const name = sentNames[j]!;
        const i = sentAt[j]!;
        const value = replies.values[j]!;
        if (hasExtension(name)) {
          const scan = scans?.get(i);
          const extended = scan
            ? await addTypes(connection, value, scan, ctx.scripts)
            : name === 'fcall_ro' && value instanceof RespError && value.message === WRITE_FLAG_ERROR
              ? await fcallReadOnly(connection, ctx.admin, ctx.scripts, commands.args(i), value)
              : copyOntoItself(commands.args(i), name, value);
          if (extended !== value) {
            values[i] = extended;
            continue;
          }
        }
        if (value instanceof RespError) {
          const message = explainReplyError(name, value.message, scripted?.has(i) ?? false);
          if (message !== value.message) {
            values[i] = new RespError(message);
            continue;
          }
        } else if (name === 'acl' && changesAclUsers(commands.args(i), name)) {
          ctx.aclChanged();
        }
        values[i] = value;
        if (raws)
          raws[i] =
            value === null && name === 'xreadgroup' && scripted?.has(i) ? NULL_ARRAY : replies.raws![j];
      }
    }
  }

  /**
   * Why an ACL user may not change a search index over `prefixes`, or undefined: the index describes the keys
   * under them, so changing it asks what writing them asks — `DEL <prefix>` under the user's rules (ACL
   * DRYRUN, as the admin user; a key pattern `p*` covers the prefix `p` itself). Redis 7.0's ACL has no
   * category for commands it does not know, so this is the bridge's reading, not the hosted service's.
   */
  async function writeRefusal(user: string, prefixes: readonly string[]): Promise<string | undefined> {
    if (prefixes.length === 0) return undefined;
    const connection = await ctx.unshownAdmin();
    const dryRuns = prefixes.map((prefix) => ['ACL', 'DRYRUN', user, 'DEL', prefix]);
    const replies = (await connection.send(encodeCommands(dryRuns), dryRuns.length)).values;
    const at = replies.findIndex(
      (reply) => !(reply === 'OK' || (Buffer.isBuffer(reply) && reply.toString() === 'OK')),
    );
    if (at === -1) return undefined;
    const reply = replies[at]!;
    const why = reply instanceof RespError ? reply.message : String(reply);
    return `user '${user}' may not write the keys under '${prefixes[at]}' (${why})`;
  }

  /**
   * A SEARCH command's MONITOR line, named after its caller: `SEARCH_IN_MONITOR_LUA` with the command as its
   * arguments, on the caller's connection. A caller whose ACL user may not run EVALSHA_RO gets no line (the
   * command is still answered).
   */
  async function showInMonitor(principal: Principal, args: readonly RespArg[]): Promise<void> {
    const connection = principal.backend.readyConnection() ?? (await principal.backend.sharedConnection());
    const call = ['EVALSHA_RO', ctx.search!.inMonitor, '0', ...args];
    const reply = await connection.call(call);
    if (reply instanceof RespError && isNoScript(reply.message)) {
      await ctx.scripts.load(ctx.search!.inMonitor);
      await connection.call(call);
    }
  }

  /**
   * Why a second way: `run` decodes every reply into a value, copies it into its results and the handler
   * then encodes those as JSON — a Buffer per bulk string and three passes over a pipeline's replies.
   * Commands that go to Redis exactly as sent need none of what `run` does between sending and answering
   * except explaining an error, so their replies go from Redis's bytes straight into the body (resp-json.ts).
   */
  async function runJson(
    principal: Principal,
    commands: CommandList,
    asArray: boolean,
  ): Promise<JsonBody | Results> {
    const count = commands.length;
    if (ctx.quota || commands.longestArg > MAX_KEY_BYTES || !sentAsIs(commands, needsLook)) {
      return run(principal, commands, false);
    }
    const connection = principal.backend.readyConnection() ?? (await principal.backend.sharedConnection());
    const pieces = await connection.sendRaw(commands.encode(), count);
    let loading: string | undefined;
    let loadingCount = 0;
    let errors = 0;
    const errorText = (i: number, message: string): string => {
      errors++;
      if (message.startsWith('LOADING')) {
        loading ??= message;
        loadingCount++;
      }
      return explainReplyError(commands.name(i), message, false);
    };
    const body = rawEntriesJson(pieces, count, errorText, asArray);
    if (body) {
      // Only when nothing ran: a command that did run must be reported, never retried by the client.
      if (loadingCount === count) throw unavailableWhileLoading(new RespError(loading!));
      return { body, errors };
    }
    // A reply big enough to stream: the values, as `run` would give them.
    const values = decodeRaw(pieces);
    if (values.every(isLoading)) throw unavailableWhileLoading(values[0] as RespError);
    for (let i = 0; i < count; i++) {
      const value = values[i];
      if (value instanceof RespError) {
        const message = errorText(i, value.message);
        if (message !== value.message) values[i] = new RespError(message);
      }
    }
    return { values, raws: undefined };
  }

  /**
   * Commands about to be sent (`sentAt`, `sentNames`; in the form they are sent: `replaced` or their own) that
   * name a key over the size limit are answered with the refusal in `values` and taken out of the two lists.
   */
  async function refuseLongKeys(
    commands: CommandList,
    sentAt: number[],
    sentNames: string[],
    replaced: Map<number, RespArg[]> | undefined,
    values: RespValue[],
  ): Promise<void> {
    const sent = sentAt.map((i) => replaced?.get(i) ?? commands.args(i));
    const refusals = await keySizeRefusals(await ctx.unshownAdmin(), sent);
    let kept = 0;
    for (let j = 0; j < sentAt.length; j++) {
      const refused = refusals[j];
      if (refused) {
        values[sentAt[j]!] = new RespError(refused);
        continue;
      }
      sentAt[kept] = sentAt[j]!;
      sentNames[kept] = sentNames[j]!;
      kept++;
    }
    sentAt.length = sentNames.length = kept;
  }

  /** Errors as the client should read them: the command it sent named, newer commands explained. */
  function explainReplyError(name: string, message: string, scripted: boolean): string {
    if (scripted) return explainScriptError(name, message);
    return explainNewerCommand(name, message, ctx.redisVersion());
  }

  /**
   * Script calls answered NOSCRIPT (Redis lost its script cache: SCRIPT FLUSH, a restart) are sent again
   * once the script is loaded. They run after the rest of their pipeline — the one case where a pipeline's
   * order is not kept (docs/stack-kv.md).
   */
  async function retryNoScript(
    connection: RedisConnection,
    sentAt: number[],
    replaced: Map<number, RespArg[]>,
    scripted: Set<number>,
    replies: { values: RespValue[]; raws: Buffer[] | undefined },
  ): Promise<void> {
    const again: number[] = [];
    replies.values.forEach((value, j) => {
      if (scripted.has(sentAt[j]!) && value instanceof RespError && isNoScript(value.message)) again.push(j);
    });
    if (again.length === 0) return;
    const calls = again.map((j) => replaced.get(sentAt[j]!)!);
    for (const sha of shasOf(calls)) await ctx.scripts.load(sha);
    const retried = await connection.send(encodeCommands(calls), again.length, replies.raws !== undefined);
    again.forEach((j, k) => {
      replies.values[j] = retried.values[k]!;
      if (replies.raws) replies.raws[j] = retried.raws![k]!;
    });
  }

  /**
   * Script calls refused with NOPERM — an ACL user (ACL RESTTOKEN) who may run TYPE or SCAN but not
   * EVALSHA_RO, as with `+@read` — are asked again as the user's own commands (extensions.ts `plainTypes`,
   * `plainJsonTypeScan`), so Redis decides by the user's rules for TYPE and SCAN themselves, as it would
   * without the bridge's script.
   */
  async function askWithoutScript(
    connection: RedisConnection,
    commands: CommandList,
    sentAt: number[],
    sentNames: string[],
    scripted: Set<number>,
    scans: Map<number, ScanWithType> | undefined,
    replies: { values: RespValue[]; raws: (Buffer | undefined)[] | undefined },
  ): Promise<void> {
    const types: number[] = [];
    for (let j = 0; j < sentAt.length; j++) {
      const i = sentAt[j]!;
      if (!scripted.has(i) || !isRefused(replies.values[j])) continue;
      if (sentNames[j] === 'type') {
        types.push(j);
        continue;
      }
      if (ctx.hashExpiry.isPlainRead(sentNames[j]!)) {
        // A hash read of Redis's own, for an ACL user who may run it but not EVALSHA_RO: as the user's own
        // command, so Redis decides by the user's rules (the script's bookkeeping taken out of the reply;
        // expired fields show until the sweeper has run).
        replies.values[j] = await plainHashRead(connection, commands.args(i), sentNames[j]!);
        if (replies.raws) replies.raws[j] = undefined;
        continue;
      }
      if (sentNames[j] === 'xreadgroup') {
        // XREADGROUP … NOACK, for a user who may not run EVALSHA (the read-only token; an ACL user with
        // +@stream): as the user's own command, so Redis decides by the user's rules and a user who may read
        // gets the read (with Redis's consumer entry, xreadgroup-noack.ts).
        replies.values[j] = await connection.call(commands.args(i));
        if (replies.raws) replies.raws[j] = undefined;
        continue;
      }
      // Every other script call (JSON.*, HGETDEL, HEXPIRE…) is the script's alone: its refusal stands.
      if (sentNames[j] !== 'scan') continue;
      replies.values[j] = await plainJsonTypeScan(connection, scans?.get(i)?.send ?? commands.args(i));
      if (replies.raws) replies.raws[j] = undefined;
    }
    if (types.length === 0) return;
    const answers = await plainTypes(
      connection,
      types.map((j) => commands.args(sentAt[j]!)[1]!),
    );
    types.forEach((j, k) => {
      replies.values[j] = answers[k]!;
      if (replies.raws) replies.raws[j] = undefined;
    });
  }

  /** MULTI … EXEC on a connection of its own. A transaction discarded as a whole throws HttpError(400). */
  async function transaction(
    principal: Principal,
    commands: RespArg[][],
    longestArg: number,
  ): Promise<RespValue[]> {
    if (ctx.quota && !ctx.quota.takeAll(commands.length)) throw new HttpError(400, DAILY_LIMIT_ERROR);
    for (const args of commands) {
      const name = commandName(args);
      const refused = isRestTokenCommand(args)
        ? `ERR 'acl resttoken' is not supported inside a transaction`
        : isLocal(name)
          ? `ERR '${name}' is not supported inside a transaction (the local stack emulates SEARCH.* outside Redis): send it on its own or in a pipeline`
          : refusal(args);
      if (refused) throw new HttpError(400, refused);
    }
    const names = commands.map((args) => commandName(args));
    const scans = commands.map((args, i) => scanWithType(args, names[i]!));
    const scripted = new Set<number>();
    const sent = commands.map((args, i) => {
      const plain = scans[i]?.send ?? exactTrim(args, names[i]!) ?? args;
      if (!mayUseScript(names[i]!)) return plain;
      const call = scriptCall(plain, names[i]!);
      if (call && !Array.isArray(call)) throw new HttpError(400, call.error);
      if (!call) return plain;
      scripted.add(i);
      return call;
    });
    // A key over the size limit discards the transaction, as the request size limit does: nothing runs.
    if (longestArg > MAX_KEY_BYTES) {
      const refused = (await keySizeRefusals(await ctx.unshownAdmin(), sent)).find((r) => r !== undefined);
      if (refused) throw new HttpError(400, refused);
    }
    // Inside MULTI a NOSCRIPT could not be retried without breaking atomicity: make sure Redis has it.
    for (const sha of shasOf([...scripted].map((i) => sent[i]!))) await ctx.scripts.ensureLoaded(sha);
    const connection = await principal.backend.exclusive();
    let clean = false;
    try {
      // MULTI is confirmed before anything else is sent: if it failed (e.g. the user may not run it),
      // the commands would otherwise run one by one, outside any transaction.
      const multi = await connection.call(['MULTI']);
      if (multi instanceof RespError) {
        clean = true;
        throw isLoading(multi)
          ? unavailableWhileLoading(multi as RespError)
          : new HttpError(400, multi.message);
      }
      const replies = (await connection.send(encodeCommands([...sent, ['EXEC']]), commands.length + 1))
        .values;
      clean = true;
      for (let i = 0; i < commands.length; i++) {
        const queued = replies[i]!;
        // A command refused at queue time discards the transaction; its own error says more than EXECABORT.
        if (isLoading(queued)) throw unavailableWhileLoading(queued as RespError);
        if (queued instanceof RespError) {
          throw new HttpError(400, explainReplyError(names[i]!, queued.message, scripted.has(i)));
        }
      }
      const exec = replies[commands.length]!;
      if (exec instanceof ReplyTooLargeError) {
        // The limit applies to EXEC's reply as a whole; the commands did run.
        throw new HttpError(400, `${exec.message}; the transaction was executed, only its reply is refused`);
      }
      if (exec instanceof RespError) throw new HttpError(400, exec.message);
      if (!Array.isArray(exec)) throw new HttpError(400, 'ERR transaction aborted');
      if (commands.some((args) => changesAclUsers(args))) ctx.aclChanged();
      for (let i = 0; i < commands.length; i++) {
        const scan = scans[i];
        if (hasExtension(names[i]!)) {
          exec[i] = scan
            ? await addTypes(connection, exec[i]!, scan, ctx.scripts)
            : copyOntoItself(commands[i]!, names[i]!, exec[i]!);
        }
        const entry = exec[i]!;
        if (entry instanceof RespError) {
          const message = explainReplyError(names[i]!, entry.message, scripted.has(i));
          if (message !== entry.message) exec[i] = new RespError(message);
        }
      }
      return exec;
    } finally {
      principal.backend.release(connection, clean);
    }
  }

  return { run, runJson, transaction };
}

/**
 * XREADGROUP's "nothing new" as Redis sends it in RESP2; through a script (xreadgroup-noack.ts) it would be a
 * null bulk string.
 */
const NULL_ARRAY = Buffer.from('*-1\r\n');

/** The scripts (shas) that script calls `EVALSHA[_RO] <sha> …` run. */
function shasOf(calls: readonly RespArg[][]): Set<string> {
  return new Set(calls.map((call) => String(call[1])));
}

/** Whether every command goes to Redis as sent: no policy rule, extension, script call or local answer. */
function sentAsIs(commands: CommandList, needsLook: (name: string) => boolean): boolean {
  let lastName = '';
  for (let i = 0; i < commands.length; i++) {
    const name = commands.name(i);
    if (name === lastName) continue;
    lastName = name;
    if (needsLook(name)) return false;
  }
  return true;
}

/** The RESP bytes of the commands at `sentAt`, with the replaced ones (SCAN … WITHTYPE, script calls) swapped. */
function encodeSent(
  commands: CommandList,
  sentAt: number[],
  replaced: Map<number, RespArg[]> | undefined,
): Buffer {
  if (!replaced) return commands.encode(sentAt);
  return encodeCommands(sentAt.map((i) => replaced.get(i) ?? commands.args(i)));
}
