// The KV Search tab (Redis Search, the SEARCH.* commands): an index's definition, the names to pick one from,
// queries with their count, paged by OFFSET, and aggregations. Every procedure only reads: main builds each SEARCH command
// from these inputs (the page never sends a command), and checks the names, limits, the filter's and the aggregations' JSON here
// before anything is sent.
import { z } from 'zod';
import {
  checkSearchFilter,
  type KvSearchIndex,
  type KvSearchRow,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SEARCH_OFFSET_MAX,
  SEARCH_SELECT_MAX,
  searchNameProblem,
} from '../../../kv/search';
import { checkSearchAggregations, type KvAggregateResult } from '../../../kv/search-aggregate';
import { call } from '../../define';
import { suggestedFileNameSchema } from '../app';
import { profileIdSchema as profileId } from '../../profile-id';

const name = (what: string) =>
  z.string().superRefine((text, ctx) => {
    const problem = searchNameProblem(text, what);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
const index = name('an index name');
const field = name('a field name');

/** The filter's JSON text, read with the filter grammar (shared/kv/search.ts); main sends it re-serialised. */
const filter = z.string().superRefine((text, ctx) => {
  const check = checkSearchFilter(text);
  if (!check.ok) ctx.addIssue({ code: 'custom', message: check.error });
});

export type KvSearchDescribeResult =
  | { exists: true; index: KvSearchIndex }
  /** No index (or alias) has this name. */
  | { exists: false; name: string };

/** The aggregations' JSON text, read with their grammar (shared/kv/search-aggregate.ts). */
const aggregations = z.string().superRefine((text, ctx) => {
  const check = checkSearchAggregations(text);
  if (!check.ok) ctx.addIssue({ code: 'custom', message: check.error });
});

/** One index of the database (SEARCH.LISTINDEXES). */
export interface KvSearchIndexEntry {
  name: string;
  /** HASH, JSON or STRING, as the service spells it. */
  dataType: string;
}

/** The most indexes the picker lists (SEARCH.LISTINDEXES … LIMIT); more are said to exist, not listed. */
export const SEARCH_INDEX_LIST_MAX = 500;

export interface KvSearchNames {
  /** Every alias and the index it points at (SEARCH.LISTALIASES), by alias. */
  aliases: { alias: string; index: string }[];
  /**
   * The database's indexes, by name (SEARCH.LISTINDEXES, at most SEARCH_INDEX_LIST_MAX); absent when the
   * service refused the command (`indexesError`), and the recent ones are the fallback.
   */
  indexes?: KvSearchIndexEntry[];
  /** The list stopped at SEARCH_INDEX_LIST_MAX: there may be more. */
  indexesTruncated?: boolean;
  /** The service's refusal of SEARCH.LISTINDEXES (a service or version without it), when it refused. */
  indexesError?: string;
  /** Indexes opened on this profile before (kept by main, newest first). */
  recent: string[];
  /** The service's refusal of SEARCH.LISTALIASES (a service without search), when it refused. */
  aliasesError?: string;
}

export interface KvSearchPage {
  rows: KvSearchRow[];
  /** The OFFSET of the next page, when this page was full (`cursor` of the next call). */
  cursor?: string;
  /** How many documents match in all (SEARCH.COUNT), asked with the first page only. */
  count?: number;
}

/** What a query asks, its page aside: shared by a page of it and its export. */
const queryShape = {
  profileId,
  index,
  filter,
  orderBy: z.strictObject({ field, direction: z.enum(['asc', 'desc']) }).optional(),
  /** Only these fields of each document (SELECT); every field when absent. */
  select: z.array(field).min(1).max(SEARCH_SELECT_MAX, `at most ${SEARCH_SELECT_MAX} fields`).optional(),
  /** Keys and scores only (NOCONTENT). */
  keysOnly: z.boolean().default(false),
};
const keysOnlyWithoutSelect = {
  check: (input: { keysOnly: boolean; select?: string[] }) => !(input.keysOnly && input.select),
  message: 'keys only returns no fields: choose fields or keys only',
  path: ['select'],
};

// Strict: an input with a key these procedures do not know is refused, not dropped.
export const kvSearchQueryInput = z
  .strictObject({
    ...queryShape,
    limit: z
      .number()
      .int('a limit is a whole number')
      .min(1, 'a limit is at least 1')
      .max(SEARCH_LIMIT_MAX, `a limit is at most ${SEARCH_LIMIT_MAX}`)
      .default(SEARCH_LIMIT_DEFAULT),
    /** The OFFSET to start at: a page's `cursor`; the first page when absent. */
    cursor: z
      .string()
      .regex(/^\d{1,7}$/, 'a cursor is an offset')
      .refine((text) => Number(text) <= SEARCH_OFFSET_MAX, `an offset is at most ${SEARCH_OFFSET_MAX}`)
      .optional(),
  })
  .refine(keysOnlyWithoutSelect.check, {
    message: keysOnlyWithoutSelect.message,
    path: keysOnlyWithoutSelect.path,
  });

/** A query's export: the same query, every page main can ask for, as JSON or CSV. */
export const kvSearchExportInput = z
  .strictObject({
    ...queryShape,
    format: z.enum(['json', 'csv']),
    suggestedName: suggestedFileNameSchema.optional(),
  })
  .refine(keysOnlyWithoutSelect.check, {
    message: keysOnlyWithoutSelect.message,
    path: keysOnlyWithoutSelect.path,
  });

export type KvSearchExportResult =
  | {
      /** The file written. */
      path: string;
      /** Documents written (each key once). */
      documents: number;
      /** How many matched (SEARCH.COUNT) when main asked. */
      count: number;
      /** More matched than the service lets main page to (SEARCH_EXPORT_MAX): the first ones were written. */
      capped: boolean;
      bytes: number;
    }
  | { canceled: true };

export type KvSearchAggregateExportResult = { path: string; bytes: number } | { canceled: true };

export const kvSearchProcedures = {
  /** An index's definition; one that exists joins the profile's recent indexes. */
  'kv.search.describe': call<KvSearchDescribeResult>()(z.strictObject({ profileId, index }), 'read'),
  /** The names to pick from: the database's indexes, its aliases, and the indexes opened before here. */
  'kv.search.names': call<KvSearchNames>()(z.strictObject({ profileId }), 'read'),
  /** The aggregations over the documents a filter matches (SEARCH.AGGREGATE). */
  'kv.search.aggregate': call<KvAggregateResult>()(
    z.strictObject({ profileId, index, filter, aggregations }),
    'read',
  ),
  /** One page of a query (SEARCH.QUERY), with the count (SEARCH.COUNT) on the first. */
  'kv.search.query': call<KvSearchPage>()(kvSearchQueryInput, 'read'),
  /**
   * Runs the query again in main and writes every matching document it can page to (at most
   * SEARCH_EXPORT_MAX) to a new file in the place main picks (app.info's `fileSaving`); the page may
   * suggest a file name, never a path.
   */
  'kv.search.export': call<KvSearchExportResult>()(kvSearchExportInput, 'read'),
  /** Runs the aggregations again in main and writes their result as JSON, as the export above. */
  'kv.search.aggregate.export': call<KvSearchAggregateExportResult>()(
    z.strictObject({
      profileId,
      index,
      filter,
      aggregations,
      suggestedName: suggestedFileNameSchema.optional(),
    }),
    'read',
  ),
};
