// $terms: one bucket per distinct value, the largest first, as Tantivy's terms aggregation answers it
// (`size`, `minDocCount`, `order`, `sumOtherDocCount`, `docCountErrorUpperBound`).
import type { SearchDocument, SearchValue } from '../types';
import type { TermsFilter, TermsRequest } from './request';
import { OutObject } from './reply';
import { compareKeys, mergeOrder, segmentOrder } from './term-order';
import { formatDate, valuesOf } from './values';

/** Rust's `sort_unstable` sorts up to this many items by insertion, which keeps equal items in order. */
const INSERTION_SORT_MAX = 20;

/** The results of a bucket's $aggs over the bucket's documents. */
export type SubAggregations = (docs: readonly SearchDocument[]) => OutObject;

interface TermBucket {
  key: SearchValue;
  docs: SearchDocument[];
  sub: OutObject;
}

/** A typed identity, so that the number 1 and the string "1" are two terms. */
function identity(value: SearchValue): string {
  return `${typeof value}:${String(value)}`;
}

function matches(filter: TermsFilter, key: SearchValue): boolean {
  if ('regex' in filter) return typeof key === 'string' && filter.regex.test(key);
  return filter.values.some((value) => value === key);
}

/** The value a bucket is ordered by when `order` names a sub-aggregation (none sorts as the lowest). */
function subValue(bucket: TermBucket, name: string, property: string | undefined): number {
  const result = bucket.sub.get(name);
  const value = result instanceof OutObject ? result.get(property ?? 'value') : undefined;
  return typeof value === 'number' ? value : -Number.MAX_VALUE;
}

export function terms(
  request: TermsRequest,
  docs: readonly SearchDocument[],
  sub: SubAggregations,
): OutObject {
  const byTerm = new Map<string, { key: SearchValue; docs: SearchDocument[] }>();
  for (const doc of docs) {
    let values = valuesOf(doc, request.field.path);
    if (values.length === 0 && request.missing !== undefined) values = [request.missing];
    const seen = new Set<string>();
    for (const value of values) {
      const id = identity(value);
      if (seen.has(id)) continue;
      seen.add(id);
      let bucket = byTerm.get(id);
      if (bucket === undefined) byTerm.set(id, (bucket = { key: value, docs: [] }));
      bucket.docs.push(doc);
    }
  }
  const { include, exclude } = request;
  const collected = [...byTerm.values()].filter(
    ({ key }) => (include === undefined || matches(include, key)) && !(exclude && matches(exclude, key)),
  );
  const order = request.order;
  const sign = order.descending ? -1 : 1;
  const byOrder = (
    a: { key: SearchValue; docs: unknown[] },
    b: { key: SearchValue; docs: unknown[] },
  ): number =>
    order.by === 'key' ? sign * compareKeys(a.key, b.key) : sign * (a.docs.length - b.docs.length);

  // As Tantivy does it in one index segment: the segment's terms sorted, cut to `segmentSize` — the count of the
  // first term dropped bounds the error of the counts returned —, merged through a hash map, filtered, sorted
  // again and cut to `size`. Ordered by a sub-aggregation, the segment keeps every term unsorted. Equal counts
  // keep the hash maps' order only while Rust's unstable sort is an insertion sort (up to 20 items); beyond
  // that their order is Tantivy's accident, and here they are in key order.
  const tiesInHashOrder = collected.length <= INSERTION_SORT_MAX;
  let segment = tiesInHashOrder
    ? segmentOrder(collected, request.field.type)
    : collected.sort((a, b) => compareKeys(a.key, b.key));
  let sumOtherDocCount = 0;
  let errorBound = 0;
  if (order.by !== 'subAggregation') {
    segment.sort(byOrder);
    if (segment.length > request.segmentSize) {
      errorBound = segment[request.segmentSize]!.docs.length;
      for (const dropped of segment.slice(request.segmentSize)) sumOtherDocCount += dropped.docs.length;
      segment = segment.slice(0, request.segmentSize);
    }
  }
  let merged = (tiesInHashOrder ? mergeOrder(segment, request.field.type) : segment).filter(
    (bucket) => bucket.docs.length >= request.minDocCount,
  );
  let buckets: TermBucket[];
  if (order.by === 'subAggregation') {
    // Ordered by a sub-aggregation: every bucket's $aggs are needed to sort.
    const { name, property } = order;
    buckets = merged.map((bucket) => ({ ...bucket, sub: sub(bucket.docs) }));
    buckets.sort((a, b) => sign * (subValue(a, name, property) - subValue(b, name, property)));
    for (const dropped of buckets.slice(request.size)) sumOtherDocCount += dropped.docs.length;
    buckets = buckets.slice(0, request.size);
  } else {
    merged.sort(byOrder);
    for (const dropped of merged.slice(request.size)) sumOtherDocCount += dropped.docs.length;
    merged = merged.slice(0, request.size);
    // Otherwise only the buckets returned need them.
    buckets = merged.map((bucket) => ({ ...bucket, sub: sub(bucket.docs) }));
  }

  const out = new OutObject().set(
    'buckets',
    buckets.map((bucket) => termBucket(request, bucket)),
  );
  out.set('sumOtherDocCount', sumOtherDocCount);
  if (request.showTermDocCountError) out.set('docCountErrorUpperBound', errorBound);
  return out;
}

function termBucket(request: TermsRequest, bucket: TermBucket): OutObject {
  const out = new OutObject();
  const { key } = bucket;
  if (typeof key === 'boolean') {
    // Tantivy keys a BOOL term as 1 / 0 and names it in keyAsString.
    out.set('key', key ? 1 : 0).set('keyAsString', String(key));
  } else if (typeof key === 'number' && request.field.type === 'DATE') {
    out.set('key', key).set('keyAsString', formatDate(key));
  } else {
    out.set('key', key);
  }
  out.set('docCount', bucket.docs.length);
  for (const entry of bucket.sub.entries) out.set(...entry);
  return out;
}
