// SEARCH.CREATE's arguments read into an index definition, and the definition written back as SEARCH.DESCRIBE
// answers it. The wire form is the SDK's (`@upstash/redis` search/command-builder.ts):
//   SEARCH.CREATE name [SKIPINITIALSCAN] [EXISTSOK] ON HASH|JSON|STRING PREFIX n p… [LANGUAGE l]
//     SCHEMA path TYPE [FAST] [NOTOKENIZE] [NOSTEM] [FROM source] …
import type { RespArg, RespValue } from '../resp';
import type { SearchField, SearchFieldType, SearchIndexDefinition } from './types';
import { isLanguage, LANGUAGES } from './text';

const FIELD_TYPES: readonly SearchFieldType[] = [
  'TEXT',
  'U64',
  'I64',
  'F64',
  'BOOL',
  'DATE',
  'KEYWORD',
  'FACET',
];
const DATA_TYPES = ['hash', 'json', 'string'] as const;
const FIELD_OPTIONS = new Set(['FAST', 'NOTOKENIZE', 'NOSTEM', 'FROM']);

/** A SEARCH.* command's bad input: answered as a Redis error reply with this text. */
export class SearchInputError extends Error {}

export function text(arg: RespArg | undefined): string {
  if (arg === undefined) return '';
  return typeof arg === 'string' ? arg : arg.toString('utf8');
}

export interface CreateRequest {
  definition: SearchIndexDefinition;
  /** EXISTSOK: an index of that name already there is not an error (and is left as it is). */
  existsOk: boolean;
  /**
   * SKIPINITIALSCAN: the hosted service leaves keys written before the index out of it. Accepted, and has no
   * effect here: the emulation reads the keys under the prefixes at query time (docs/stack-kv.md).
   */
  skipInitialScan: boolean;
}

/** Reads `SEARCH.CREATE …` (args[0] is the command name). */
export function parseCreate(args: readonly RespArg[]): CreateRequest {
  const words = args.map(text);
  const name = words[1];
  if (name === undefined || name === '') {
    throw new SearchInputError("ERR wrong number of arguments for 'search.create' command");
  }
  let i = 2;
  let existsOk = false;
  let skipInitialScan = false;
  let dataType: SearchIndexDefinition['dataType'] | undefined;
  let prefixes: string[] | undefined;
  let language = 'english';
  const need = (count: number, what: string): void => {
    if (i + count >= words.length) throw new SearchInputError(`ERR SEARCH.CREATE: ${what} needs a value`);
  };
  for (; i < words.length; i++) {
    const option = words[i]!.toUpperCase();
    if (option === 'SCHEMA') break;
    switch (option) {
      case 'EXISTSOK':
        existsOk = true;
        break;
      case 'SKIPINITIALSCAN':
        skipInitialScan = true;
        break;
      case 'ON': {
        need(1, 'ON');
        const type = words[++i]!.toLowerCase();
        if (!(DATA_TYPES as readonly string[]).includes(type)) {
          throw new SearchInputError(
            `ERR SEARCH.CREATE: unknown data type '${words[i]}' (expected HASH, JSON or STRING)`,
          );
        }
        dataType = type as SearchIndexDefinition['dataType'];
        break;
      }
      case 'PREFIX': {
        need(1, 'PREFIX');
        const count = Number(words[++i]);
        if (!Number.isInteger(count) || count < 1) {
          throw new SearchInputError(
            `ERR SEARCH.CREATE: PREFIX needs a count of at least 1, got '${words[i]}'`,
          );
        }
        need(count, `PREFIX ${count}`);
        prefixes = words.slice(i + 1, i + 1 + count);
        i += count;
        // The hosted docs: an index's prefixes may not repeat or overlap (one the start of another).
        for (const [n, a] of prefixes.entries()) {
          for (const b of prefixes.slice(n + 1)) {
            if (a.startsWith(b) || b.startsWith(a)) {
              throw new SearchInputError(
                a === b
                  ? `ERR SEARCH.CREATE: prefix '${a}' is given twice`
                  : `ERR SEARCH.CREATE: prefixes '${a}' and '${b}' overlap`,
              );
            }
          }
        }
        break;
      }
      case 'LANGUAGE': {
        need(1, 'LANGUAGE');
        language = words[++i]!.toLowerCase();
        if (!isLanguage(language)) {
          throw new SearchInputError(
            `ERR SEARCH.CREATE: unsupported language '${words[i]}' (supported: ${LANGUAGES.join(', ')})`,
          );
        }
        break;
      }
      default:
        throw new SearchInputError(`ERR SEARCH.CREATE: unknown option '${words[i]}'`);
    }
  }
  if (dataType === undefined)
    throw new SearchInputError('ERR SEARCH.CREATE: ON HASH|JSON|STRING is required');
  if (prefixes === undefined) throw new SearchInputError('ERR SEARCH.CREATE: PREFIX is required');
  if (i >= words.length) throw new SearchInputError('ERR SEARCH.CREATE: SCHEMA is required');
  const fields = parseFields(words, i + 1);
  return { definition: { name, dataType, prefixes, language, fields }, existsOk, skipInitialScan };
}

function parseFields(words: readonly string[], start: number): SearchField[] {
  const fields: SearchField[] = [];
  const seen = new Set<string>();
  let i = start;
  while (i < words.length) {
    const path = words[i]!;
    const typeWord = words[i + 1];
    if (typeWord === undefined) throw new SearchInputError(`ERR SEARCH.CREATE: field '${path}' has no type`);
    const type = typeWord.toUpperCase() as SearchFieldType;
    if (!FIELD_TYPES.includes(type)) {
      throw new SearchInputError(
        `ERR SEARCH.CREATE: field '${path}' has an unknown type '${typeWord}' (expected ${FIELD_TYPES.join(', ')})`,
      );
    }
    if (path === '' || path.startsWith('.') || path.endsWith('.') || path.includes('..')) {
      throw new SearchInputError(`ERR SEARCH.CREATE: invalid field name '${path}'`);
    }
    if (seen.has(path)) throw new SearchInputError(`ERR SEARCH.CREATE: field '${path}' is defined twice`);
    seen.add(path);
    const field: SearchField = { path, type, fast: false, noTokenize: false, noStem: false, from: undefined };
    i += 2;
    while (i < words.length && FIELD_OPTIONS.has(words[i]!.toUpperCase())) {
      const option = words[i]!.toUpperCase();
      if (option === 'FROM') {
        const source = words[i + 1];
        if (source === undefined || source === '') {
          throw new SearchInputError(`ERR SEARCH.CREATE: FROM of field '${path}' needs a source field`);
        }
        field.from = source;
        i += 2;
        continue;
      }
      if ((option === 'NOTOKENIZE' || option === 'NOSTEM') && type !== 'TEXT') {
        throw new SearchInputError(
          `ERR SEARCH.CREATE: ${option} applies to TEXT fields only (field '${path}' is ${type})`,
        );
      }
      // The hosted docs: FAST applies to U64, I64, F64, BOOL and DATE fields.
      if (option === 'FAST' && (type === 'TEXT' || type === 'KEYWORD' || type === 'FACET')) {
        throw new SearchInputError(
          `ERR SEARCH.CREATE: FAST applies to U64, I64, F64, BOOL and DATE fields only (field '${path}' is ${type})`,
        );
      }
      if (option === 'FAST') field.fast = true;
      else if (option === 'NOTOKENIZE') field.noTokenize = true;
      else field.noStem = true;
      i += 1;
    }
    fields.push(field);
  }
  if (fields.length === 0) throw new SearchInputError('ERR SEARCH.CREATE: SCHEMA needs at least one field');
  return fields;
}

const bulk = (value: string): Buffer => Buffer.from(value, 'utf8');

/**
 * SEARCH.DESCRIBE's reply: `name, type, prefixes, language, indexSize, pendingUpdates, schema` as a flat list
 * of names and values (the hosted docs' order). There is no stored index: its size is 0 bytes, and no update is
 * ever pending.
 */
export function describeReply(definition: SearchIndexDefinition): RespValue {
  return [
    bulk('name'),
    bulk(definition.name),
    bulk('type'),
    bulk(definition.dataType.toUpperCase()),
    bulk('prefixes'),
    definition.prefixes.map(bulk),
    bulk('language'),
    bulk(definition.language),
    bulk('indexSize'),
    0,
    bulk('pendingUpdates'),
    0,
    bulk('schema'),
    definition.fields.map((field) => {
      const entry = [bulk(field.path), bulk(field.type)];
      if (field.fast) entry.push(bulk('FAST'));
      if (field.noTokenize) entry.push(bulk('NOTOKENIZE'));
      if (field.noStem) entry.push(bulk('NOSTEM'));
      if (field.from !== undefined) entry.push(bulk('FROM'), bulk(field.from));
      return entry;
    }),
  ];
}
