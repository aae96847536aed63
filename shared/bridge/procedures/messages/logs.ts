// Message logs (`GET /v2/logs`): one page of events, newest first, with a cursor for the next page; and
// cancelling messages, one, many or by filter — never with an empty request, which the real service
// would take as "cancel every message".
import { z } from 'zod';
import type { LogEntry } from '../../../messages/types';
import { pagedListInput } from '../../list-input';
import { call } from '../../define';
import { hasAnyFilter } from '../../job';
import { cancelFiltersSchema, logFiltersSchema } from './filters';
import { profileIdSchema as profileId } from '../../profile-id';

const messageId = z.string().trim().min(1).max(200);

export interface LogsPage {
  /** Newest first. `state` uses one spelling (`CANCELLED`) and `responseHeader` is always the field used. */
  events: LogEntry[];
  /** Absent on the last page. */
  cursor?: string;
}

export const LOGS_PAGE_SIZE = 100;
/** The most events the service returns per request. */
export const LOGS_MAX_COUNT = 1000;

export const cancelTargetSchema = z.union([
  z.object({ messageIds: z.array(messageId).min(1, 'select at least one message').max(1000) }),
  z.object({
    filters: cancelFiltersSchema.refine(
      hasAnyFilter,
      'refusing to cancel without a filter: the service would cancel every message',
    ),
  }),
]);
export type CancelTarget = z.input<typeof cancelTargetSchema>;

export const logProcedures = {
  'messages.logs.list': call<LogsPage>()(
    pagedListInput(logFiltersSchema, 200, {
      count: z.number().int().min(1).max(LOGS_MAX_COUNT).default(LOGS_PAGE_SIZE),
    }),
    'read',
  ),
  /** Cancels pending messages; answers how many the service cancelled. */
  'messages.logs.cancel': call<{ cancelled: number }>()(
    z.object({ profileId, target: cancelTargetSchema }),
    'write',
    { invalidates: ['messages.logs.list'] },
  ),
};
