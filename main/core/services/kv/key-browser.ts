// Key browser handlers: the progressive SCAN stream, type and TTL for the rows on screen, exact-key
// lookup, paged values by type, edits, TTL, rename, duplicate and delete (by pattern: delete-job.ts).
import { randomUUID } from 'node:crypto';
import {
  KV_SCAN_FIRST_COUNT,
  type KvEdit,
  type kvKeyProcedures,
  type KvScanEvent,
  type KvValuePage,
} from '../../../../shared/bridge/procedures/kv/key-browser';
import { BridgeError } from '../../../../shared/bridge/errors';
import { type KvBytes, kvBytesLabel, kvBytesOf, kvTextOf } from '../../../../shared/kv/bytes';
import type { KvReplyEntry } from '../../../../shared/kv/command-line';
import { jsonEditCommand } from '../../../../shared/kv/json-doc';
import type { Handlers, StreamSink } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { type KvArgs, KvClient } from './client';
import { knowsWithType, walkKeys } from './scan';

type Names = keyof typeof kvKeyProcedures;

/** Strings larger than this are shown cut (the viewer says so); edits of cut values are refused in the UI. */
export const STRING_VIEW_LIMIT = 1024 * 1024;

const SIZE_COMMAND: Record<string, string> = {
  string: 'STRLEN',
  hash: 'HLEN',
  list: 'LLEN',
  set: 'SCARD',
  zset: 'ZCARD',
  stream: 'XLEN',
};

export function kvKeyHandlers({ profiles, logError }: HandlerDeps): Pick<Handlers, Names> {
  const client = (profileId: string) => new KvClient(profiles.resolve(profileId));

  /** Feeds a stream until `feed` ends; errors end the stream with readable data, never a stack trace. */
  const runStream = <E>(name: string, sink: StreamSink<E>, feed: (signal: AbortSignal) => Promise<void>) => {
    const controller = new AbortController();
    feed(controller.signal)
      .then(() => sink.end())
      .catch((error: unknown) => {
        if (controller.signal.aborted) return sink.end();
        if (error instanceof BridgeError) return sink.end(error.toData());
        logError?.(`${name} failed`, error);
        sink.end({
          code: 'INTERNAL',
          message: `${name} hit an unexpected error. Details are in the console log.`,
        });
      });
    return () => controller.abort();
  };

  return {
    'kv.keys.scan': ({ profileId, match, type, count, cursor, limit, paceMs }, sink) => {
      const kv = client(profileId);
      return runStream('kv.keys.scan', sink, async (signal) => {
        // DBSIZE goes out beside the first SCAN, not before it: the first rows never wait for a count.
        let dbsize: number | undefined;
        let dbsizeSent = false;
        const counted = kv.command(['DBSIZE']).then(
          (reply) => {
            if (reply.ok && typeof reply.result === 'number') dbsize = reply.result;
          },
          () => undefined,
        );
        let collected = 0;
        let last: KvScanEvent | undefined;
        const push = (event: KvScanEvent) => {
          if (dbsize !== undefined && !dbsizeSent) {
            event.dbsize = dbsize;
            dbsizeSent = true;
          }
          sink.push(event);
          last = event;
        };
        const walk = { match, type, count, cursor, paceMs, signal, firstCount: KV_SCAN_FIRST_COUNT };
        await walkKeys(kv, walk, (page, calls) => {
          if (signal.aborted) return false;
          collected += page.keys.length;
          const done = page.cursor === '0';
          const capped = !done && collected >= limit;
          push({
            keys: page.keys,
            types: page.types,
            cursor: page.cursor,
            calls,
            withType: knowsWithType(kv),
            done,
            capped,
          });
          return !capped;
        });
        // A walk that ended before DBSIZE answered: the count follows in an event of its own.
        await counted;
        if (!signal.aborted && last && dbsize !== undefined && !dbsizeSent)
          push({ ...last, keys: [], types: undefined });
      });
    },

    'kv.keys.meta': async ({ profileId, keys, withType }) => {
      const rows = keys.flatMap((key) =>
        withType
          ? [
              ['TYPE', key],
              ['PTTL', key],
            ]
          : [['PTTL', key]],
      );
      const entries = await client(profileId).pipelineEntries(rows);
      const per = withType ? 2 : 1;
      return keys.map((key, i) => ({
        key,
        type: withType ? String(entries[i * per]?.result ?? 'none') : '',
        ttlMs: Number(entries[i * per + per - 1]?.result ?? -2),
      }));
    },

    'kv.keys.lookup': async ({ profileId, key }) => {
      const kv = client(profileId);
      const [type, ttl, memory] = await kv.pipelineEntries([
        ['TYPE', key],
        ['PTTL', key],
        ['MEMORY', 'USAGE', key],
      ]);
      throwEntry(type);
      const keyType = String(type!.result);
      const exists = keyType !== 'none';
      let size: number | null = null;
      const sizeCommand = SIZE_COMMAND[keyType];
      if (exists && sizeCommand) {
        const [reply] = await kv.pipelineEntries([[sizeCommand, key]]);
        size = typeof reply?.result === 'number' ? reply.result : null;
      } else if (exists && keyType === JSON_TYPE) {
        size = await jsonSize(kv, key);
      }
      return {
        key,
        exists,
        type: keyType,
        ttlMs: Number(ttl?.result ?? -2),
        size,
        memory: typeof memory?.result === 'number' ? memory.result : null,
      };
    },

    'kv.keys.value': async ({ profileId, key, type, cursor, count }) =>
      readValue(client(profileId), key, type, cursor, count),

    'kv.keys.edit': async ({ profileId, edit }) => ({ result: await applyEdit(client(profileId), edit) }),

    'kv.keys.expire': async ({ profileId, key, ttlSeconds }) => {
      const kv = client(profileId);
      const changed =
        ttlSeconds === null
          ? await kv.call<number>(['PERSIST', key])
          : await kv.call<number>(['EXPIRE', key, ttlSeconds]);
      if (ttlSeconds !== null && changed === 0) throw missing(key);
      return { ttlMs: await kv.call<number>(['PTTL', key]) };
    },

    'kv.keys.rename': async ({ profileId, key, to }) => {
      const done = await client(profileId).call<number>(['RENAMENX', key, to]);
      if (done === 0) throw exists(to);
      return { key: to };
    },

    'kv.keys.duplicate': async ({ profileId, key, to }) => {
      const kv = client(profileId);
      const copied = await kv.call<number>(['COPY', key, to]);
      if (copied === 0) throw (await kv.call<number>(['EXISTS', key])) ? exists(to) : missing(key);
      return { key: to };
    },

    'kv.keys.delete': async ({ profileId, keys }) => ({
      deleted: await client(profileId).call<number>(['UNLINK', ...keys]),
    }),
  };
}

function throwEntry(entry: KvReplyEntry | undefined): void {
  if (entry?.error !== undefined)
    throw new BridgeError({ code: 'SERVICE_ERROR', status: 400, message: entry.error });
}

function missing(key: string): BridgeError {
  return new BridgeError({ code: 'NOT_FOUND', message: `The key "${key}" does not exist (any more).` });
}

function exists(key: string): BridgeError {
  return new BridgeError({
    code: 'INVALID_INPUT',
    message: `A key named "${key}" already exists; choose another name.`,
    fields: { to: 'already exists' },
  });
}

/**
 * The one field's answer of HPEXPIRE / HPERSIST (`[n]`): -2 (no such field, or no such key) is NOT_FOUND
 * with the field's name; 1, 0, 2 (HPEXPIRE) and -1 (HPERSIST: it had no TTL) are the result.
 */
function fieldReply(reply: unknown, key: string, field: KvBytes): number {
  const code = Array.isArray(reply) ? (reply[0] as unknown) : undefined;
  if (typeof code !== 'number') {
    throw new BridgeError({
      code: 'SERVICE_ERROR',
      message: `The KV service answered ${JSON.stringify(reply)?.slice(0, 100)} instead of one reply per field.`,
    });
  }
  if (code === -2) {
    const name = kvBytesLabel(field);
    throw new BridgeError({
      code: 'NOT_FOUND',
      message: `The field ${name.binary ? `(hex) ${name.text}` : `"${name.text}"`} of "${key}" does not exist (any more).`,
    });
  }
  return code;
}

function entriesOrThrow(entries: KvReplyEntry[]): unknown[] {
  for (const entry of entries) throwEntry(entry);
  return entries.map((entry) => entry.result);
}

/** '' once a value is complete, else where the next page starts. */
function next(cursor: string | number, done: boolean): string {
  return done ? '' : String(cursor);
}

/** One page of a SCAN-family command (HSCAN, SSCAN) with the collection's size, in one round trip. */
async function scanPage(
  kv: KvClient,
  scan: KvArgs,
  size: KvArgs,
): Promise<{ items: KvBytes[]; cursor: string; total: number }> {
  const [[at, items], total] = entriesOrThrow(await kv.pipelineEntries([scan, size], 'base64')) as [
    [string, string[]],
    number,
  ];
  const cursor = kvTextOf(at);
  return { items: items.map(kvBytesOf), cursor: next(cursor, cursor === '0'), total };
}

/** Flat `[a, b, a, b, …]` as pairs. */
function pairs<T>(flat: T[]): [T, T][] {
  const out: [T, T][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

// Collections are read with base64 replies (exact bytes) and decoded here: UTF-8 members stay text, the
// others travel as their bytes, so the viewer shows hex instead of U+FFFD and edits target the real bytes.
async function readValue(
  kv: KvClient,
  key: string,
  type: string,
  cursor: string,
  count: number,
): Promise<KvValuePage> {
  switch (type) {
    case 'string': {
      const [length, bytes] = entriesOrThrow(
        await kv.pipelineEntries(
          [
            ['STRLEN', key],
            ['GETRANGE', key, 0, STRING_VIEW_LIMIT - 1],
          ],
          'base64',
        ),
      ) as [number, string];
      return { type, base64: bytes, length, truncated: length > STRING_VIEW_LIMIT };
    }
    case 'hash': {
      const page = await scanPage(kv, ['HSCAN', key, cursor, 'COUNT', count], ['HLEN', key]);
      const entries = pairs(page.items);
      const ttlMs = await fieldTtls(
        kv,
        key,
        entries.map(([field]) => field),
      );
      return { type, entries, ...(ttlMs ? { ttlMs } : {}), cursor: page.cursor, total: page.total };
    }
    case 'set': {
      const page = await scanPage(kv, ['SSCAN', key, cursor, 'COUNT', count], ['SCARD', key]);
      return { type, members: page.items, cursor: page.cursor, total: page.total };
    }
    case 'list': {
      const start = Number(cursor) || 0;
      const [items, total] = entriesOrThrow(
        await kv.pipelineEntries(
          [
            ['LRANGE', key, start, start + count - 1],
            ['LLEN', key],
          ],
          'base64',
        ),
      ) as [string[], number];
      return {
        type,
        items: items.map((value, i) => ({ index: start + i, value: kvBytesOf(value) })),
        cursor: next(start + items.length, start + items.length >= total),
        total,
      };
    }
    case 'zset': {
      const start = Number(cursor) || 0;
      const [flat, total] = entriesOrThrow(
        await kv.pipelineEntries(
          [
            ['ZRANGE', key, start, start + count - 1, 'WITHSCORES'],
            ['ZCARD', key],
          ],
          'base64',
        ),
      ) as [string[], number];
      const entries = pairs(flat).map(([member, score]) => ({
        member: kvBytesOf(member),
        score: kvTextOf(String(score)),
      }));
      return { type, entries, cursor: next(start + entries.length, start + entries.length >= total), total };
    }
    case 'stream': {
      const from = cursor === '0' || cursor === '' ? '-' : `(${cursor}`;
      const [raw, total] = entriesOrThrow(
        await kv.pipelineEntries(
          [
            ['XRANGE', key, from, '+', 'COUNT', count],
            ['XLEN', key],
          ],
          'base64',
        ),
      ) as [[string, string[]][], number];
      const entries = raw.map(([id, flat]) => ({ id: kvTextOf(id), fields: pairs(flat.map(kvBytesOf)) }));
      const last = entries[entries.length - 1]?.id;
      return { type, entries, cursor: next(last ?? '', entries.length < count || !last), total };
    }
    case JSON_TYPE: {
      const text = String(await kv.call(['JSON.GET', key]));
      const truncated = text.length > STRING_VIEW_LIMIT;
      return {
        type: 'json',
        text: truncated ? text.slice(0, STRING_VIEW_LIMIT) : text,
        length: text.length,
        truncated,
      };
    }
    default:
      return {
        type: 'other',
        message: `Switchyard has no viewer for the type "${type}"; use the workbench.`,
      };
  }
}

/** How many binary fields' HPTTL requests go out at once (each needs a request of its own). */
const BINARY_TTL_REQUESTS = 8;

/**
 * The TTL of each field of a hash page (HPTTL: ms left, -1 none, -2 gone), in the fields' order; undefined
 * when the service does not answer HPTTL (Redis before 7.4, a proxy that refuses it): the page is then shown
 * without TTLs rather than not at all. Text fields go in one request; a binary field cannot travel in a JSON
 * body, so each goes alone as the raw body of the path form (the field is HPTTL's last argument).
 */
async function fieldTtls(kv: KvClient, key: string, fields: KvBytes[]): Promise<number[] | undefined> {
  if (fields.length === 0) return undefined;
  const text = fields.filter((field): field is string => typeof field === 'string');
  const binary = fields.filter((field) => typeof field !== 'string');
  try {
    const textTtls =
      text.length > 0 ? await kv.call<unknown>(['HPTTL', key, 'FIELDS', text.length, ...text]) : [];
    if (!isTtlList(textTtls, text.length)) return undefined;
    const binaryTtls: number[] = [];
    for (let i = 0; i < binary.length; i += BINARY_TTL_REQUESTS) {
      const replies = await Promise.all(
        binary
          .slice(i, i + BINARY_TTL_REQUESTS)
          .map((field) => callOn(kv, ['HPTTL', key, 'FIELDS', 1], field)),
      );
      for (const reply of replies) {
        if (!isTtlList(reply, 1)) return undefined;
        binaryTtls.push(reply[0]!);
      }
    }
    let t = 0;
    let b = 0;
    return fields.map((field) => (typeof field === 'string' ? textTtls[t++]! : binaryTtls[b++]!));
  } catch {
    // Whatever kept the TTLs (an unknown command, no permission, a request lost), the page itself was read.
    return undefined;
  }
}

function isTtlList(reply: unknown, length: number): reply is number[] {
  return Array.isArray(reply) && reply.length === length && reply.every((ttl) => Number.isInteger(ttl));
}

/**
 * A command whose last argument is a member or field as read: text goes in the JSON body; binary bytes go
 * as the raw body of the path form (JSON strings cannot carry them), so the command hits the exact bytes.
 */
function callOn(kv: KvClient, args: KvArgs, target: KvBytes): Promise<unknown> {
  return typeof target === 'string'
    ? kv.call([...args, target])
    : kv.callWithValue(args, Buffer.from(target.base64, 'base64'));
}

async function applyEdit(kv: KvClient, input: KvEdit): Promise<unknown> {
  const edit = input;
  switch (edit.op) {
    case 'string.set': {
      const extra = edit.create ? ['NX'] : ['KEEPTTL'];
      const result = edit.base64
        ? await kv.callWithValue(['SET', edit.key], Buffer.from(edit.value, 'base64'), extra)
        : await kv.call(['SET', edit.key, edit.value, ...extra]);
      if (edit.create && result === null) throw exists(edit.key);
      return result;
    }
    case 'hash.set':
      return kv.call(['HSET', edit.key, edit.field, edit.value]);
    case 'hash.delete':
      return callOn(kv, ['HDEL', edit.key], edit.field);
    case 'hash.expire':
      return fieldReply(
        await callOn(kv, ['HPEXPIRE', edit.key, edit.ttlMs, 'FIELDS', 1], edit.field),
        edit.key,
        edit.field,
      );
    case 'hash.persist':
      return fieldReply(
        await callOn(kv, ['HPERSIST', edit.key, 'FIELDS', 1], edit.field),
        edit.key,
        edit.field,
      );
    case 'list.set':
      return kv.call(['LSET', edit.key, edit.index, edit.value]);
    case 'list.push':
      return kv.call([edit.side === 'left' ? 'LPUSH' : 'RPUSH', edit.key, edit.value]);
    case 'list.remove': {
      // Lists have no "remove at index": mark the element with a unique value and remove that, atomically.
      const marker = `__switchyard_remove_${randomUUID()}`;
      const reply = await kv.multiExec([
        ['LSET', edit.key, edit.index, marker],
        ['LREM', edit.key, 1, marker],
      ]);
      if ('discarded' in reply)
        throw new BridgeError({ code: 'SERVICE_ERROR', status: reply.status, message: reply.discarded });
      return entriesOrThrow(reply.entries)[1];
    }
    case 'set.add':
      return kv.call(['SADD', edit.key, edit.member]);
    case 'set.remove':
      return callOn(kv, ['SREM', edit.key], edit.member);
    case 'zset.add':
      return callOn(kv, ['ZADD', edit.key, edit.score], edit.member);
    case 'zset.remove':
      return callOn(kv, ['ZREM', edit.key], edit.member);
    case 'stream.add':
      return kv.call(['XADD', edit.key, '*', ...edit.fields.flat()]);
    case 'stream.delete':
      return kv.call(['XDEL', edit.key, edit.id]);
    case 'json.set': {
      const result = await kv.call(jsonEditCommand(edit));
      if (edit.nx && result === null) {
        throw new BridgeError({
          code: 'INVALID_INPUT',
          message: `${edit.path} already exists in ${edit.key}; edit it instead.`,
        });
      }
      if (result === null) {
        throw new BridgeError({
          code: 'NOT_FOUND',
          message: `Nothing at ${edit.path} in ${edit.key} (its parent may be gone): nothing was changed.`,
        });
      }
      return result;
    }
    case 'json.delete':
    case 'json.append':
      return kv.call(jsonEditCommand(edit));
  }
}

/** TYPE of a JSON document (RedisJSON's module type name). */
const JSON_TYPE = 'ReJSON-RL';

/** Members of a JSON document's root object, or items of its root array; null for a scalar. */
async function jsonSize(kv: KvClient, key: string): Promise<number | null> {
  const [objects, arrays] = await kv.pipelineEntries([
    ['JSON.OBJLEN', key, '$'],
    ['JSON.ARRLEN', key, '$'],
  ]);
  const first = (entry: KvReplyEntry | undefined): unknown =>
    Array.isArray(entry?.result) ? (entry.result as unknown[])[0] : undefined;
  const size = first(objects) ?? first(arrays);
  return typeof size === 'number' ? size : null;
}
