// $terms: one bucket per distinct value, the largest first, as Tantivy's terms aggregation answers it
// (`size`, `minDocCount`, `order`, `sumOtherDocCount`, `docCountErrorUpperBound`).
import type { SearchDocument, SearchValue } from '../types';
import type { TermsFilter, TermsRequest } from './request';
import { OutObject } from './reply';
import { formatDate, valuesOf } from './values';

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

/** Tantivy's key order: numbers before strings, numbers by value, strings by their UTF-8 bytes. */
export function compareKeys(a: SearchValue, b: SearchValue): number {
  const na = typeof a === 'string' ? undefined : Number(a);
  const nb = typeof b === 'string' ? undefined : Number(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  if (na !== undefined) return -1;
  if (nb !== undefined) return 1;
  return Buffer.compare(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
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
  let buckets: TermBucket[] = [...byTerm.values()]
    .filter(
      ({ key }) => (include === undefined || matches(include, key)) && !(exclude && matches(exclude, key)),
    )
    .map((bucket) => ({ ...bucket, sub: sub(bucket.docs) }));

  // Ties keep the order before the sort, which is the term's own order.
  buckets.sort((a, b) => compareKeys(a.key, b.key));
  const order = request.order;
  const sign = order.descending ? -1 : 1;
  if (order.by === 'count') buckets.sort((a, b) => sign * (a.docs.length - b.docs.length));
  else if (order.by === 'key') buckets.sort((a, b) => sign * compareKeys(a.key, b.key));
  else if (order.by === 'subAggregation') {
    const { name, property } = order;
    buckets.sort((a, b) => sign * (subValue(a, name, property) - subValue(b, name, property)));
  }

  // Tantivy keeps `segmentSize` terms per index segment (here: one segment) before merging; the count of the
  // first term it drops bounds the error of the counts returned. Ordered by a sub-aggregation, it keeps all.
  let sumOtherDocCount = 0;
  let errorBound = 0;
  if (order.by !== 'subAggregation' && buckets.length > request.segmentSize) {
    errorBound = buckets[request.segmentSize]!.docs.length;
    for (const dropped of buckets.slice(request.segmentSize)) sumOtherDocCount += dropped.docs.length;
    buckets = buckets.slice(0, request.segmentSize);
  }
  buckets = buckets.filter((bucket) => bucket.docs.length >= request.minDocCount);
  for (const dropped of buckets.slice(request.size)) sumOtherDocCount += dropped.docs.length;
  buckets = buckets.slice(0, request.size);

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
