// $range, $histogram and $dateHistogram: buckets over a numeric or DATE field's values, as Tantivy builds
// them. A document counts once in each bucket any of its values falls into.
import { RespError } from '../../resp';
import type { SearchDocument } from '../types';
import type { HistogramRequest, RangeRequest } from './request';
import { OutObject } from './reply';
import type { Out } from './reply';
import type { SubAggregations } from './terms';
import { formatDate, formatF64, numbersOf } from './values';

/** Tantivy's `max_bucket_count`: a histogram with more buckets is refused rather than built. */
export const MAX_BUCKETS = 65_000;

interface Range {
  key: string | undefined;
  /** Inclusive; undefined is unbounded. */
  from: number | undefined;
  /** Exclusive; undefined is unbounded. */
  to: number | undefined;
}

/**
 * The requested ranges sorted by `from`, with the ranges Tantivy adds so that every value falls in one: one
 * below the first `from`, one above the last `to`, one in each gap. Overlapping ranges are refused (Tantivy
 * does not support them).
 */
function coveringRanges(request: RangeRequest): Range[] {
  const sorted = [...request.ranges].sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity));
  const out: Range[] = [];
  if (sorted[0]!.from !== undefined) out.push({ key: undefined, from: undefined, to: sorted[0]!.from });
  for (const range of sorted) {
    const previous = out.at(-1);
    if (previous !== undefined) {
      const previousEnd = previous.to ?? Infinity;
      const start = range.from ?? -Infinity;
      if (previousEnd > start) {
        throw new RespError(
          `ERR Aggregation '${request.name}' operator '$range': overlapping ranges are not supported`,
        );
      }
      if (previousEnd < start) out.push({ key: undefined, from: previous.to, to: range.from });
    }
    out.push(range);
  }
  const last = out.at(-1)!;
  if (last.to !== undefined) out.push({ key: undefined, from: last.to, to: undefined });
  return out;
}

function rangeKey(range: Range, format: (n: number) => string): string {
  if (range.key !== undefined) return range.key;
  const from = range.from === undefined ? '*' : format(range.from);
  const to = range.to === undefined ? '*' : format(range.to);
  return `${from}-${to}`;
}

export function range(
  request: RangeRequest,
  docs: readonly SearchDocument[],
  sub: SubAggregations,
): OutObject {
  const dates = request.field.type === 'DATE';
  const format = dates ? formatDate : formatF64;
  const ranges = coveringRanges(request);
  const members: SearchDocument[][] = ranges.map(() => []);
  for (const doc of docs) {
    const hit = new Set<number>();
    for (const v of numbersOf(doc, request.field.path, undefined)) {
      const i = ranges.findIndex(
        (r) => (r.from === undefined || v >= r.from) && (r.to === undefined || v < r.to),
      );
      if (i >= 0) hit.add(i);
    }
    for (const i of hit) members[i]!.push(doc);
  }
  const buckets = ranges.map((r, i): [string, OutObject] => {
    const key = rangeKey(r, format);
    const bucket = new OutObject().set('key', key).set('docCount', members[i]!.length);
    if (r.from !== undefined) bucket.set('from', r.from);
    if (r.to !== undefined) bucket.set('to', r.to);
    if (dates && r.from !== undefined) bucket.set('fromAsString', formatDate(r.from));
    if (dates && r.to !== undefined) bucket.set('toAsString', formatDate(r.to));
    for (const entry of sub(members[i]!).entries) bucket.set(...entry);
    return [key, bucket];
  });
  return new OutObject().set('buckets', bucketList(buckets, request.keyed));
}

/** Buckets as a list, or with `keyed` as an object by key (Tantivy's keyed form). */
function bucketList(buckets: [string, OutObject][], keyed: boolean): Out {
  if (!keyed) return buckets.map(([, bucket]) => bucket);
  const byKey = new OutObject();
  for (const [key, bucket] of buckets) byKey.set(key, bucket);
  return byKey;
}

export function histogram(
  request: HistogramRequest,
  docs: readonly SearchDocument[],
  sub: SubAggregations,
): OutObject {
  const { interval, offset, hardBounds, extendedBounds } = request;
  const indexOf = (v: number): number => Math.floor((v - offset) / interval);
  const members = new Map<number, SearchDocument[]>();
  for (const doc of docs) {
    const hit = new Set<number>();
    for (const v of numbersOf(doc, request.field.path, undefined)) {
      if (hardBounds && (v < hardBounds.min || v > hardBounds.max)) continue;
      hit.add(indexOf(v));
    }
    for (const i of hit) {
      let list = members.get(i);
      if (list === undefined) members.set(i, (list = []));
      list.push(doc);
    }
  }
  let first = Infinity;
  let last = -Infinity;
  for (const i of members.keys()) {
    first = Math.min(first, i);
    last = Math.max(last, i);
  }
  // Empty buckets fill the span only when they are wanted (minDocCount 0); extendedBounds widen the span.
  if (extendedBounds && request.minDocCount === 0) {
    first = Math.min(first, indexOf(extendedBounds.min));
    last = Math.max(last, indexOf(extendedBounds.max));
  }
  if (hardBounds) {
    first = Math.max(first, indexOf(hardBounds.min));
    last = Math.min(last, indexOf(hardBounds.max));
  }
  const span = request.minDocCount === 0 && first <= last ? last - first + 1 : 0;
  if (span > MAX_BUCKETS || members.size > MAX_BUCKETS) {
    throw new RespError(
      `ERR Aggregation '${request.name}' would create more than ${MAX_BUCKETS} buckets; use a larger interval`,
    );
  }
  const chosen =
    request.minDocCount === 0
      ? Array.from({ length: span }, (_, n) => first + n)
      : [...members.keys()]
          .filter((i) => members.get(i)!.length >= request.minDocCount)
          .sort((a, b) => a - b);
  const dates = request.field.type === 'DATE';
  const buckets = chosen.map((i): [string, OutObject] => {
    const key = i * interval + offset;
    const list = members.get(i) ?? [];
    const bucket = new OutObject().set('key', key).set('docCount', list.length);
    if (dates) bucket.set('keyAsString', formatDate(key));
    for (const entry of sub(list).entries) bucket.set(...entry);
    return [formatF64(key), bucket];
  });
  return new OutObject().set('buckets', bucketList(buckets, request.keyed));
}
