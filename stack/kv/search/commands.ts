// SEARCH.* answered by the bridge (redis-server has no such commands): which command does what, with the
// replies the SDK decodes (`@upstash/redis` search/search.ts) and the hosted service's documented answers
// (upstash.com/docs/redis/commands/search/): CREATE 1 (with EXISTSOK 0 for an identical index), for an index
// that does not exist DESCRIBE, QUERY and AGGREGATE nil, COUNT -1, WAITINDEXING, REINDEX and DROP 0.
import type { RespArg, RespValue } from '../resp';
import { RespError } from '../resp';
import { aggregate } from './aggregate';
import type { SearchCatalog } from './catalog';
import type { ReadCommands } from './documents';
import { readDocuments, SearchReadError } from './documents';
import type { FilterNode, MatchedTerms } from './filter';
import { Corpus, evaluate, parseFilter } from './filter';
import { listIndexesReply, parseListIndexes } from './list-indexes';
import { parseQueryOptions } from './query-options';
import type { Hit } from './results';
import { hitReply, rank } from './results';
import { describeReply, parseCreate, SearchInputError, text } from './schema';
import type { SearchIndexDefinition } from './types';

/** Who asks: whether the token may change indexes, how documents are read as that token, how keys are listed. */
export interface SearchCaller {
  readOnly: boolean;
  read: ReadCommands;
  /** SCAN for the keys under an index's prefixes (as the bridge's admin user: the index's own work). */
  list: ReadCommands;
  /**
   * A token of an ACL user (ACL RESTTOKEN): why that user may not change an index over `prefixes` (it may not
   * write the keys there), or undefined when it may. Absent for the standard token, which may change any.
   */
  changeRefusal?(prefixes: readonly string[]): Promise<string | undefined>;
}

/**
 * A no-op script of the bridge's whose arguments are a SEARCH command as the client sent it: run on the
 * caller's connection before the command is answered, its MONITOR line shows as that command, named after
 * the caller (monitor-view.ts). Its text is the bridge's own, so no client's `return 0` is taken for it.
 */
export const SEARCH_IN_MONITOR_LUA =
  '-- Switchyard: a SEARCH.* command as MONITOR shows it (its arguments)\nreturn 0';

/** Whether a command is one of the emulated SEARCH.* commands (names are lower-case). */
export function isSearchCommand(name: string): boolean {
  return name.startsWith('search.');
}

/** The commands that change indexes or aliases: refused to a read-only token. */
const CHANGING = new Set([
  'search.create',
  'search.drop',
  'search.reindex',
  'search.aliasadd',
  'search.aliasdel',
]);

/** Arguments after the name: [least, most] (most undefined: no limit). */
const ARITY: Record<string, [number, number | undefined]> = {
  'search.create': [1, undefined],
  'search.drop': [1, 1],
  'search.describe': [1, 1],
  'search.query': [2, undefined],
  'search.count': [2, 2],
  'search.aggregate': [3, 3],
  'search.waitindexing': [1, 1],
  'search.reindex': [1, 1],
  'search.aliasadd': [2, 2],
  'search.aliasdel': [1, 1],
  'search.listaliases': [0, 0],
  'search.listindexes': [0, 6],
};

export class SearchCommands {
  constructor(private readonly catalog: SearchCatalog) {}

  /**
   * The reply to one SEARCH.* command. Bad input and refused reads are error replies; only a failure to reach
   * Redis at all is thrown (the request then fails as a whole with 503, as for any other command).
   */
  async answer(args: readonly RespArg[], name: string, caller: SearchCaller): Promise<RespValue> {
    try {
      return await this.dispatch(args, name, caller);
    } catch (error) {
      if (error instanceof SearchInputError || error instanceof SearchReadError)
        return new RespError(error.message);
      throw error;
    }
  }

  /**
   * The prefixes of the indexes a changing command acts on: the new index's, the dropped or re-indexed one's, the
   * index an alias is added to (and the one it pointed to before) or taken from. None for an index that does not
   * exist (the command then changes nothing).
   */
  private prefixesChanged(args: readonly RespArg[], name: string): string[] {
    const word = (i: number): string => text(args[i]);
    const indexes =
      name === 'search.create'
        ? [parseCreate(args).definition]
        : name === 'search.drop'
          ? [this.catalog.get(word(1))]
          : name === 'search.aliasadd'
            ? [this.catalog.resolve(word(2)), this.catalog.resolve(word(1))]
            : [this.catalog.resolve(word(1))];
    return indexes.flatMap((index) => index?.prefixes ?? []);
  }

  private async dispatch(args: readonly RespArg[], name: string, caller: SearchCaller): Promise<RespValue> {
    const arity = ARITY[name];
    if (!arity) return new RespError(`ERR unknown command '${name.toUpperCase()}'`);
    const count = args.length - 1;
    if (count < arity[0] || (arity[1] !== undefined && count > arity[1])) {
      return new RespError(`ERR wrong number of arguments for '${name}' command`);
    }
    if (caller.readOnly && CHANGING.has(name)) {
      return new RespError(`NOPERM this token is read-only: '${name}' changes the search indexes`);
    }
    const word = (i: number): string => text(args[i]);
    if (caller.changeRefusal && CHANGING.has(name)) {
      const refused = await caller.changeRefusal(this.prefixesChanged(args, name));
      if (refused) return new RespError(`NOPERM ${refused}: '${name}' changes the search indexes`);
    }
    switch (name) {
      case 'search.create': {
        const request = parseCreate(args);
        const existing = this.catalog.get(request.definition.name);
        if (existing) {
          // The hosted service: with EXISTSOK 0 for the same index, an error for a different one.
          if (request.existsOk && sameIndex(existing, request.definition)) return 0;
          return new RespError(`ERR Index ${request.definition.name} already exists`);
        }
        // The hosted service keeps its indexes among the keys: a name a key already has is refused.
        const [taken] = await caller.list([['EXISTS', request.definition.name]]);
        if (taken === 1) {
          return new RespError(
            `ERR SEARCH.CREATE: '${request.definition.name}' is already the name of a Redis key`,
          );
        }
        this.catalog.create(request.definition);
        return 1;
      }
      case 'search.drop':
        return this.catalog.drop(word(1)) ? 1 : 0;
      case 'search.describe': {
        const index = this.catalog.resolve(word(1));
        return index ? describeReply(index) : null;
      }
      case 'search.waitindexing':
        // Nothing to wait for: documents are read when a query runs.
        return this.catalog.resolve(word(1)) ? 1 : 0;
      case 'search.reindex':
        // Nothing to rebuild: every query reads the keys under the prefixes as they are now. An index name or alias.
        return this.catalog.resolve(word(1)) ? 1 : 0;
      case 'search.aliasadd':
        return this.catalog.addAlias(word(1), word(2));
      case 'search.aliasdel':
        return this.catalog.deleteAlias(word(1)) ? 1 : 0;
      case 'search.listaliases':
        return this.catalog.listAliases().map(([alias, index]) => [Buffer.from(alias), Buffer.from(index)]);
      case 'search.listindexes':
        return listIndexesReply(this.catalog.list(), parseListIndexes(args));
      case 'search.count': {
        const index = this.catalog.resolve(word(1));
        if (!index) return -1;
        const filter = parseFilter(word(2), index);
        return (await this.matches(index, filter, caller)).length;
      }
      case 'search.query': {
        const index = this.catalog.resolve(word(1));
        if (!index) return null;
        const filter = parseFilter(word(2), index);
        const options = parseQueryOptions(args, 3, index, 'SEARCH.QUERY');
        const hits = rank(await this.matches(index, filter, caller), options);
        return hits.map((hit) => hitReply(hit, options, index));
      }
      default: {
        // search.aggregate: the filter's matches, then the aggregations over them (aggregate.ts).
        const index = this.catalog.resolve(word(1));
        // No index: nil, as the hosted service answers (the SDK's aggregate() then fails to read it).
        if (!index) return null;
        const filter = parseFilter(word(2), index);
        const hits = await this.matches(index, filter, caller);
        try {
          return aggregate(
            index,
            word(3),
            hits.map((hit) => hit.document),
          );
        } catch (error) {
          if (error instanceof RespError) return error;
          throw error;
        }
      }
    }
  }

  /** The documents the filter matches, with their relevance scores and the terms they matched. */
  private async matches(
    index: SearchIndexDefinition,
    filter: FilterNode,
    caller: SearchCaller,
  ): Promise<Hit[]> {
    const documents = await readDocuments(index, caller.list, caller.read);
    const corpus = new Corpus(documents);
    const hits: Hit[] = [];
    for (const document of documents) {
      const matched: MatchedTerms = new Map();
      const score = evaluate(filter, document, corpus, matched);
      if (score !== undefined) hits.push({ document, score, matched });
    }
    return hits;
  }
}

/** Whether two definitions index the same keys the same way: data type, prefixes, language and schema. */
function sameIndex(a: SearchIndexDefinition, b: SearchIndexDefinition): boolean {
  const shape = (d: SearchIndexDefinition): string =>
    JSON.stringify([
      d.dataType,
      [...d.prefixes].sort(),
      d.language,
      d.fields
        .map((f) => [f.path, f.type, f.fast, f.noTokenize, f.noStem, f.from ?? null])
        .sort((x, y) => (x[0]! < y[0]! ? -1 : 1)),
    ]);
  return shape(a) === shape(b);
}
