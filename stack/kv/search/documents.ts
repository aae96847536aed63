// The documents of an index, read at query time: every key under the index's prefixes (SCAN MATCH with the
// prefix's glob characters escaped, TYPE filtered), then its value, through the same path a user's commands
// take (the caller's connection and ACL, the JSON script for JSON documents, hashes without the hash-expiry
// bookkeeping field). The cost is a walk of the whole keyspace per query (SCAN visits every key; MATCH only
// filters what it returns): fine for a local stack's data, documented in docs/stack-kv.md.
import type { RespArg, RespValue } from '../resp';
import { RespError } from '../resp';
import type { Token } from './text';
import { analyze } from './text';
import type { SearchDocument, SearchField, SearchIndexDefinition, SearchValue } from './types';

/** Runs commands as the requesting token, in order, answering each one's reply. */
export type ReadCommands = (commands: RespArg[][]) => Promise<RespValue[]>;

/** A command the reads needed was refused (an ACL, a Redis error): SEARCH answers with its text. */
export class SearchReadError extends Error {}

const SCAN_COUNT = '1000';

/** A document's stored content: a JSON value (json, string) or a hash's fields. */
type Content = { kind: 'json'; value: unknown } | { kind: 'hash'; fields: Map<string, string> };

/** A document as filters, ordering, selection and highlighting read it. */
export interface IndexedDocument extends SearchDocument {
  readonly content: Content;
  /** The raw stored value at a path (a hash field's string, a JSON value), or undefined. */
  source(path: string): unknown;
  /** The terms of a TEXT field, one list per stored value (an array field has several). */
  tokens(field: SearchField): Token[][];
  /** How often each term occurs in a TEXT field (all its values), and how many terms it has in all. */
  termCounts(field: SearchField): TermCounts;
}

export interface TermCounts {
  frequencies: Map<string, number>;
  length: number;
}

/** `*`, `?`, `[`, `]` and `\` in a prefix are matched as themselves, not as a pattern. */
export function escapeGlob(prefix: string): string {
  return prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** The Redis types whose keys an index reads: JSON documents written with JSON.SET or SET, hashes, strings. */
function typesOf(dataType: SearchIndexDefinition['dataType']): string[] {
  if (dataType === 'json') return ['ReJSON-RL', 'string'];
  return [dataType];
}

function readCommandOf(type: string, key: string): RespArg[] {
  if (type === 'ReJSON-RL') return ['JSON.GET', key];
  if (type === 'hash') return ['HGETALL', key];
  return ['GET', key];
}

function failed(value: RespValue | undefined): never {
  throw new SearchReadError(
    value instanceof RespError ? value.message : 'ERR unexpected reply while reading documents',
  );
}

const str = (value: RespValue | undefined): string | undefined =>
  Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : undefined;

/**
 * Every document of the index, in no particular order (each key once): keys found with `list`, values read
 * with `read`.
 */
export async function readDocuments(
  index: SearchIndexDefinition,
  list: ReadCommands,
  read: ReadCommands,
): Promise<IndexedDocument[]> {
  const fieldsByPath = new Map(index.fields.map((field) => [field.path, field]));
  const documents: IndexedDocument[] = [];
  const seen = new Set<string>();
  for (const prefix of index.prefixes) {
    const pattern = `${escapeGlob(prefix)}*`;
    for (const type of typesOf(index.dataType)) {
      let cursor = '0';
      do {
        const [reply] = await list([['SCAN', cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT, 'TYPE', type]]);
        if (!Array.isArray(reply) || reply.length !== 2 || !Array.isArray(reply[1])) failed(reply);
        cursor = str(reply[0]) ?? '0';
        const keys = (reply[1] as RespValue[]).map((key) => str(key)!).filter((key) => !seen.has(key));
        if (keys.length === 0) continue;
        for (const key of keys) seen.add(key);
        const values = await read(keys.map((key) => readCommandOf(type, key)));
        keys.forEach((key, i) => {
          const value = values[i];
          // A key deleted or changed in type since the SCAN is simply not there.
          if (value instanceof RespError && /WRONGTYPE/.test(value.message)) return;
          if (value instanceof RespError) failed(value);
          const content = contentOf(type, value);
          if (content) documents.push(indexedDocument(key, content, index, fieldsByPath));
        });
      } while (cursor !== '0');
    }
  }
  return documents;
}

function contentOf(type: string, value: RespValue | undefined): Content | undefined {
  if (type === 'hash') {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < value.length; i += 2) fields.set(str(value[i])!, str(value[i + 1])!);
    return { kind: 'hash', fields };
  }
  const text = str(value);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    // A string that is not a JSON object (a counter, plain text) is not a document of the index.
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { kind: 'json', value: parsed }
      : undefined;
  } catch {
    return undefined;
  }
}

/** The values at a dotted path of a JSON value; arrays on the way are walked into. */
export function valuesAtPath(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  for (const part of path.split('.')) {
    const next: unknown[] = [];
    for (const value of current) {
      for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
        if (item !== null && typeof item === 'object' && !Array.isArray(item) && part in item) {
          next.push((item as Record<string, unknown>)[part]);
        }
      }
    }
    current = next;
  }
  return current.flatMap((value) => (Array.isArray(value) ? (value as unknown[]).flat(Infinity) : [value]));
}

/** The raw value at a path (for SELECT): a hash field's text, or the JSON value there. */
export function sourceAtPath(content: Content, path: string): unknown {
  if (content.kind === 'hash') return content.fields.get(path);
  let current: unknown = content.value;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !(part in current))
      return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A stored value converted to a field's type, or undefined when it does not convert. */
export function convert(field: SearchField, raw: unknown): SearchValue | undefined {
  switch (field.type) {
    case 'TEXT':
    case 'KEYWORD':
    case 'FACET':
      if (typeof raw === 'string') return raw;
      return typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : undefined;
    case 'U64':
    case 'I64':
    case 'F64': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
      if (!Number.isFinite(n)) return undefined;
      if (field.type === 'U64' && (n < 0 || !Number.isInteger(n))) return undefined;
      if (field.type === 'I64' && !Number.isInteger(n)) return undefined;
      return n;
    }
    case 'BOOL':
      if (typeof raw === 'boolean') return raw;
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      return undefined;
    case 'DATE':
      return dateValue(raw);
  }
}

/** A date as unix milliseconds: an RFC 3339 / ISO 8601 string, or a number of milliseconds. */
export function dateValue(raw: unknown): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  if (/^-?\d+$/.test(raw.trim())) return Number(raw);
  const ms = Date.parse(raw);
  return Number.isNaN(ms) ? undefined : ms;
}

function indexedDocument(
  key: string,
  content: Content,
  index: SearchIndexDefinition,
  fieldsByPath: Map<string, SearchField>,
): IndexedDocument {
  const values = new Map<string, SearchValue | readonly SearchValue[] | undefined>();
  const tokens = new Map<string, Token[][]>();
  const counts = new Map<string, TermCounts>();
  const rawValues = (field: SearchField): unknown[] => {
    const path = field.from ?? field.path;
    if (content.kind === 'hash') {
      const value = content.fields.get(path);
      return value === undefined ? [] : [value];
    }
    return valuesAtPath(content.value, path);
  };
  return {
    key,
    content,
    source: (path) => sourceAtPath(content, path),
    value(path) {
      if (values.has(path)) return values.get(path);
      const field = fieldsByPath.get(path);
      let value: SearchValue | readonly SearchValue[] | undefined;
      if (field) {
        const converted = rawValues(field)
          .map((raw) => convert(field, raw))
          .filter((v): v is SearchValue => v !== undefined);
        value = converted.length === 0 ? undefined : converted.length === 1 ? converted[0] : converted;
      }
      values.set(path, value);
      return value;
    },
    tokens(field) {
      let found = tokens.get(field.path);
      if (!found) {
        const analysis = { noTokenize: field.noTokenize, noStem: field.noStem, language: index.language };
        found = rawValues(field)
          .map((raw) => convert(field, raw))
          .filter((v): v is string => typeof v === 'string')
          .map((text) => analyze(text, analysis));
        tokens.set(field.path, found);
      }
      return found;
    },
    termCounts(field) {
      let found = counts.get(field.path);
      if (!found) {
        const frequencies = new Map<string, number>();
        let length = 0;
        for (const list of this.tokens(field)) {
          length += list.length;
          for (const token of list) frequencies.set(token.term, (frequencies.get(token.term) ?? 0) + 1);
        }
        found = { frequencies, length };
        counts.set(field.path, found);
      }
      return found;
    },
  };
}
