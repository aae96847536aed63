// SEARCH.LISTINDEXES [MATCH pattern] [LIMIT count] [OFFSET offset]: the indexes by name, each as the map
// `name`, `type` (HASH, JSON or STRING) — over REST and RESP2 an array of alternating keys and values. MATCH is
// a Redis glob (the rules of KEYS and SCAN MATCH); LIMIT 0, the default, answers every index.
import { globToRegExp } from '../../../shared/kv/monitor';
import type { RespArg, RespValue } from '../resp';
import { SearchInputError, text } from './schema';
import type { SearchIndexDefinition } from './types';

export interface ListIndexesOptions {
  /** undefined: every name. */
  match: RegExp | undefined;
  /** 0: no limit. */
  limit: number;
  offset: number;
}

/** Reads the options after the command name (`args[1]` on). */
export function parseListIndexes(args: readonly RespArg[]): ListIndexesOptions {
  const words = args.map(text);
  const options: ListIndexesOptions = { match: undefined, limit: 0, offset: 0 };
  for (let i = 1; i < words.length; i++) {
    const option = words[i]!.toUpperCase();
    const value = words[++i];
    if (option !== 'MATCH' && option !== 'LIMIT' && option !== 'OFFSET') {
      throw new SearchInputError(
        `ERR SEARCH.LISTINDEXES: unknown option '${words[i - 1]}' (MATCH, LIMIT or OFFSET)`,
      );
    }
    if (value === undefined) throw new SearchInputError(`ERR SEARCH.LISTINDEXES: ${option} needs a value`);
    if (option === 'MATCH') {
      // An empty pattern matches only an empty name, as in Redis: no index has one.
      options.match = globToRegExp(value) ?? /^$/;
      continue;
    }
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) {
      throw new SearchInputError(
        `ERR SEARCH.LISTINDEXES: ${option} must be a whole number of at least 0, got '${value}'`,
      );
    }
    if (option === 'LIMIT') options.limit = n;
    else options.offset = n;
  }
  return options;
}

/** The reply: the matching indexes sorted by name (code units), the page OFFSET/LIMIT asks for. */
export function listIndexesReply(
  indexes: readonly SearchIndexDefinition[],
  options: ListIndexesOptions,
): RespValue {
  const names = indexes
    .filter((index) => options.match === undefined || options.match.test(index.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const end = options.limit === 0 ? undefined : options.offset + options.limit;
  return names
    .slice(options.offset, end)
    .map((index) => [
      Buffer.from('name'),
      Buffer.from(index.name),
      Buffer.from('type'),
      Buffer.from(index.dataType.toUpperCase()),
    ]);
}
