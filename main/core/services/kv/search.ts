// The Search tab's handlers (Redis Search): main builds every SEARCH command from the checked input — the page
// never names a command — sends it through KvClient, and reads the replies into typed results here, so a reply
// the console does not understand is an error with the service's words, never a crash on the page.
// Reply shapes (the vendor's SDK reads them the same way): DESCRIBE a flat list `name, …, type, …, prefixes,
// […], language, …, schema, [[field, TYPE, FAST|NOTOKENIZE|NOSTEM|FROM source …] …]` (null when no such
// index); QUERY `[[key, score, [[field, value] …]] …]` (no field list with NOCONTENT; a JSON document's whole
// content as the field `$`); COUNT a number, -1 when no such index; LISTALIASES `[[alias, index] …]`;
// LISTINDEXES one entry per index, sorted by name, each `[name, …, type, HASH|JSON|STRING, …]` (a map in
// RESP3; the REST API's JSON has it as alternating keys and values); AGGREGATE `[name, result, …]` in the
// order the aggregations were given, each result a JSON object as the same flat key/value array
// (`[buckets, [[key, k, docCount, n, …] …], sumOtherDocCount, n]`, `[value, n]`, `[count, n, min, …]`)
// and a JSON list as a list, numbers that are not whole as text.
import {
  type KvSearchIndexEntry,
  type KvSearchNames,
  type kvSearchProcedures,
  type KvSearchPage,
  SEARCH_INDEX_LIST_MAX,
} from '../../../../shared/bridge/procedures/kv/search';
import { BridgeError } from '../../../../shared/bridge/errors';
import {
  checkSearchFilter,
  type KvSearchField,
  type KvSearchIndex,
  type KvSearchRow,
  type KvSearchValue,
  SEARCH_EXPORT_MAX,
  SEARCH_LIMIT_MAX,
  SEARCH_OFFSET_MAX,
} from '../../../../shared/kv/search';
import {
  checkSearchAggregations,
  type KvAggregateNode,
  type KvAggregateResult,
} from '../../../../shared/kv/search-aggregate';
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import type { Handlers } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { csvText } from '../../saving/csv';
import type { FileSaver } from '../../saving/file-saver';
import { KvClient } from './client';
import { guardCommands } from './guard';
import type { KvSearchStore } from './search-store';

type Names = keyof typeof kvSearchProcedures;
type QueryInput = ParsedInputOf<'kv.search.query'>;
type ExportInput = ParsedInputOf<'kv.search.export'>;

export function kvSearchHandlers({
  profiles,
  store,
  saver,
  now = Date.now,
}: HandlerDeps & { store: KvSearchStore; saver: FileSaver; now?: () => number }): Pick<Handlers, Names> {
  /** A client for the profile, after the same checks the workbench makes (each of these commands reads). */
  const clientFor = (profileId: string, commands: string[][]) => {
    const profile = profiles.resolve(profileId);
    const client = new KvClient(profile);
    guardCommands(profile, client.access, commands, false);
    return client;
  };

  return {
    'kv.search.describe': async ({ profileId, index }) => {
      const args = ['SEARCH.DESCRIBE', index];
      const raw = await clientFor(profileId, [args]).call(args);
      const described = parseDescribe(raw);
      if (!described) {
        store.gone(profileId, index);
        return { exists: false, name: index };
      }
      store.opened(profileId, index);
      return { exists: true, index: described };
    },

    'kv.search.names': async ({ profileId }) => {
      const aliasArgs = ['SEARCH.LISTALIASES'];
      const indexArgs = ['SEARCH.LISTINDEXES', 'LIMIT', String(SEARCH_INDEX_LIST_MAX)];
      const client = clientFor(profileId, [aliasArgs]);
      const recent = store.list(profileId);
      // Checked on its own: a refusal of the list (read-only rules included) leaves the suggestions as before.
      let indexRefused: string | undefined;
      try {
        guardCommands(profiles.resolve(profileId), client.access, [indexArgs], false);
      } catch (error) {
        indexRefused = error instanceof Error ? error.message : String(error);
      }
      const [aliasReply, indexReply] = await client.pipelineEntries(
        indexRefused === undefined ? [aliasArgs, indexArgs] : [aliasArgs],
      );
      const names: KvSearchNames = { aliases: [], recent };
      if (!aliasReply || aliasReply.error !== undefined)
        names.aliasesError = aliasReply?.error ?? 'The service did not answer SEARCH.LISTALIASES.';
      else names.aliases = parseAliases(aliasReply.result);
      if (indexRefused !== undefined) names.indexesError = indexRefused;
      else if (!indexReply || indexReply.error !== undefined)
        names.indexesError = indexReply?.error ?? 'The service did not answer SEARCH.LISTINDEXES.';
      else {
        names.indexes = parseIndexList(indexReply.result);
        if (names.indexes.length >= SEARCH_INDEX_LIST_MAX) names.indexesTruncated = true;
      }
      return names;
    },

    'kv.search.aggregate': async ({ profileId, index, filter, aggregations }) => {
      const args = ['SEARCH.AGGREGATE', index, compactFilter(filter), compactAggregations(aggregations)];
      const reply = await clientFor(profileId, [args]).command(args);
      if (!reply.ok) throw new BridgeError({ code: 'SERVICE_ERROR', status: 400, message: reply.error });
      // The hosted service answers nil for an index it does not have.
      if (reply.result === null || reply.result === undefined)
        throw new BridgeError({ code: 'NOT_FOUND', message: `No index or alias named "${index}".` });
      return parseAggregate(reply.result);
    },

    'kv.search.query': async (input) => {
      const offset = input.cursor ? Number(input.cursor) : 0;
      const query = queryArgs(input, offset);
      if (offset > 0) {
        const rows = parseRows(await clientFor(input.profileId, [query]).call(query));
        return page(rows, offset, input.limit);
      }
      const { result, count } = await firstPage(
        (commands) => clientFor(input.profileId, commands),
        input.index,
        input.filter,
        query,
      );
      return { ...page(parseRows(result), 0, input.limit), count };
    },

    'kv.search.export': async (input) => {
      const { documents, count } = await exportDocuments(input, (args) => clientFor(input.profileId, args));
      const text = input.format === 'json' ? searchJson(documents) : searchCsv(documents);
      const saved = await saver.save({
        text,
        suggestedName: input.suggestedName,
        defaultName: exportName(input.index, now(), input.format),
        what: `the results of the query on ${input.index}`,
      });
      if ('canceled' in saved) return saved;
      return {
        path: saved.path,
        documents: documents.length,
        count,
        capped: count > SEARCH_EXPORT_MAX,
        bytes: Buffer.byteLength(text),
      };
    },

    'kv.search.aggregate.export': async ({ profileId, index, filter, aggregations, suggestedName }) => {
      const args = ['SEARCH.AGGREGATE', index, compactFilter(filter), compactAggregations(aggregations)];
      const reply = await clientFor(profileId, [args]).command(args);
      if (!reply.ok) throw new BridgeError({ code: 'SERVICE_ERROR', status: 400, message: reply.error });
      if (reply.result === null || reply.result === undefined)
        throw new BridgeError({ code: 'NOT_FOUND', message: `No index or alias named "${index}".` });
      const result = parseAggregate(reply.result);
      const text = `${JSON.stringify(aggregateJson(result), null, 2)}\n`;
      const saved = await saver.save({
        text,
        suggestedName,
        defaultName: exportName(`${index}-aggregate`, now(), 'json'),
        what: `the aggregation on ${index}`,
      });
      if ('canceled' in saved) return saved;
      return { path: saved.path, bytes: Buffer.byteLength(text) };
    },
  };
}

/** One exported document: its key, score and content (a JSON document's members nested as stored). */
export interface KvSearchDocument {
  key: string;
  score: number;
  /** The fields in the reply's order, dotted names for a JSON document's nested members (CSV's columns). */
  fields: [string, KvSearchValue][];
  /** The content as JSON: a hash's fields, or a JSON document's members as stored. */
  data: { [name: string]: KvSearchValue };
}

/**
 * Every document the query matches that the service lets main page to: the count and the first page in
 * one request, then pages of SEARCH_LIMIT_MAX by OFFSET until a page comes back short or the next OFFSET
 * is past the service's furthest. A key already written (documents moving between pages while main
 * pages) is not written twice.
 */
export async function exportDocuments(
  input: Pick<ExportInput, 'index' | 'filter' | 'orderBy' | 'select' | 'keysOnly'>,
  clientFor: (commands: string[][]) => KvClient,
): Promise<{ documents: KvSearchDocument[]; count: number }> {
  const shape = { ...input, limit: SEARCH_LIMIT_MAX };
  const first = queryArgs(shape, 0);
  const { client, result, count } = await firstPage(clientFor, input.index, input.filter, first);
  const documents: KvSearchDocument[] = [];
  const seen = new Set<string>();
  let raw: unknown = result;
  for (let offset = 0; ;) {
    const pageDocuments = readDocuments(raw);
    for (const document of pageDocuments) {
      if (seen.has(document.key) || documents.length >= SEARCH_EXPORT_MAX) continue;
      seen.add(document.key);
      documents.push(document);
    }
    offset += SEARCH_LIMIT_MAX;
    if (pageDocuments.length < SEARCH_LIMIT_MAX || offset > SEARCH_OFFSET_MAX) break;
    if (documents.length >= SEARCH_EXPORT_MAX) break;
    raw = await client.call(queryArgs(shape, offset));
  }
  return { documents, count };
}

/**
 * A query's first page and the number of documents it matches, asked in one request (one round trip). A
 * missing index is told by COUNT's -1 rather than by each service's own wording of QUERY's error.
 */
async function firstPage(
  clientFor: (commands: string[][]) => KvClient,
  index: string,
  filter: string,
  query: string[],
): Promise<{ client: KvClient; result: unknown; count: number }> {
  const countArgs = ['SEARCH.COUNT', index, compactFilter(filter)];
  const client = clientFor([query, countArgs]);
  const [queried, counted] = await client.pipelineEntries([query, countArgs]);
  const count = counted?.error === undefined ? parseCount(counted?.result) : undefined;
  if (count === -1)
    throw new BridgeError({ code: 'NOT_FOUND', message: `No index or alias named "${index}".` });
  if (!queried || queried.error !== undefined)
    throw new BridgeError({
      code: 'SERVICE_ERROR',
      status: 400,
      message: queried?.error ?? 'The service did not answer the query.',
    });
  if (count === undefined)
    throw new BridgeError({ code: 'SERVICE_ERROR', status: 400, message: counted?.error ?? 'No count.' });
  return { client, result: queried.result, count };
}

/** A page of SEARCH.QUERY's reply as documents: the rows parseRows reads, and each one's content as JSON. */
function readDocuments(raw: unknown): KvSearchDocument[] {
  const rows = parseRows(raw);
  return rows.map((row, i) => {
    const data: { [name: string]: KvSearchValue } = {};
    const item = (raw as unknown[])[i] as unknown[];
    const pairs = Array.isArray(item[2]) ? (item[2] as unknown[][]) : [];
    for (const [name, value] of pairs) {
      const member = plain(value);
      if (String(name) === '$') Object.assign(data, documentObject(member));
      else data[String(name)] = member;
    }
    return { key: row.key, score: row.score, fields: row.fields, data };
  });
}

/** A JSON document's content (an object, or its JSON text) as an object; anything else under `$`. */
function documentObject(value: KvSearchValue): { [name: string]: KvSearchValue } {
  let doc = value;
  if (typeof value === 'string') {
    try {
      doc = plain(JSON.parse(value));
    } catch {
      return { $: value };
    }
  }
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? doc : { $: doc };
}

/** The export as JSON: an array of `{key, score, data}`. */
export function searchJson(documents: readonly KvSearchDocument[]): string {
  return `${JSON.stringify(
    documents.map(({ key, score, data }) => ({ key, score, data })),
    null,
    2,
  )}\n`;
}

/**
 * The export as CSV: key, score, then one column per field any document has (in the order first met,
 * dotted names for nested members); a value that is not text is written as JSON, a missing one empty.
 */
export function searchCsv(documents: readonly KvSearchDocument[]): string {
  const columns: string[] = [];
  const known = new Set<string>();
  for (const document of documents)
    for (const [name] of document.fields)
      if (!known.has(name)) {
        known.add(name);
        columns.push(name);
      }
  const cell = (value: KvSearchValue | undefined) =>
    value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const records = documents.map((document) => {
    const values = new Map(document.fields);
    return [document.key, String(document.score), ...columns.map((name) => cell(values.get(name)))];
  });
  return csvText([['key', 'score', ...columns], ...records]);
}

/** An aggregation's result as the JSON it was in the reply: objects, lists and values. */
export function aggregateJson(result: KvAggregateResult): { [name: string]: unknown } {
  const node = (value: KvAggregateNode): unknown =>
    value.kind === 'value'
      ? value.value
      : value.kind === 'list'
        ? value.items.map(node)
        : Object.fromEntries(value.entries.map(([name, member]) => [name, node(member)]));
  return Object.fromEntries(result.aggregations.map(([name, value]) => [name, node(value)]));
}

/** `kv-search-<index>-<time>.<format>`, the index's characters a file name cannot have replaced. */
function exportName(index: string, time: number, format: 'json' | 'csv'): string {
  const stamp = new Date(time).toISOString().replace(/[:.]/g, '-');
  const safe = index.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);
  return `kv-search-${safe}-${stamp}.${format}`;
}

/** A page, with the next page's OFFSET as its cursor when this one was full. */
function page(rows: KvSearchRow[], offset: number, limit: number): KvSearchPage {
  const next = offset + rows.length;
  return rows.length >= limit && next <= SEARCH_OFFSET_MAX ? { rows, cursor: String(next) } : { rows };
}

/**
 * The filter as it goes out: parsed with the filter grammar and written again compactly, so what is sent is
 * exactly one JSON object whatever the text around it was. The input schema already checked it; this is
 * the place that must never send anything else.
 */
export function compactFilter(text: string): string {
  const check = checkSearchFilter(text);
  if (!check.ok) throw new BridgeError({ code: 'INVALID_INPUT', message: check.error });
  return JSON.stringify(check.filter);
}

/** The aggregations as they go out: checked with their grammar and written again compactly, as the filter is. */
export function compactAggregations(text: string): string {
  const check = checkSearchAggregations(text);
  if (!check.ok) throw new BridgeError({ code: 'INVALID_INPUT', message: check.error });
  return JSON.stringify(check.aggregations);
}

/** `SEARCH.QUERY index filter [LIMIT n] [OFFSET n] [NOCONTENT] [ORDERBY field ASC|DESC] [SELECT n field …]`. */
export function queryArgs(
  input: Pick<QueryInput, 'index' | 'filter' | 'limit' | 'orderBy' | 'select' | 'keysOnly'>,
  offset: number,
): string[] {
  const args = ['SEARCH.QUERY', input.index, compactFilter(input.filter), 'LIMIT', String(input.limit)];
  if (offset > 0) args.push('OFFSET', String(offset));
  if (input.keysOnly) args.push('NOCONTENT');
  if (input.orderBy) args.push('ORDERBY', input.orderBy.field, input.orderBy.direction.toUpperCase());
  if (input.select && !input.keysOnly) args.push('SELECT', String(input.select.length), ...input.select);
  return args;
}

/** SEARCH.DESCRIBE's reply as a definition; null when the index does not exist. */
export function parseDescribe(raw: unknown): KvSearchIndex | null {
  if (raw === null || raw === undefined || raw === 0) return null;
  if (!Array.isArray(raw) || raw.length % 2 !== 0) throw unreadable('SEARCH.DESCRIBE', raw);
  const index: KvSearchIndex = { name: '', dataType: '', prefixes: [], language: '', fields: [] };
  for (let i = 0; i < raw.length; i += 2) {
    const value: unknown = raw[i + 1];
    switch (String(raw[i]).toLowerCase()) {
      case 'name':
        index.name = String(value);
        break;
      case 'type':
        index.dataType = String(value).toLowerCase();
        break;
      case 'prefixes':
        index.prefixes = Array.isArray(value) ? value.map(String) : [String(value)];
        break;
      case 'language':
        index.language = String(value);
        break;
      case 'schema':
        if (!Array.isArray(value)) throw unreadable('SEARCH.DESCRIBE', raw);
        index.fields = value.map((entry) => parseField(entry, raw));
        break;
      // Anything newer the service adds is left out, not a failure.
    }
  }
  return index;
}

function parseField(entry: unknown, raw: unknown): KvSearchField {
  if (!Array.isArray(entry) || entry.length < 2) throw unreadable('SEARCH.DESCRIBE', raw);
  const field: KvSearchField = {
    name: String(entry[0]),
    type: String(entry[1]).toUpperCase(),
    fast: false,
    noTokenize: false,
    noStem: false,
  };
  for (let j = 2; j < entry.length; j += 1) {
    switch (String(entry[j]).toUpperCase()) {
      case 'FAST':
        field.fast = true;
        break;
      case 'NOTOKENIZE':
        field.noTokenize = true;
        break;
      case 'NOSTEM':
        field.noStem = true;
        break;
      case 'FROM':
        field.from = String(entry[j + 1] ?? '');
        j += 1;
        break;
    }
  }
  return field;
}

/** SEARCH.QUERY's reply as rows; a JSON document's whole content (`$`) becomes its fields, dotted. */
export function parseRows(raw: unknown): KvSearchRow[] {
  if (raw === null || raw === undefined) return [];
  if (!Array.isArray(raw)) throw unreadable('SEARCH.QUERY', raw);
  return raw.map((item): KvSearchRow => {
    if (!Array.isArray(item) || item.length < 2) throw unreadable('SEARCH.QUERY', raw);
    const score = Number(item[1]);
    const row: KvSearchRow = { key: String(item[0]), score: Number.isFinite(score) ? score : 0, fields: [] };
    const fields: unknown = item[2];
    if (fields === undefined || fields === null) return row;
    if (!Array.isArray(fields)) throw unreadable('SEARCH.QUERY', raw);
    for (const pair of fields) {
      if (!Array.isArray(pair) || pair.length < 2) throw unreadable('SEARCH.QUERY', raw);
      const name = String(pair[0]);
      const value = plain(pair[1]);
      if (name === '$') row.fields.push(...documentFields(value));
      else row.fields.push([name, value]);
    }
    return row;
  });
}

/** A whole JSON document (an object, or its JSON text) as its fields, nested members with dotted names. */
function documentFields(value: KvSearchValue): [string, KvSearchValue][] {
  let doc: KvSearchValue = value;
  if (typeof value === 'string') {
    try {
      doc = plain(JSON.parse(value));
    } catch {
      return [['$', value]];
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return [['$', doc]];
  const out: [string, KvSearchValue][] = [];
  const walk = (node: { [key: string]: KvSearchValue }, prefix: string) => {
    for (const [key, member] of Object.entries(node)) {
      const name = prefix ? `${prefix}.${key}` : key;
      if (typeof member === 'object' && member !== null && !Array.isArray(member)) walk(member, name);
      else out.push([name, member]);
    }
  };
  walk(doc, '');
  return out;
}

/** A reply value as JSON data (the REST reply is JSON already; this keeps the type honest). */
function plain(value: unknown): KvSearchValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') {
    const out: { [key: string]: KvSearchValue } = {};
    for (const [key, member] of Object.entries(value)) out[key] = plain(member);
    return out;
  }
  return String(value);
}

/** SEARCH.COUNT's reply: a number (-1: no such index). */
export function parseCount(raw: unknown): number {
  const count = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number.parseInt(raw, 10) : NaN;
  if (!Number.isFinite(count)) throw unreadable('SEARCH.COUNT', raw);
  return count;
}

/** SEARCH.LISTALIASES' reply: `[[alias, index] …]` (an empty list, or 0, without aliases), sorted by alias. */
export function parseAliases(raw: unknown): { alias: string; index: string }[] {
  if (raw === null || raw === undefined || raw === 0) return [];
  if (!Array.isArray(raw)) throw unreadable('SEARCH.LISTALIASES', raw);
  return raw
    .map((pair) => {
      if (!Array.isArray(pair) || pair.length < 2) throw unreadable('SEARCH.LISTALIASES', raw);
      return { alias: String(pair[0]), index: String(pair[1]) };
    })
    .sort((a, b) => a.alias.localeCompare(b.alias));
}

/** SEARCH.LISTINDEXES' reply: each index's name and data type, in the service's order (by name). */
export function parseIndexList(raw: unknown): KvSearchIndexEntry[] {
  if (raw === null || raw === undefined || raw === 0) return [];
  if (!Array.isArray(raw)) throw unreadable('SEARCH.LISTINDEXES', raw);
  return raw.map((entry): KvSearchIndexEntry => {
    const fields = new Map<string, unknown>();
    if (Array.isArray(entry) && entry.length % 2 === 0) {
      for (let i = 0; i < entry.length; i += 2) fields.set(String(entry[i]).toLowerCase(), entry[i + 1]);
    } else if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) {
      for (const [key, value] of Object.entries(entry)) fields.set(key.toLowerCase(), value);
    } else {
      throw unreadable('SEARCH.LISTINDEXES', raw);
    }
    const name = fields.get('name');
    if (typeof name !== 'string' || !name) throw unreadable('SEARCH.LISTINDEXES', raw);
    const type = fields.get('type');
    return { name, dataType: typeof type === 'string' ? type.toUpperCase() : '' };
  });
}

/** How deep main reads an aggregation's reply (the service nests a level or two per `$aggs`). */
const AGGREGATE_REPLY_DEPTH_MAX = 64;
/** Values that name a bucket: kept as text even when they read as numbers ("007" is a term, not 7). */
const KEY_NAMES = new Set(['key', 'keyAsString', 'path']);

/** SEARCH.AGGREGATE's reply: `[name, result, …]`, each result read into a node of its JSON shape. */
export function parseAggregate(raw: unknown): KvAggregateResult {
  if (raw === null || raw === undefined) return { aggregations: [] };
  if (!Array.isArray(raw) || !isFlatObject(raw)) throw unreadable('SEARCH.AGGREGATE', raw);
  const aggregations: [string, KvAggregateNode][] = [];
  for (let i = 0; i < raw.length; i += 2)
    aggregations.push([raw[i] as string, aggregateNode(raw[i + 1], undefined, 0, raw)]);
  return { aggregations };
}

/**
 * A part of the reply as a node: an array whose items alternate names and values is an object (the reply
 * writes every JSON object so); any other array, a list; one whose first item is an array (buckets,
 * percentiles' list) is a list whatever its length.
 */
function aggregateNode(
  value: unknown,
  key: string | undefined,
  depth: number,
  raw: unknown,
): KvAggregateNode {
  if (depth > AGGREGATE_REPLY_DEPTH_MAX) throw unreadable('SEARCH.AGGREGATE', raw);
  if (value === null || value === undefined) return { kind: 'value', value: null };
  if (typeof value === 'number') return { kind: 'value', value };
  if (typeof value === 'boolean') return { kind: 'value', value: value ? 1 : 0 };
  if (typeof value === 'string') {
    const number = Number(value);
    return key !== undefined && !KEY_NAMES.has(key) && value.trim() !== '' && Number.isFinite(number)
      ? { kind: 'value', value: number }
      : { kind: 'value', value };
  }
  if (Array.isArray(value)) {
    if (isFlatObject(value)) {
      const entries: [string, KvAggregateNode][] = [];
      for (let i = 0; i < value.length; i += 2) {
        const name = value[i] as string;
        entries.push([name, aggregateNode(value[i + 1], name, depth + 1, raw)]);
      }
      return { kind: 'object', entries };
    }
    return { kind: 'list', items: value.map((item) => aggregateNode(item, key, depth + 1, raw)) };
  }
  if (typeof value === 'object') {
    return {
      kind: 'object',
      entries: Object.entries(value).map(([name, member]) => [
        name,
        aggregateNode(member, name, depth + 1, raw),
      ]),
    };
  }
  return { kind: 'value', value: String(value) };
}

function isFlatObject(value: unknown[]): boolean {
  if (value.length === 0 || value.length % 2 !== 0) return false;
  for (let i = 0; i < value.length; i += 2) if (typeof value[i] !== 'string') return false;
  return true;
}

function unreadable(command: string, raw: unknown): BridgeError {
  return new BridgeError({
    code: 'SERVICE_ERROR',
    message: `${command} answered in a shape the console does not read: ${JSON.stringify(raw).slice(0, 200)}`,
  });
}
