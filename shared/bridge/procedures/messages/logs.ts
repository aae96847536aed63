// Message logs (`GET /v2/logs`): one page of events, newest first, with a cursor for the next page; and
// cancelling messages as a job — the messages picked in the list, every pending message a filter matches,
// or (chosen and confirmed) every pending message. The preview lists the pending messages from the logs,
// and the job cancels exactly those, by id, in chunks: never with an empty request, which the real
// service would take as "cancel every message".
import { z } from 'zod';
import type { LogEntry } from '../../../messages/types';
import { pagedListInput } from '../../list-input';
import { call, job } from '../../define';
import { listIdSchema } from '../../list-ids';
import { jobInput, type JobSummary, jobTargetSchema } from '../../job';
import { cancelFiltersSchema, logFiltersSchema } from './filters';

const messageId = listIdSchema(200);

export interface LogsPage {
  /** Newest first. `state` uses one spelling (`CANCELLED`) and `responseHeader` is always the field used. */
  events: LogEntry[];
  /** Absent on the last page. */
  cursor?: string;
}

export const LOGS_PAGE_SIZE = 100;
/** The most events the service returns per request. */
export const LOGS_MAX_COUNT = 1000;

export const cancelTargetSchema = jobTargetSchema(cancelFiltersSchema, {
  id: messageId,
  max: 10_000,
  what: 'message',
});
export type CancelTarget = z.input<typeof cancelTargetSchema>;

export const logProcedures = {
  'messages.logs.list': call<LogsPage>()(
    pagedListInput(logFiltersSchema, 200, {
      count: z.number().int().min(1).max(LOGS_MAX_COUNT).default(LOGS_PAGE_SIZE),
    }),
    'read',
  ),
  /** Cancels pending messages: the listed ids, a filter's pending messages, or every pending one. */
  'messages.logs.job': job<JobSummary>()(
    jobInput({ action: z.literal('cancel').default('cancel'), target: cancelTargetSchema }),
    'write',
    { invalidates: ['messages.logs.list', 'jobs.list'] },
  ),
};
