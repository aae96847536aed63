// The KV key browser: progressive SCAN as a stream, type and TTL for the rows on screen, exact-key lookup,
// paged values by type, edits, TTL, rename, duplicate and delete. Delete by pattern is a job (delete-job.ts).
import { z } from 'zod';
import type { KvBytes } from '../../../kv/bytes';
import { parseJsonDoc } from '../../../kv/json-doc';
import { call, stream } from '../../define';

const profileId = z.string().min(1).max(100);
const key = z.string().min(1, 'a key is needed').max(32_768, 'keys are at most 32 KB');

/** Key types as TYPE names them; `ReJSON-RL` is a JSON document (JSON.* commands). */
export const KV_TYPES = ['string', 'hash', 'list', 'set', 'zset', 'stream', 'ReJSON-RL'] as const;
export type KvType = (typeof KV_TYPES)[number];

/**
 * The COUNT of a scan stream's first SCAN call (at most the asked COUNT): a small first page is answered
 * and shown at once, then the walk goes on with the asked COUNT.
 */
export const KV_SCAN_FIRST_COUNT = 100;

export interface KvScanEvent {
  keys: string[];
  /** The type of each key, when the server answered `SCAN … WITHTYPE` or a TYPE filter was used. */
  types?: string[];
  /** Where the next SCAN starts ('0' once the whole keyspace was walked). */
  cursor: string;
  /** SCAN calls made by this stream so far. */
  calls: number;
  /** Keys in the database (DBSIZE, asked beside the first SCAN), sent once with the next event after it answers. */
  dbsize?: number;
  /** Whether this server answers WITHTYPE (so the browser fetches no types per row). */
  withType: boolean;
  /** The walk is complete. */
  done: boolean;
  /** The stream stopped at its key limit; open it again from `cursor` to continue. */
  capped: boolean;
}

export interface KvKeyMeta {
  key: string;
  /** 'none' when the key no longer exists. */
  type: string;
  /** Milliseconds left; -1 without expiry, -2 missing. */
  ttlMs: number;
}

export interface KvKeyInfo extends KvKeyMeta {
  exists: boolean;
  /** Length, field or member count, in the type's own unit. */
  size: number | null;
  /** Bytes per MEMORY USAGE; null when the server refuses it. */
  memory: number | null;
}

/**
 * A page of a value; `cursor` is where the next page starts, '' once the value is complete. Collection
 * members, fields and values are read binary-safe: text when valid UTF-8, else their exact bytes.
 */
export type KvValuePage =
  | { type: 'string'; base64: string; length: number; truncated: boolean }
  | {
      type: 'hash';
      entries: [KvBytes, KvBytes][];
      /**
       * Each entry's field TTL as HPTTL answers it (ms left; -1 without one; -2 gone since the page was
       * read), in the order of `entries`. Absent when the service did not answer HPTTL (Redis before 7.4).
       */
      ttlMs?: number[];
      cursor: string;
      total: number;
    }
  | { type: 'list'; items: { index: number; value: KvBytes }[]; cursor: string; total: number }
  | { type: 'set'; members: KvBytes[]; cursor: string; total: number }
  | { type: 'zset'; entries: { member: KvBytes; score: string }[]; cursor: string; total: number }
  | { type: 'stream'; entries: { id: string; fields: [KvBytes, KvBytes][] }[]; cursor: string; total: number }
  /** A JSON document's compact text (JSON.GET); cut at the view limit when `truncated`. */
  | { type: 'json'; text: string; length: number; truncated: boolean }
  | { type: 'other'; message: string };

const value = z.string().max(10_000_000);
/** A member or field to target: text, or the exact bytes of a binary one (as read, base64). */
const target = z.union([
  value,
  z.object({
    base64: z
      .string()
      .max(14_000_000)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
  }),
]);

/** The longest TTL the console sets on a key (`kv.keys.expire`), in seconds. */
export const KV_TTL_MAX_SECONDS = 2 ** 31;
/**
 * The longest field TTL the console sets: as long as a key's may be, far inside what HPEXPIRE accepts (a
 * field's end must stay below 2^48 ms since 1970).
 */
export const KV_FIELD_TTL_MAX_MS = KV_TTL_MAX_SECONDS * 1000;
const fieldTtlMs = z
  .number({ error: 'a TTL in milliseconds is needed' })
  .int('a TTL is a whole number of milliseconds')
  .min(1, 'a TTL is at least 1 ms')
  .max(KV_FIELD_TTL_MAX_MS, `a TTL is at most ${KV_FIELD_TTL_MAX_MS} ms (about 68 years)`);

/** A JSONPath of the JSON editor (always the `$` form). */
const jsonPath = z.string().min(1).max(10_000).regex(/^\$/, 'a JSONPath starts with $');
/** JSON text, checked here so the form shows what is wrong before anything is sent. */
const jsonValue = value.superRefine((text, ctx) => {
  const parsed = parseJsonDoc(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `not valid JSON: ${parsed.error}` });
});

export const kvEditSchema = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('string.set'),
    key,
    value,
    /** `value` is base64 of raw bytes (hex editing); otherwise text. */
    base64: z.boolean().default(false),
    /** Only create: refuses when the key exists. */
    create: z.boolean().default(false),
  }),
  z.object({ op: z.literal('hash.set'), key, field: z.string().max(1_000_000), value }),
  z.object({ op: z.literal('hash.delete'), key, field: target }),
  /** A field's TTL (HPEXPIRE): the field goes after `ttlMs`. */
  z.object({ op: z.literal('hash.expire'), key, field: target, ttlMs: fieldTtlMs }),
  /** A field's TTL removed (HPERSIST). */
  z.object({ op: z.literal('hash.persist'), key, field: target }),
  z.object({ op: z.literal('list.set'), key, index: z.number().int(), value }),
  z.object({ op: z.literal('list.push'), key, side: z.enum(['left', 'right']), value }),
  z.object({ op: z.literal('list.remove'), key, index: z.number().int() }),
  z.object({ op: z.literal('set.add'), key, member: value }),
  z.object({ op: z.literal('set.remove'), key, member: target }),
  z.object({
    op: z.literal('zset.add'),
    key,
    /** Binary members can be re-scored in place. */
    member: target,
    score: z
      .string()
      .trim()
      .regex(/^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|[+-]?inf)$/i, 'not a number'),
  }),
  z.object({ op: z.literal('zset.remove'), key, member: target }),
  z.object({
    op: z.literal('stream.add'),
    key,
    fields: z
      .array(z.tuple([z.string().min(1, 'a field name is needed'), value]))
      .min(1, 'at least one field'),
  }),
  z.object({ op: z.literal('stream.delete'), key, id: z.string().regex(/^\d+-\d+$/, 'not a stream id') }),
  // JSON documents (shared/kv/json-doc.ts builds the command each one runs).
  z.object({
    op: z.literal('json.set'),
    key,
    path: jsonPath,
    value: jsonValue,
    nx: z.boolean().default(false),
  }),
  z.object({ op: z.literal('json.delete'), key, path: jsonPath }),
  z.object({ op: z.literal('json.append'), key, path: jsonPath, value: jsonValue }),
]);
export type KvEdit = z.input<typeof kvEditSchema>;

export const kvKeyProcedures = {
  'kv.keys.scan': stream<KvScanEvent>()(
    z.object({
      profileId,
      match: z.string().max(1000).default('*'),
      type: z.enum(KV_TYPES).optional(),
      count: z.number().int().min(10).max(10_000).default(500),
      cursor: z.string().regex(/^\d+$/).default('0'),
      /** Keys to collect before pausing ("continue" opens the stream again from the cursor). */
      limit: z.number().int().min(1).max(1_000_000).default(10_000),
      /** Pause between SCAN calls, so a big walk never hogs the server. */
      paceMs: z.number().int().min(0).max(5000).default(5),
    }),
    'read',
  ),
  /** Type (unless known) and TTL of the rows on screen, in one pipelined request. */
  'kv.keys.meta': call<KvKeyMeta[]>()(
    z.object({ profileId, keys: z.array(key).max(500), withType: z.boolean().default(true) }),
    'read',
  ),
  /** Exact-key lookup: type, TTL, size and memory. The only way in for a read-only token (no SCAN). */
  'kv.keys.lookup': call<KvKeyInfo>()(z.object({ profileId, key }), 'read'),
  'kv.keys.value': call<KvValuePage>()(
    z.object({
      profileId,
      key,
      type: z.string().max(40),
      cursor: z.string().max(100).default('0'),
      count: z.number().int().min(1).max(5000).default(100),
    }),
    'read',
  ),
  'kv.keys.edit': call<{ result: unknown }>()(z.object({ profileId, edit: kvEditSchema }), 'write'),
  /** `ttlSeconds: null` removes the expiry. */
  'kv.keys.expire': call<{ ttlMs: number }>()(
    z.object({
      profileId,
      key,
      ttlSeconds: z.number().int().min(1).max(KV_TTL_MAX_SECONDS).nullable(),
    }),
    'write',
  ),
  'kv.keys.rename': call<{ key: string }>()(z.object({ profileId, key, to: key }), 'write'),
  'kv.keys.duplicate': call<{ key: string }>()(z.object({ profileId, key, to: key }), 'write'),
  'kv.keys.delete': call<{ deleted: number }>()(
    z.object({ profileId, keys: z.array(key).min(1).max(1000) }),
    'write',
  ),
};
