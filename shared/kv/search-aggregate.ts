// Redis Search's aggregations (SEARCH.AGGREGATE index filter aggregations) as the console writes and reads
// them: the aggregations object's grammar (`{"<name>": {"$op": {field, …options}, "$aggs"?: {…}}}`, the
// operators of the vendor's docs), checked while it is typed and again by main before anything is sent; an
// example to start from, picked from the schema; and the result as main reads it from the reply (flat
// key/value arrays), kept in the service's order. Whether a field exists and suits the operator is the
// service's to say: its own words are shown. Pure data and functions; no Node, no DOM.
import { atPath, describeJson, isJsonObject, readJsonObject, type KvSearchField } from './search';

/** The operators that compute one result (a value, or a few named values) over the matching documents. */
export const SEARCH_METRIC_OPERATORS = [
  '$avg',
  '$sum',
  '$min',
  '$max',
  '$count',
  '$cardinality',
  '$stats',
  '$extendedStats',
  '$percentiles',
] as const;
/** The operators that sort documents into buckets; all but $facet may nest more aggregations in `$aggs`. */
export const SEARCH_BUCKET_OPERATORS = [
  '$terms',
  '$range',
  '$histogram',
  '$dateHistogram',
  '$facet',
] as const;

/** The longest aggregations text main sends, and how deep `$aggs` may nest. */
export const SEARCH_AGGREGATIONS_MAX = 16 * 1024;
export const SEARCH_AGGREGATIONS_DEPTH_MAX = 8;
/** The most aggregations one level may name. */
export const SEARCH_AGGREGATIONS_COUNT_MAX = 32;

export type SearchAggregations = { [name: string]: unknown };
export type SearchAggregationsCheck =
  { ok: true; aggregations: SearchAggregations } | { ok: false; error: string };

const METRIC = new Set<string>(SEARCH_METRIC_OPERATORS);
const BUCKET = new Set<string>(SEARCH_BUCKET_OPERATORS);
const ALL = [...SEARCH_METRIC_OPERATORS, ...SEARCH_BUCKET_OPERATORS].join(', ');

/** Reads the aggregations' JSON text and checks it against their grammar; the error says where and what. */
export function checkSearchAggregations(text: string): SearchAggregationsCheck {
  if (!text.trim())
    return {
      ok: false,
      error: 'Write aggregations: a JSON object such as {"by_category": {"$terms": {"field": "category"}}}.',
    };
  const read = readJsonObject(text, SEARCH_AGGREGATIONS_MAX, 'Aggregations are');
  if (!read.ok) return read;
  const parsed = read.value;
  const problem = levelProblem(parsed, '', 0);
  return problem ? { ok: false, error: problem } : { ok: true, aggregations: parsed };
}

function levelProblem(level: SearchAggregations, path: string, depth: number): string | undefined {
  if (depth > SEARCH_AGGREGATIONS_DEPTH_MAX)
    return `Aggregations nest deeper than ${SEARCH_AGGREGATIONS_DEPTH_MAX} levels${atPath(path)}.`;
  const names = Object.keys(level);
  if (names.length === 0)
    return `Name at least one aggregation${atPath(path)}: {"name": {"$avg": {"field": …}}}.`;
  if (names.length > SEARCH_AGGREGATIONS_COUNT_MAX)
    return `At most ${SEARCH_AGGREGATIONS_COUNT_MAX} aggregations side by side${atPath(path)}.`;
  for (const name of names) {
    const here = path ? `${path}.${name}` : name;
    if (!name.trim()) return `An aggregation needs a name${atPath(path)}.`;
    if (name.startsWith('$'))
      return `"${name}" is where an aggregation's name belongs${atPath(path)}: {"name": {"${name}": {"field": …}}}.`;
    const spec: unknown = level[name];
    if (!isJsonObject(spec))
      return `Aggregation "${name}" is an object such as {"$avg": {"field": …}}, not ${describeJson(spec)}${atPath(here)}.`;
    const keys = Object.keys(spec);
    const operators = keys.filter((key) => key !== '$aggs');
    const unknown = operators.find((key) => !METRIC.has(key) && !BUCKET.has(key));
    if (unknown !== undefined)
      return unknown.startsWith('$')
        ? `Unknown operator ${unknown}${atPath(here)}: use one of ${ALL}.`
        : `Aggregation "${name}" has "${unknown}" where an operator ($avg, $terms, …) belongs${atPath(here)}.`;
    if (operators.length !== 1)
      return `Aggregation "${name}" needs exactly one operator (${operators.length === 0 ? 'none' : operators.join(', ')} given)${atPath(here)}.`;
    const operator = operators[0]!;
    const options: unknown = spec[operator];
    if (!isJsonObject(options))
      return `${operator} takes an object of options such as {"field": "price"}, not ${describeJson(options)}${atPath(`${here}.${operator}`)}.`;
    if (typeof options.field !== 'string' || !options.field)
      return `${operator} needs a "field" (a field name of the index)${atPath(`${here}.${operator}`)}.`;
    if ('$aggs' in spec) {
      if (!BUCKET.has(operator) || operator === '$facet')
        return `Only $terms, $range, $histogram and $dateHistogram take nested $aggs${atPath(here)}.`;
      const nested: unknown = spec.$aggs;
      if (!isJsonObject(nested)) return `$aggs is an object of aggregations${atPath(`${here}.$aggs`)}.`;
      const problem = levelProblem(nested, `${here}.$aggs`, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The field names aggregations name (in order, once each): the tab warns about those the schema lacks. */
export function aggregationFieldNames(aggregations: SearchAggregations): string[] {
  const names = new Set<string>();
  const walk = (level: SearchAggregations) => {
    for (const spec of Object.values(level)) {
      if (!isJsonObject(spec)) continue;
      for (const [key, value] of Object.entries(spec)) {
        if (key === '$aggs' && isJsonObject(value)) walk(value);
        else if (isJsonObject(value) && typeof value.field === 'string') names.add(value.field);
      }
    }
  };
  walk(aggregations);
  return [...names];
}

/**
 * An example to start from: `$terms` on the first KEYWORD field, with the average of the first numeric FAST
 * field nested when there is one; else `$facet` on the first FACET field; else `$stats` on the first FAST
 * numeric, date or boolean field (the service aggregates those only when FAST); else a count of the first
 * field (which the service may refuse, in its own words).
 */
export function exampleAggregations(fields: readonly KvSearchField[]): string {
  const numeric = (f: KvSearchField) => f.type === 'U64' || f.type === 'I64' || f.type === 'F64';
  const number = fields.find((f) => numeric(f) && f.fast);
  const statable = number ?? fields.find((f) => (f.type === 'DATE' || f.type === 'BOOL') && f.fast);
  const keyword = fields.find((f) => f.type === 'KEYWORD');
  const facet = fields.find((f) => f.type === 'FACET');
  let example: SearchAggregations;
  if (keyword) {
    example = {
      [`by_${simple(keyword.name)}`]: {
        $terms: { field: keyword.name, size: 10 },
        ...(number ? { $aggs: { [`avg_${simple(number.name)}`]: { $avg: { field: number.name } } } } : {}),
      },
    };
  } else if (facet) {
    example = { [`by_${simple(facet.name)}`]: { $facet: { field: facet.name, path: '/' } } };
  } else if (statable) {
    example = { [`${simple(statable.name)}_stats`]: { $stats: { field: statable.name } } };
  } else if (fields[0]) {
    example = { [`${simple(fields[0].name)}_count`]: { $count: { field: fields[0].name } } };
  } else {
    return '{}';
  }
  return JSON.stringify(example, null, 2);
}

function simple(name: string): string {
  return name.replace(/[^A-Za-z0-9]+/g, '_');
}

// ---- The result ----

/**
 * A part of an aggregation's result, in the service's order: a JSON object as its entries (a plain object
 * would move keys such as "25" first), a list, or one value. Numbers the reply carries as text are numbers.
 */
export type KvAggregateNode =
  | { kind: 'object'; entries: [string, KvAggregateNode][] }
  | { kind: 'list'; items: KvAggregateNode[] }
  | { kind: 'value'; value: string | number | null };

/** SEARCH.AGGREGATE's result: each aggregation by its name, in the order they were given. */
export interface KvAggregateResult {
  aggregations: [string, KvAggregateNode][];
}

/** A node as plain JSON (for the formatted view of a shape no table fits). */
export function aggregateJson(node: KvAggregateNode): unknown {
  switch (node.kind) {
    case 'value':
      return node.value;
    case 'list':
      return node.items.map(aggregateJson);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of node.entries) out[key] = aggregateJson(value);
      return out;
    }
  }
}

/** How an aggregation's result reads best. */
export type AggregateView =
  /** A metric: named values (`value`; count, min, max … of $stats; percentiles by percent). */
  | { kind: 'metrics'; rows: [string, string | number | null][] }
  /** Buckets: each with its key, docCount and named values (nested aggregations' values). */
  | {
      kind: 'buckets';
      columns: string[];
      buckets: { key: string; docCount: number | null; values: Map<string, string> }[];
      /** What the result says besides its buckets (sumOtherDocCount …). */
      extras: [string, string][];
    }
  | { kind: 'json'; text: string };

/** A result read as metrics, buckets, or (any other shape) formatted JSON. */
export function aggregateView(node: KvAggregateNode): AggregateView {
  const buckets = node.kind === 'object' ? bucketsView(node) : undefined;
  if (buckets) return buckets;
  // Percentiles answer `{values: {…}}`: their rows are named by percent alone.
  const values = node.kind === 'object' && node.entries.length === 1 && node.entries[0]![0] === 'values';
  const rows = metricRows(values ? node.entries[0]![1] : node, '');
  if (rows && rows.length > 0) return { kind: 'metrics', rows };
  return { kind: 'json', text: JSON.stringify(aggregateJson(node), null, 2) };
}

function bucketsView(node: Extract<KvAggregateNode, { kind: 'object' }>): AggregateView | undefined {
  const list = node.entries.find(([key]) => key === 'buckets')?.[1];
  if (!list) return undefined;
  // A keyed $range or $histogram answers its buckets as an object by key.
  const items: [string | undefined, KvAggregateNode][] =
    list.kind === 'list'
      ? list.items.map((item) => [undefined, item])
      : list.kind === 'object'
        ? list.entries
        : [];
  if (list.kind === 'value') return undefined;
  const columns: string[] = [];
  const buckets: Extract<AggregateView, { kind: 'buckets' }>['buckets'] = [];
  for (const [keyed, item] of items) {
    if (item.kind !== 'object') return undefined;
    const entry = new Map(item.entries);
    const keyNode = entry.get('keyAsString') ?? entry.get('key');
    const key = keyed ?? (keyNode ? compact(keyNode) : '');
    const count = entry.get('docCount');
    const values = new Map<string, string>();
    for (const [name, value] of item.entries) {
      if (['key', 'keyAsString', 'docCount'].includes(name)) continue;
      // A nested metric ({value: n}) reads as its value.
      const only = value.kind === 'object' && value.entries.length === 1 ? value.entries[0]! : undefined;
      values.set(name, only && only[0] === 'value' ? compact(only[1]) : compact(value));
      if (!columns.includes(name)) columns.push(name);
    }
    buckets.push({
      key,
      docCount: count?.kind === 'value' && typeof count.value === 'number' ? count.value : null,
      values,
    });
  }
  const extras = node.entries
    .filter(([key]) => key !== 'buckets')
    .map(([key, value]): [string, string] => [key, compact(value)]);
  return { kind: 'buckets', columns, buckets, extras };
}

/** Named scalar values, nested objects' names dotted (a percentiles list of {key, value} by its keys). */
function metricRows(node: KvAggregateNode, prefix: string): [string, string | number | null][] | undefined {
  if (node.kind === 'value') return [[prefix || 'value', node.value]];
  if (node.kind === 'list') {
    const rows: [string, string | number | null][] = [];
    for (const item of node.items) {
      if (item.kind !== 'object') return undefined;
      const entry = new Map(item.entries);
      const key = entry.get('key');
      const value = entry.get('value');
      if (item.entries.length !== 2 || key?.kind !== 'value' || value?.kind !== 'value') return undefined;
      rows.push([prefix ? `${prefix}.${String(key.value)}` : String(key.value), value.value]);
    }
    return rows;
  }
  const rows: [string, string | number | null][] = [];
  for (const [key, value] of node.entries) {
    const nested = metricRows(value, prefix ? `${prefix}.${key}` : key);
    if (!nested) return undefined;
    rows.push(...nested);
  }
  return rows;
}

function compact(node: KvAggregateNode): string {
  if (node.kind === 'value') return node.value === null ? '' : String(node.value);
  return JSON.stringify(aggregateJson(node));
}
