// The Search tab's query form as data: what the user typed, checked (the filter with the grammar main uses,
// the limit, the fields), turned into the `kv.search.query` input; and the columns of the result table.
import type { InputOf } from '../../../../../shared/bridge/procedures';
import {
  aggregationFieldNames,
  checkSearchAggregations,
  exampleAggregations,
} from '../../../../../shared/kv/search-aggregate';
import {
  checkSearchFilter,
  exampleFilter,
  filterFieldNames,
  type KvSearchIndex,
  type KvSearchRow,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
} from '../../../../../shared/kv/search';

export type ReturnMode = 'all' | 'chosen' | 'keys';
/** Query: the matching documents; Aggregate: the aggregations over them. */
export type PanelMode = 'query' | 'aggregate';

export interface QueryDraft {
  mode: PanelMode;
  filter: string;
  /** The aggregations' JSON (Aggregate mode). */
  aggregations: string;
  limit: string;
  /** '' for the service's order (by score). */
  orderBy: string;
  direction: 'asc' | 'desc';
  returns: ReturnMode;
  /** The fields to SELECT when `returns` is 'chosen'. */
  chosen: string[];
}

export function initialDraft(index: KvSearchIndex): QueryDraft {
  return {
    mode: 'query',
    filter: exampleFilter(index.fields),
    aggregations: exampleAggregations(index.fields),
    limit: String(SEARCH_LIMIT_DEFAULT),
    orderBy: '',
    direction: 'asc',
    returns: 'all',
    chosen: [],
  };
}

export type QueryInput = Omit<InputOf<'kv.search.query'>, 'cursor'>;

export interface DraftCheck {
  /** The input to run, when nothing is wrong. */
  input?: QueryInput;
  errors: { filter?: string; limit?: string; chosen?: string };
  /** Names the filter uses that the schema lacks: the service will refuse them, but it may know better. */
  unknownFields: string[];
}

export function checkDraft(
  profileId: string,
  index: string,
  definition: KvSearchIndex,
  draft: QueryDraft,
): DraftCheck {
  const errors: DraftCheck['errors'] = {};
  const filter = checkSearchFilter(draft.filter);
  if (!filter.ok) errors.filter = filter.error;
  const known = new Set(definition.fields.map((field) => field.name));
  const unknownFields = filter.ok ? filterFieldNames(filter.filter).filter((name) => !known.has(name)) : [];
  const limit = Number(draft.limit.trim());
  if (!/^\d+$/.test(draft.limit.trim()) || limit < 1 || limit > SEARCH_LIMIT_MAX)
    errors.limit = `A whole number from 1 to ${SEARCH_LIMIT_MAX}.`;
  if (draft.returns === 'chosen' && draft.chosen.length === 0) errors.chosen = 'Choose at least one field.';
  if (errors.filter || errors.limit || errors.chosen) return { errors, unknownFields };
  return {
    errors,
    unknownFields,
    input: {
      profileId,
      index,
      filter: draft.filter,
      limit,
      ...(draft.orderBy ? { orderBy: { field: draft.orderBy, direction: draft.direction } } : {}),
      ...(draft.returns === 'chosen' ? { select: draft.chosen } : {}),
      keysOnly: draft.returns === 'keys',
    },
  };
}

export type AggregateInput = InputOf<'kv.search.aggregate'>;

export interface AggregateCheck {
  input?: AggregateInput;
  errors: { filter?: string; aggregations?: string };
  /** Names the filter or the aggregations use that the schema lacks. */
  unknownFields: string[];
}

/** Aggregate mode: the filter and the aggregations checked with the grammars main checks them with. */
export function checkAggregateDraft(
  profileId: string,
  index: string,
  definition: KvSearchIndex,
  draft: QueryDraft,
): AggregateCheck {
  const errors: AggregateCheck['errors'] = {};
  const filter = checkSearchFilter(draft.filter);
  if (!filter.ok) errors.filter = filter.error;
  const aggregations = checkSearchAggregations(draft.aggregations);
  if (!aggregations.ok) errors.aggregations = aggregations.error;
  const known = new Set(definition.fields.map((field) => field.name));
  const named = [
    ...(filter.ok ? filterFieldNames(filter.filter) : []),
    ...(aggregations.ok ? aggregationFieldNames(aggregations.aggregations) : []),
  ];
  const unknownFields = [...new Set(named)].filter((name) => !known.has(name));
  if (errors.filter || errors.aggregations) return { errors, unknownFields };
  return {
    errors,
    unknownFields,
    input: { profileId, index, filter: draft.filter, aggregations: draft.aggregations },
  };
}

/** The result table's field columns: the schema's fields that rows carry, in schema order, then any others. */
export function resultColumns(definition: KvSearchIndex, rows: readonly KvSearchRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const [name] of row.fields) seen.add(name);
  const ordered = definition.fields.map((field) => field.name).filter((name) => seen.has(name));
  const others = [...seen].filter((name) => !ordered.includes(name));
  return [...ordered, ...others];
}

/**
 * A score to four significant digits (BM25 scores carry many more than tell documents apart), never fewer
 * than its whole digits. Ordered by a field, the service answers that field's value in the score's place:
 * shown as it is, since it is the user's data, not a relevance to round.
 */
export function formatScore(score: number, orderedBy?: string): string {
  if (orderedBy !== undefined || Number.isInteger(score)) return String(score);
  const wholeDigits = Math.floor(Math.log10(Math.abs(score))) + 1;
  return String(Number(score.toPrecision(Math.max(4, wholeDigits))));
}
