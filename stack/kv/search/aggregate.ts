// SEARCH.AGGREGATE's aggregations over the documents its filter matched (the caller evaluates the filter).
// The parts live in aggregate/: request.ts reads and checks the aggregation object, metrics.ts, terms.ts,
// range.ts and facet.ts compute, reply.ts writes the result as the hosted service's RESP reply.
import type { RespValue } from '../resp';
import { cardinality, extendedStats, metric, percentiles } from './aggregate/metrics';
import { facet } from './aggregate/facet';
import { histogram, range } from './aggregate/range';
import { encodeOut, OutObject } from './aggregate/reply';
import type { AggregationRequest } from './aggregate/request';
import { parseAggregations } from './aggregate/request';
import { terms } from './aggregate/terms';
import type { SearchDocument, SearchIndexDefinition } from './types';

/**
 * The reply to `SEARCH.AGGREGATE index filter aggregations`: `[alias, result, …]` in the order the
 * aggregations were given. Throws a RespError (`ERR …`) for aggregations it cannot run, before computing any.
 */
export function aggregate(
  index: SearchIndexDefinition,
  aggregationsJson: string,
  documents: readonly SearchDocument[],
): RespValue {
  const requests = parseAggregations(index, aggregationsJson);
  return encodeOut(run(requests, documents));
}

function run(requests: readonly AggregationRequest[], docs: readonly SearchDocument[]): OutObject {
  const out = new OutObject();
  for (const request of requests) out.set(request.name, runOne(request, docs));
  return out;
}

function runOne(request: AggregationRequest, docs: readonly SearchDocument[]): OutObject {
  switch (request.kind) {
    case 'metric':
      return metric(request, docs);
    case 'cardinality':
      return cardinality(request, docs);
    case 'extendedStats':
      return extendedStats(request, docs);
    case 'percentiles':
      return percentiles(request, docs);
    case 'terms':
      return terms(request, docs, (bucketDocs) => run(request.aggs, bucketDocs));
    case 'range':
      return range(request, docs, (bucketDocs) => run(request.aggs, bucketDocs));
    case 'histogram':
      return histogram(request, docs, (bucketDocs) => run(request.aggs, bucketDocs));
    case 'facet':
      return facet(request, docs);
  }
}
