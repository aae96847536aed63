// The WHERE clause of the filtered queries over messages (logs, DLQ, bulk cancel). Multi-value filters OR
// within a field and AND across fields; dates are inclusive unix ms.
import type { DlqFilters, LogFilters } from '../../shared/messages/types';
import type { Params } from './statements';

/** One type for every query: `state` applies to the logs only, `dlqIds` and `responseStatus` to the DLQ only. */
export interface StoreFilters extends LogFilters, DlqFilters {
  /** Messages to a named API (`llm`), any of. */
  api?: string[];
}

/** The multi-value filters and the column each one matches (`label` is matched inside a JSON array). */
const LIST_COLUMNS = [
  ['messageIds', 'm.id'],
  ['url', 'm.url'],
  ['topicName', 'm.topic_name'],
  ['queueName', 'm.queue_name'],
  ['scheduleId', 'm.schedule_id'],
  ['flowControlKey', 'm.flow_key'],
  ['callerIp', 'm.caller_ip'],
  ['host', 'm.host'],
  ['path', 'm.path'],
  ['state', 'e.state'],
  ['dlqIds', 'd.dlq_id'],
  ['responseStatus', 'd.response_status'],
] as const satisfies readonly (readonly [keyof StoreFilters, string])[];

/** Clauses over `messages m` (and `events e` / `dlq d` when joined); fills `params` with their values. */
export function whereClause(filters: StoreFilters, dateColumn: string, params: Params): string[] {
  const clauses: string[] = [];
  let n = 0;
  const placeholders = (values: readonly (string | number)[]): string =>
    values
      .map((value) => {
        const name = `p${n++}`;
        params[name] = value;
        return `@${name}`;
      })
      .join(', ');
  const list = (column: string, values: readonly (string | number)[] | undefined): void => {
    if (!values || values.length === 0) return;
    clauses.push(`${column} IN (${placeholders(values)})`);
  };
  for (const [field, column] of LIST_COLUMNS) list(column, filters[field]);
  if (filters.api && filters.api.length > 0) {
    clauses.push(`json_extract(m.spec, '$.api') IN (${placeholders(filters.api)})`);
  }
  if (filters.label && filters.label.length > 0) {
    clauses.push(
      `m.labels IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(m.labels) WHERE value IN (${placeholders(filters.label)}))`,
    );
  }
  if (filters.fromDate !== undefined) {
    params.fromDate = filters.fromDate;
    clauses.push(`${dateColumn} >= @fromDate`);
  }
  if (filters.toDate !== undefined) {
    params.toDate = filters.toDate;
    clauses.push(`${dateColumn} <= @toDate`);
  }
  return clauses;
}

/**
 * One page of a filtered list, newest first (the logs, the DLQ): `before` is the previous page's cursor, and
 * the page ends early once its rows come to about `maxBytes` of JSON (stack/store/paging.ts).
 */
export interface PageQuery {
  filters: StoreFilters;
  before: number | undefined;
  count: number;
  maxBytes?: number;
}

/** The page's clauses: its filters, and only rows below the cursor in `cursorColumn` (the list's order). */
export function pageClauses(
  query: PageQuery,
  dateColumn: string,
  cursorColumn: string,
  params: Params,
): string[] {
  const clauses = whereClause(query.filters, dateColumn, params);
  if (query.before !== undefined) {
    params.before = query.before;
    clauses.push(`${cursorColumn} < @before`);
  }
  return clauses;
}
