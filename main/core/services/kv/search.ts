// The Search tab's handlers (Redis Search): main builds every SEARCH command from the checked input — the page
// never names a command — sends it through KvClient, and reads the replies into typed results here, so a reply
// the console does not understand is an error with the service's words, never a crash on the page.
// Reply shapes (the vendor's SDK reads them the same way): DESCRIBE a flat list `name, …, type, …, prefixes,
// […], language, …, schema, [[field, TYPE, FAST|NOTOKENIZE|NOSTEM|FROM source …] …]` (null when no such
// index); QUERY `[[key, score, [[field, value] …]] …]` (no field list with NOCONTENT; a JSON document's whole
// content as the field `$`); COUNT a number, -1 when no such index; LISTALIASES `[[alias, index] …]`.
import type { kvSearchProcedures, KvSearchPage } from '../../../../shared/bridge/procedures/kv/search';
import { BridgeError } from '../../../../shared/bridge/errors';
import {
  checkSearchFilter,
  type KvSearchField,
  type KvSearchIndex,
  type KvSearchRow,
  type KvSearchValue,
  SEARCH_OFFSET_MAX,
} from '../../../../shared/kv/search';
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import type { Handlers } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { KvClient } from './client';
import { guardCommands } from './guard';
import type { KvSearchStore } from './search-store';

type Names = keyof typeof kvSearchProcedures;
type QueryInput = ParsedInputOf<'kv.search.query'>;

export function kvSearchHandlers({
  profiles,
  store,
}: HandlerDeps & { store: KvSearchStore }): Pick<Handlers, Names> {
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
      const args = ['SEARCH.LISTALIASES'];
      const client = clientFor(profileId, [args]);
      const recent = store.list(profileId);
      const reply = await client.command(args);
      if (!reply.ok) return { aliases: [], recent, aliasesError: reply.error };
      return { aliases: parseAliases(reply.result), recent };
    },

    'kv.search.query': async (input) => {
      const offset = input.cursor ? Number(input.cursor) : 0;
      const query = queryArgs(input, offset);
      if (offset > 0) {
        const rows = parseRows(await clientFor(input.profileId, [query]).call(query));
        return page(rows, offset, input.limit);
      }
      // The first page asks the count in the same request: one round trip, and a missing index is told
      // by COUNT's -1 rather than by each service's own wording of QUERY's error.
      const count = ['SEARCH.COUNT', input.index, compactFilter(input.filter)];
      const [queried, counted] = await clientFor(input.profileId, [query, count]).pipelineEntries([
        query,
        count,
      ]);
      const total = counted?.error === undefined ? parseCount(counted?.result) : undefined;
      if (total === -1)
        throw new BridgeError({ code: 'NOT_FOUND', message: `No index or alias named "${input.index}".` });
      if (!queried || queried.error !== undefined)
        throw new BridgeError({
          code: 'SERVICE_ERROR',
          status: 400,
          message: queried?.error ?? 'The service did not answer the query.',
        });
      if (counted?.error !== undefined)
        throw new BridgeError({ code: 'SERVICE_ERROR', status: 400, message: counted.error });
      return { ...page(parseRows(queried.result), 0, input.limit), count: total };
    },
  };
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

function unreadable(command: string, raw: unknown): BridgeError {
  return new BridgeError({
    code: 'SERVICE_ERROR',
    message: `${command} answered in a shape the console does not read: ${JSON.stringify(raw).slice(0, 200)}`,
  });
}
