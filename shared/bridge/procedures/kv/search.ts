// The KV Search tab (Redis Search, the SEARCH.* commands): an index's definition, the names to pick one from,
// and queries with their count, paged by OFFSET. Every procedure only reads: main builds each SEARCH command
// from these inputs (the page never sends a command), and checks the names, limits and the filter's JSON here
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
import { call } from '../../define';
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

export interface KvSearchNames {
  /** Every alias and the index it points at (SEARCH.LISTALIASES), by alias. */
  aliases: { alias: string; index: string }[];
  /** Indexes opened on this profile before (kept by main, newest first): the service cannot list indexes. */
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

// Strict: an input with a key these procedures do not know is refused, not dropped.
export const kvSearchQueryInput = z
  .strictObject({
    profileId,
    index,
    filter,
    limit: z
      .number()
      .int('a limit is a whole number')
      .min(1, 'a limit is at least 1')
      .max(SEARCH_LIMIT_MAX, `a limit is at most ${SEARCH_LIMIT_MAX}`)
      .default(SEARCH_LIMIT_DEFAULT),
    orderBy: z.strictObject({ field, direction: z.enum(['asc', 'desc']) }).optional(),
    /** Only these fields of each document (SELECT); every field when absent. */
    select: z.array(field).min(1).max(SEARCH_SELECT_MAX, `at most ${SEARCH_SELECT_MAX} fields`).optional(),
    /** Keys and scores only (NOCONTENT). */
    keysOnly: z.boolean().default(false),
    /** The OFFSET to start at: a page's `cursor`; the first page when absent. */
    cursor: z
      .string()
      .regex(/^\d{1,7}$/, 'a cursor is an offset')
      .refine((text) => Number(text) <= SEARCH_OFFSET_MAX, `an offset is at most ${SEARCH_OFFSET_MAX}`)
      .optional(),
  })
  .refine((input) => !(input.keysOnly && input.select), {
    message: 'keys only returns no fields: choose fields or keys only',
    path: ['select'],
  });

export const kvSearchProcedures = {
  /** An index's definition; one that exists joins the profile's recent indexes. */
  'kv.search.describe': call<KvSearchDescribeResult>()(z.strictObject({ profileId, index }), 'read'),
  /** The names to suggest: the service's aliases and the indexes opened before on this profile. */
  'kv.search.names': call<KvSearchNames>()(z.strictObject({ profileId }), 'read'),
  /** One page of a query (SEARCH.QUERY), with the count (SEARCH.COUNT) on the first. */
  'kv.search.query': call<KvSearchPage>()(kvSearchQueryInput, 'read'),
};
