// Input schemas for the filters of the message logs, bulk cancel and the DLQ, shared by their procedures.
// Multi-value filters OR within a filter and AND across filters, as the service does.
import { z } from 'zod';
import { MESSAGE_STATES } from '../../../messages/types';

const value = z.string().trim().min(1).max(2000);

/** Most message ids one logs query may name (the `messageIds` filter). */
export const MESSAGE_IDS_MAX = 2000;
const values = z.array(value).max(100).optional();
const time = z.number().int().nonnegative().optional();

/** Filters every list of messages accepts. Dates are inclusive unix milliseconds on the creation time. */
export const messageFiltersSchema = z.object({
  url: values,
  topicName: values,
  queueName: values,
  label: values,
  scheduleId: values,
  flowControlKey: values,
  callerIp: values,
  fromDate: time,
  toDate: time,
});

/** States the logs can be filtered by: every state, plus the pseudo-state IN_PROGRESS (ACTIVE, RETRY or ERROR). */
export const LOG_STATE_FILTERS = [...MESSAGE_STATES, 'IN_PROGRESS'] as const;
export type LogStateFilter = (typeof LOG_STATE_FILTERS)[number];

export const logFiltersSchema = messageFiltersSchema.extend({
  messageId: value.optional(),
  /**
   * A set of messages (e.g. every message of one workflow run). The service filters by one id, so main
   * reads the set id by id; a page covers a slice of the ids.
   */
  messageIds: z.array(value).max(MESSAGE_IDS_MAX).optional(),
  state: z.array(z.enum(LOG_STATE_FILTERS)).max(20).optional(),
  host: values,
  path: values,
});
export type LogFiltersInput = z.input<typeof logFiltersSchema>;

export const dlqFiltersSchema = messageFiltersSchema.extend({
  messageId: value.optional(),
  responseStatus: z.array(z.number().int().min(0).max(999)).max(50).optional(),
});
export type DlqFiltersInput = z.input<typeof dlqFiltersSchema>;

/** Filters bulk cancel accepts (no message id: pass ids instead). */
export const cancelFiltersSchema = messageFiltersSchema.extend({ host: values, path: values });
export type CancelFiltersInput = z.input<typeof cancelFiltersSchema>;
