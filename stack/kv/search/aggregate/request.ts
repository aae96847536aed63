// SEARCH.AGGREGATE's aggregation object read and checked against the index before anything is computed, so
// bad input is refused whole (no partial reply). Names and options are the hosted service's (Upstash docs,
// "Aggregation operators"; the SDK's `AggregateOptions` in search/types.ts); an aggregation is
// `{ "<alias>": { "$op": { field, …options }, "$aggs"?: { … } } }`.
import { RespError } from '../../resp';
import type { SearchField, SearchFieldType, SearchIndexDefinition, SearchValue } from '../types';

export type MetricOperator = '$avg' | '$sum' | '$min' | '$max' | '$count' | '$stats';

export type AggregationRequest =
  | MetricRequest
  | CardinalityRequest
  | ExtendedStatsRequest
  | PercentilesRequest
  | TermsRequest
  | RangeRequest
  | HistogramRequest
  | FacetRequest;

interface FieldRequest {
  /** The alias the result is reported under. */
  name: string;
  field: SearchField;
}

export interface MetricRequest extends FieldRequest {
  kind: 'metric';
  operator: MetricOperator;
  /** The value a document without the field contributes; without it such documents are left out. */
  missing: number | undefined;
}

export interface CardinalityRequest extends FieldRequest {
  kind: 'cardinality';
  missing: SearchValue | undefined;
}

export interface ExtendedStatsRequest extends FieldRequest {
  kind: 'extendedStats';
  sigma: number;
  missing: number | undefined;
}

export interface PercentilesRequest extends FieldRequest {
  kind: 'percentiles';
  percents: number[];
  keyed: boolean;
  missing: number | undefined;
}

/** What a terms aggregation's buckets are ordered by: their count, their key, or a sub-aggregation's value. */
export type TermsOrder =
  | { by: 'count' | 'key'; descending: boolean }
  | { by: 'subAggregation'; name: string; property: string | undefined; descending: boolean };

/** Which terms `include` / `exclude` name: a regular expression over the whole term, or a list of values. */
export type TermsFilter = { regex: RegExp } | { values: SearchValue[] };

export interface TermsRequest extends FieldRequest {
  kind: 'terms';
  size: number;
  /** How many terms Tantivy keeps per segment before merging; sets `docCountErrorUpperBound`. */
  segmentSize: number;
  showTermDocCountError: boolean;
  minDocCount: number;
  order: TermsOrder;
  missing: SearchValue | undefined;
  include: TermsFilter | undefined;
  exclude: TermsFilter | undefined;
  aggs: AggregationRequest[];
}

export interface RangeSpec {
  key: string | undefined;
  from: number | undefined;
  to: number | undefined;
}

export interface RangeRequest extends FieldRequest {
  kind: 'range';
  ranges: RangeSpec[];
  keyed: boolean;
  aggs: AggregationRequest[];
}

export interface Bounds {
  min: number;
  max: number;
}

/** `$histogram`, and `$dateHistogram` read into the same shape (its intervals in milliseconds). */
export interface HistogramRequest extends FieldRequest {
  kind: 'histogram';
  interval: number;
  offset: number;
  minDocCount: number;
  hardBounds: Bounds | undefined;
  extendedBounds: Bounds | undefined;
  keyed: boolean;
  aggs: AggregationRequest[];
}

export interface FacetRequest extends FieldRequest {
  kind: 'facet';
  path: string;
  depth: number;
  size: number;
  minDocCount: number;
  order: { by: 'count' | 'path'; descending: boolean };
}

const NUMERIC: readonly SearchFieldType[] = ['U64', 'I64', 'F64'];
/** Which field types each operator reads (the hosted docs' "Compatibility" tables). */
const FIELD_TYPES: Record<string, readonly SearchFieldType[]> = {
  $avg: [...NUMERIC, 'DATE', 'BOOL'],
  $sum: [...NUMERIC, 'DATE', 'BOOL'],
  $min: [...NUMERIC, 'DATE', 'BOOL'],
  $max: [...NUMERIC, 'DATE', 'BOOL'],
  $stats: [...NUMERIC, 'DATE', 'BOOL'],
  $count: [...NUMERIC, 'DATE', 'BOOL', 'KEYWORD'],
  $cardinality: [...NUMERIC, 'DATE', 'BOOL', 'KEYWORD'],
  $extendedStats: [...NUMERIC, 'DATE'],
  $percentiles: [...NUMERIC, 'DATE'],
  $terms: [...NUMERIC, 'DATE', 'BOOL', 'KEYWORD'],
  $range: [...NUMERIC, 'DATE'],
  $histogram: [...NUMERIC, 'DATE'],
  $dateHistogram: ['DATE'],
  $facet: ['FACET'],
};
/** A bucket's own fields: a sub-aggregation of the same name would make its reply ambiguous. */
const BUCKET_FIELDS = new Set(['key', 'keyAsString', 'docCount', 'from', 'to', 'fromAsString', 'toAsString']);
const BUCKET_OPERATORS = new Set(['$terms', '$range', '$histogram', '$dateHistogram', '$facet']);
/**
 * Types whose columns exist only with FAST. KEYWORD and FACET have no FAST option in the SDK's schema
 * builder and are aggregated by the hosted service all the same, so they need none here.
 */
const NEEDS_FAST: readonly SearchFieldType[] = [...NUMERIC, 'DATE', 'BOOL'];
/** Tantivy's default for percentiles without `percents`. */
export const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];
const FIXED_INTERVAL_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the aggregations argument of SEARCH.AGGREGATE. Throws a RespError on anything it cannot run. */
export function parseAggregations(index: SearchIndexDefinition, json: string): AggregationRequest[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new RespError(`ERR Aggregations are not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new RespError('ERR Aggregations must be a JSON object');
  return readAggregations(index, parsed, false);
}

function readAggregations(
  index: SearchIndexDefinition,
  aggs: JsonObject,
  nested: boolean,
): AggregationRequest[] {
  return Object.entries(aggs).map(([name, definition]) => readAggregation(index, name, definition, nested));
}

function readAggregation(
  index: SearchIndexDefinition,
  name: string,
  definition: unknown,
  nested: boolean,
): AggregationRequest {
  if (name === '') throw new RespError('ERR Aggregation names must not be empty');
  if (nested && BUCKET_FIELDS.has(name)) {
    throw new RespError(`ERR Aggregation '${name}' inside $aggs would clash with the bucket's own '${name}'`);
  }
  if (!isObject(definition)) throw new RespError(`ERR Aggregation '${name}' must be a JSON object`);
  const operators = Object.keys(definition).filter((key) => key !== '$aggs');
  if (operators.length === 0) throw new RespError(`ERR Aggregation '${name}' has no operator`);
  if (operators.length > 1) {
    throw new RespError(`ERR Aggregation '${name}' has more than one operator: ${operators.join(', ')}`);
  }
  const operator = operators[0]!;
  if (FIELD_TYPES[operator] === undefined) {
    throw new RespError(`ERR Aggregation '${name}' has unknown operator '${operator}'`);
  }
  const isBucket = BUCKET_OPERATORS.has(operator);
  const subAggs = definition['$aggs'];
  if (subAggs !== undefined && (!isBucket || operator === '$facet')) {
    throw new RespError(`ERR Aggregation '${name}' operator '${operator}' does not support nested $aggs`);
  }
  if (subAggs !== undefined && !isObject(subAggs)) {
    throw new RespError(`ERR Aggregation '${name}': $aggs must be a JSON object`);
  }
  if (nested && operator === '$facet') {
    throw new RespError(`ERR Aggregation '${name}': $facet cannot be used inside $aggs`);
  }
  const options = new Options(name, operator, definition[operator]);
  const field = options.field(index);
  const aggs = subAggs === undefined ? [] : readAggregations(index, subAggs, true);
  const request = readOperator(options, name, operator, field, aggs);
  options.refuseUnknown();
  return request;
}

function readOperator(
  options: Options,
  name: string,
  operator: string,
  field: SearchField,
  aggs: AggregationRequest[],
): AggregationRequest {
  switch (operator) {
    case '$avg':
    case '$sum':
    case '$min':
    case '$max':
    case '$count':
    case '$stats':
      return { kind: 'metric', name, field, operator, missing: options.number('missing') };
    case '$cardinality':
      return { kind: 'cardinality', name, field, missing: options.scalar('missing') };
    case '$extendedStats': {
      const sigma = options.number('sigma') ?? 2;
      if (sigma < 0) options.fail('sigma must be greater than or equal to 0');
      return { kind: 'extendedStats', name, field, sigma, missing: options.number('missing') };
    }
    case '$percentiles': {
      const percents = options.numberList('percents') ?? DEFAULT_PERCENTS;
      if (percents.length === 0) options.fail('percents must not be empty');
      if (percents.some((p) => p < 0 || p > 100)) options.fail('percents must be between 0 and 100');
      const keyed = options.boolean('keyed') ?? true;
      return { kind: 'percentiles', name, field, percents, keyed, missing: options.number('missing') };
    }
    case '$terms': {
      const size = options.integer('size', 1) ?? 10;
      const segmentSize = Math.max(options.integer('segmentSize', 1) ?? size * 10, size);
      const order = termsOrder(options, aggs);
      const isDefaultOrder = order.by === 'count' && order.descending;
      return {
        kind: 'terms',
        name,
        field,
        size,
        segmentSize,
        showTermDocCountError: options.boolean('showTermDocCountError') ?? isDefaultOrder,
        minDocCount: options.integer('minDocCount', 0) ?? 1,
        order,
        missing: options.scalar('missing'),
        include: termsFilter(options, 'include', field),
        exclude: termsFilter(options, 'exclude', field),
        aggs,
      };
    }
    case '$range':
      return {
        kind: 'range',
        name,
        field,
        ranges: ranges(options),
        keyed: options.boolean('keyed') ?? false,
        aggs,
      };
    case '$histogram': {
      const interval = options.number('interval');
      if (interval === undefined) options.fail('interval is required');
      if (interval <= 0) options.fail('interval must be a positive number');
      return histogram(options, name, field, interval, options.number('offset') ?? 0, aggs);
    }
    case '$dateHistogram': {
      const interval = options.duration('fixedInterval', false);
      if (interval === undefined) options.fail('fixedInterval is required');
      return histogram(options, name, field, interval, options.duration('offset', true) ?? 0, aggs);
    }
    default:
      return facet(options, name, field);
  }
}

function histogram(
  options: Options,
  name: string,
  field: SearchField,
  interval: number,
  offset: number,
  aggs: AggregationRequest[],
): HistogramRequest {
  const dates = field.type === 'DATE';
  const hardBounds = options.bounds('hardBounds', dates);
  const extendedBounds = options.bounds('extendedBounds', dates);
  const minDocCount = options.integer('minDocCount', 0) ?? 0;
  // Tantivy's rule: the empty buckets extendedBounds adds would be dropped again.
  if (extendedBounds && minDocCount > 0)
    options.fail('minDocCount and extendedBounds cannot be set together');
  if (
    hardBounds &&
    extendedBounds &&
    (extendedBounds.min < hardBounds.min || extendedBounds.max > hardBounds.max)
  ) {
    options.fail('extendedBounds must lie within hardBounds');
  }
  return {
    kind: 'histogram',
    name,
    field,
    interval,
    offset,
    minDocCount,
    hardBounds,
    extendedBounds,
    keyed: options.boolean('keyed') ?? false,
    aggs,
  };
}

function facet(options: Options, name: string, field: SearchField): FacetRequest {
  const rawPath = options.string('path');
  if (rawPath === undefined) options.fail('path is required');
  if (!rawPath.startsWith('/')) options.fail(`path must start with '/'`);
  // "/category/" names the same node as "/category".
  const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') || '/' : rawPath;
  const order = options.object('order');
  let by: 'count' | 'path' = 'count';
  let descending = true;
  if (order !== undefined) {
    const keys = Object.keys(order);
    if (keys.length !== 1 || (keys[0] !== 'count' && keys[0] !== 'path')) {
      options.fail(`order must be { "count": "asc"|"desc" } or { "path": "asc"|"desc" }`);
    }
    by = keys[0] as 'count' | 'path';
    descending = direction(options, order[by]);
  }
  return {
    kind: 'facet',
    name,
    field,
    path,
    depth: options.integer('depth', 1) ?? 1,
    size: options.integer('size', 1) ?? 10,
    minDocCount: options.integer('minDocCount', 0) ?? 1,
    order: { by, descending },
  };
}

function direction(options: Options, value: unknown): boolean {
  if (value === 'desc') return true;
  if (value === 'asc') return false;
  return options.fail(`order direction must be "asc" or "desc"`);
}

function termsOrder(options: Options, aggs: AggregationRequest[]): TermsOrder {
  const order = options.object('order');
  if (order === undefined) return { by: 'count', descending: true };
  const keys = Object.keys(order);
  if (keys.length !== 1) options.fail('order must have exactly one key');
  const target = keys[0]!;
  const descending = direction(options, order[target]);
  if (target === 'count' || target === '_count') return { by: 'count', descending };
  if (target === 'key' || target === '_key') return { by: 'key', descending };
  // A sub-aggregation by alias, or a multi-value one's property ("stats.avg").
  const dot = target.indexOf('.');
  const name = dot < 0 ? target : target.slice(0, dot);
  const property = dot < 0 ? undefined : target.slice(dot + 1);
  const sub = aggs.find((agg) => agg.name === name);
  if (sub === undefined) options.fail(`order refers to '${target}', which is not one of its $aggs`);
  const singleValue = sub.kind === 'metric' && sub.operator !== '$stats';
  const ok =
    sub.kind === 'cardinality' ||
    (singleValue && property === undefined) ||
    ((sub.kind === 'extendedStats' || (sub.kind === 'metric' && sub.operator === '$stats')) &&
      property !== undefined);
  if (!ok) options.fail(`order cannot sort by '${target}'`);
  return { by: 'subAggregation', name, property, descending };
}

function termsFilter(options: Options, key: string, field: SearchField): TermsFilter | undefined {
  const value = options.take(key);
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (field.type !== 'KEYWORD') options.fail(`${key} as a regular expression needs a KEYWORD field`);
    try {
      // The whole term must match, as in Elasticsearch and Tantivy.
      return { regex: new RegExp(`^(?:${value})$`, 'u') };
    } catch (error) {
      return options.fail(`${key} is not a valid regular expression: ${(error as Error).message}`);
    }
  }
  if (Array.isArray(value) && value.every(isScalar)) return { values: value };
  return options.fail(`${key} must be a regular expression or an array of values`);
}

function isScalar(value: unknown): value is SearchValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function ranges(options: Options): RangeSpec[] {
  const raw = options.take('ranges');
  if (!Array.isArray(raw) || raw.length === 0) options.fail('ranges must be a non-empty array');
  return raw.map((range: unknown, i) => {
    if (!isObject(range)) return options.fail(`ranges[${i}] must be an object`);
    const unknown = Object.keys(range).filter((key) => key !== 'from' && key !== 'to' && key !== 'key');
    if (unknown.length > 0) options.fail(`ranges[${i}] has unknown option '${unknown[0]}'`);
    const { from, to, key } = range;
    for (const [what, bound] of [
      ['from', from],
      ['to', to],
    ] as const) {
      if (bound !== undefined && (typeof bound !== 'number' || !Number.isFinite(bound))) {
        options.fail(`ranges[${i}].${what} must be a number`);
      }
    }
    if (key !== undefined && typeof key !== 'string') options.fail(`ranges[${i}].key must be a string`);
    if (typeof from === 'number' && typeof to === 'number' && from > to) {
      options.fail(`ranges[${i}] has from greater than to`);
    }
    return { key: key as string | undefined, from: from as number | undefined, to: to as number | undefined };
  });
}

/** One operator's options object, read option by option; whatever is left unread is refused. */
class Options {
  private readonly raw: JsonObject;
  private readonly seen = new Set<string>();

  constructor(
    private readonly name: string,
    private readonly operator: string,
    raw: unknown,
  ) {
    if (!isObject(raw)) throw new RespError(`ERR Aggregation '${name}' is missing required 'field' property`);
    this.raw = raw;
  }

  fail(detail: string): never {
    throw new RespError(`ERR Aggregation '${this.name}' operator '${this.operator}': ${detail}`);
  }

  take(key: string): unknown {
    this.seen.add(key);
    return this.raw[key];
  }

  field(index: SearchIndexDefinition): SearchField {
    const path = this.take('field');
    if (typeof path !== 'string' || path === '') {
      throw new RespError(`ERR Aggregation '${this.name}' is missing required 'field' property`);
    }
    const field = index.fields.find((candidate) => candidate.path === path);
    if (field === undefined) this.fail(`field '${path}' is not in the index schema`);
    if (!FIELD_TYPES[this.operator]!.includes(field.type)) {
      this.fail(`field '${path}' is ${field.type}, which ${this.operator} does not support`);
    }
    if (NEEDS_FAST.includes(field.type) && !field.fast) {
      throw new RespError(
        `ERR Aggregation '${this.name}' operator '${this.operator}' requires field '${path}' to be FAST`,
      );
    }
    return field;
  }

  number(key: string): number | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(`${key} must be a number`);
    return value;
  }

  integer(key: string, min: number): number | undefined {
    const value = this.number(key);
    if (value !== undefined && (!Number.isSafeInteger(value) || value < min)) {
      this.fail(`${key} must be an integer of at least ${min}`);
    }
    return value;
  }

  boolean(key: string): boolean | undefined {
    const value = this.take(key);
    if (value !== undefined && typeof value !== 'boolean') this.fail(`${key} must be true or false`);
    return value as boolean | undefined;
  }

  string(key: string): string | undefined {
    const value = this.take(key);
    if (value !== undefined && typeof value !== 'string') this.fail(`${key} must be a string`);
    return value as string | undefined;
  }

  scalar(key: string): SearchValue | undefined {
    const value = this.take(key);
    if (value !== undefined && !isScalar(value)) this.fail(`${key} must be a string, number or boolean`);
    return value as SearchValue | undefined;
  }

  numberList(key: string): number[] | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
      this.fail(`${key} must be an array of numbers`);
    }
    return value as number[];
  }

  object(key: string): JsonObject | undefined {
    const value = this.take(key);
    if (value !== undefined && !isObject(value)) this.fail(`${key} must be an object`);
    return value as JsonObject | undefined;
  }

  /** `{ min, max }`; a DATE field's bounds may also be RFC 3339 instants (as Tantivy reads them). */
  bounds(key: string, dates: boolean): Bounds | undefined {
    const value = this.object(key);
    if (value === undefined) return undefined;
    const read = (bound: unknown): number | undefined => {
      if (typeof bound === 'number' && Number.isFinite(bound)) return bound;
      if (
        dates &&
        typeof bound === 'string' &&
        /^\d{4}-\d{2}-\d{2}T/.test(bound) &&
        !Number.isNaN(Date.parse(bound))
      ) {
        return Date.parse(bound);
      }
      return undefined;
    };
    const min = read(value['min']);
    const max = read(value['max']);
    if (min === undefined || max === undefined) {
      this.fail(`${key} needs both min and max as numbers${dates ? ' or RFC 3339 instants' : ''}`);
    }
    if (min > max) this.fail(`${key}.min must not be greater than ${key}.max`);
    return { min, max };
  }

  /** A fixed interval (`"30d"`, `"1h"`, `"500ms"`) in milliseconds; `signed` allows `"-1h"` (offsets). */
  duration(key: string, signed: boolean): number | undefined {
    const value = this.string(key);
    if (value === undefined) return undefined;
    const match = /^([+-]?)(\d+)(ms|s|m|h|d)$/.exec(value);
    if (match === null || (!signed && match[1] !== '')) {
      this.fail(`${key} must be a number followed by ms, s, m, h or d (e.g. "1d")`);
    }
    const ms = Number(match[2]) * FIXED_INTERVAL_MS[match[3]!]! * (match[1] === '-' ? -1 : 1);
    if (!signed && ms <= 0) this.fail(`${key} must be greater than zero`);
    return ms;
  }

  refuseUnknown(): void {
    const unknown = Object.keys(this.raw).find((key) => !this.seen.has(key));
    if (unknown !== undefined) this.fail(`unknown option '${unknown}'`);
  }
}
