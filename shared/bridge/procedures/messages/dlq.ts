// The message dead-letter queue: list and inspect, retry (with setting overrides) or delete one entry,
// count what a filter matches, and bulk jobs as a stream: chunked to the API maximum, progress per chunk,
// closing the stream stops before the next chunk.
import { z } from 'zod';
import { retryOverridesSchema } from '../../../messages/overrides';
import type { DLQMessage } from '../../../messages/types';
import type { JobDone, JobProgress } from '../../job-events';
import { pagedListInput } from '../../list-input';
import { call, stream } from '../../define';
import { dlqFiltersSchema } from './filters';
import { profileIdSchema as profileId } from '../../profile-id';

const dlqId = z.string().trim().min(1).max(200);

/** Most entries the service takes in one bulk request. */
export const DLQ_CHUNK = 100;

export const dlqTargetSchema = z.union([
  z.object({ dlqIds: z.array(dlqId).min(1, 'select at least one entry').max(10_000) }),
  /** Every entry the filters match when the job starts (an empty filter means the whole DLQ). */
  z.object({ filters: dlqFiltersSchema }),
]);
export type DlqTarget = z.input<typeof dlqTargetSchema>;

export interface DlqPage {
  messages: DLQMessage[];
  cursor?: string;
}

export interface DlqBulkFailure {
  dlqId: string;
  /** The service's own text. */
  message: string;
}

export interface DlqBulkSummary {
  action: 'retry' | 'delete';
  total: number;
  succeeded: number;
  failures: DlqBulkFailure[];
  /** Delete: entries already gone when their chunk ran (the service counts them, it does not name them). */
  notFound: number;
  /** Retry: the new message of each retried entry. */
  retried: { dlqId: string; messageId: string }[];
}

export type DlqBulkEvent =
  /** Filter targets: entries found so far while listing them. */
  { type: 'collecting'; found: number } | JobProgress | JobDone<DlqBulkSummary>;

export const dlqProcedures = {
  'messages.dlq.list': call<DlqPage>()(
    pagedListInput(dlqFiltersSchema, 200, {
      count: z.number().int().min(1).max(DLQ_CHUNK).default(DLQ_CHUNK),
    }),
    'read',
  ),
  'messages.dlq.get': call<DLQMessage>()(z.object({ profileId, dlqId }), 'read'),
  /** How many entries a bulk action on these filters would touch (`capped` past `limit`). */
  'messages.dlq.count': call<{ count: number; capped: boolean }>()(
    z.object({ profileId, filters: dlqFiltersSchema.default({}) }),
    'read',
  ),
  'messages.dlq.retry': call<{ messageId: string }>()(
    z.object({ profileId, dlqId, overrides: retryOverridesSchema.default({}) }),
    'write',
    { invalidates: ['messages.dlq.list', 'messages.dlq.count', 'messages.logs.list'] },
  ),
  'messages.dlq.delete': call<{ deleted: string }>()(z.object({ profileId, dlqId }), 'write', {
    invalidates: ['messages.dlq.list', 'messages.dlq.count'],
  }),
  'messages.dlq.bulk': stream<DlqBulkEvent>()(
    z.object({
      profileId,
      action: z.enum(['retry', 'delete']),
      target: dlqTargetSchema,
      overrides: retryOverridesSchema.default({}),
    }),
    'write',
  ),
};
