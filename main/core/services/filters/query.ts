// Filters of the logs, bulk cancel and the DLQ → the query parameters the service reads. Multi-value
// filters become repeated parameters (`label=a&label=b`), which both the cloud and the local stack accept;
// the SDK's `urlGroup` is `topicName` on the wire.
import type { QueryValue } from '../message-api';

type FilterInput = Record<string, string | number | readonly (string | number)[] | undefined>;

export function filtersToQuery(filters: FilterInput): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) query[key] = value;
    } else {
      query[key] = value as string | number;
    }
  }
  return query;
}
