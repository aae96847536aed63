// The message dead-letter queue: list and inspect, retry (with setting overrides) or delete one entry, and
// the job that retries or deletes many — listed ids, every entry a filter matches, or the whole DLQ when
// the user chose "all" — in chunks (shared/bridge/job.ts).
import { z } from 'zod';
import { retryOverridesSchema } from '../../../messages/overrides';
import type { DLQMessage } from '../../../messages/types';
import { jobInput, type JobSummary, jobTargetSchema } from '../../job';
import { pagedListInput } from '../../list-input';
import { call, job } from '../../define';
import { listIdSchema } from '../../list-ids';
import { dlqFiltersSchema } from './filters';
import { profileIdSchema as profileId } from '../../profile-id';

const dlqId = listIdSchema(200);

/** Entries per page of the DLQ list (the service's maximum). */
export const DLQ_PAGE = 100;

export const dlqTargetSchema = jobTargetSchema(dlqFiltersSchema, { id: dlqId, max: 10_000, what: 'entry' });
export type DlqTarget = z.input<typeof dlqTargetSchema>;

export interface DlqPage {
  messages: DLQMessage[];
  cursor?: string;
}

export const dlqProcedures = {
  'messages.dlq.list': call<DlqPage>()(
    pagedListInput(dlqFiltersSchema, 200, {
      count: z.number().int().min(1).max(DLQ_PAGE).default(DLQ_PAGE),
    }),
    'read',
  ),
  'messages.dlq.get': call<DLQMessage>()(z.object({ profileId, dlqId }), 'read'),
  'messages.dlq.retry': call<{ messageId: string }>()(
    z.object({ profileId, dlqId, overrides: retryOverridesSchema.default({}) }),
    'write',
    { invalidates: ['messages.dlq.list', 'messages.logs.list'] },
  ),
  'messages.dlq.delete': call<{ deleted: string }>()(z.object({ profileId, dlqId }), 'write', {
    invalidates: ['messages.dlq.list'],
  }),
  /** Retry (with the overrides the start carries) or delete many entries. */
  'messages.dlq.job': job<JobSummary>()(
    jobInput({ action: z.enum(['retry', 'delete']), target: dlqTargetSchema }),
    'write',
    {
      invalidates: ['messages.dlq.list', 'messages.dlq.get', 'messages.logs.list', 'jobs.list'],
      start: z.object({ overrides: retryOverridesSchema.default({}) }),
    },
  ),
};
