// The message dead-letter queue: list and inspect, retry (with setting overrides) or delete one entry,
// count what a filter matches, and bulk jobs as a stream: chunked to the API maximum, progress per chunk,
// closing the stream stops before the next chunk.
import { z } from 'zod';
import { tryParseDuration } from '../../duration';
import { isValidHeaderName, isValidHeaderValue } from '../../headers';
import type { DLQMessage } from '../../messages/types';
import { checkRetryDelay } from '../../retry-delay';
import { call, stream } from '../define';
import { dlqFiltersSchema } from './message-filters';

const profileId = z.string().min(1).max(100);
const dlqId = z.string().trim().min(1).max(200);

/** Most entries the service takes in one bulk request. */
export const DLQ_CHUNK = 100;

const duration = (what: string) =>
  z
    .string()
    .trim()
    .superRefine((text, ctx) => {
      const parsed = tryParseDuration(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `${what}: ${parsed.error}` });
    });

const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// URL');

/** Settings a retry may override; each becomes an `Upstash-*` header on the retry request. */
export const retryOverridesSchema = z.object({
  retries: z.number().int().min(0).max(100).optional(),
  delay: duration('delay').optional(),
  retryDelay: z
    .string()
    .trim()
    .superRefine((text, ctx) => {
      const check = checkRetryDelay(text);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.error });
    })
    .optional(),
  timeout: duration('timeout').optional(),
  callback: httpUrl.optional(),
  failureCallback: httpUrl.optional(),
  /** Comma-separated labels. */
  label: z.string().trim().min(1).max(500).optional(),
  /** Headers for the destination (sent as `Upstash-Forward-<name>`), replacing the original's of that name. */
  forwardHeaders: z
    .record(
      z.string().refine(isValidHeaderName, 'not a valid header name'),
      z.string().refine(isValidHeaderValue, 'header values may not contain line breaks'),
    )
    .optional(),
});
export type RetryOverrides = z.input<typeof retryOverridesSchema>;

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
  | { type: 'collecting'; found: number }
  | { type: 'progress'; total: number; processed: number; succeeded: number; failed: number }
  | { type: 'done'; summary: DlqBulkSummary };

export const dlqProcedures = {
  'dlq.list': call<DlqPage>()(
    z.object({
      profileId,
      filters: dlqFiltersSchema.default({}),
      cursor: z.string().max(200).optional(),
      count: z.number().int().min(1).max(DLQ_CHUNK).default(DLQ_CHUNK),
    }),
    'read',
  ),
  'dlq.get': call<DLQMessage>()(z.object({ profileId, dlqId }), 'read'),
  /** How many entries a bulk action on these filters would touch (`capped` past `limit`). */
  'dlq.count': call<{ count: number; capped: boolean }>()(
    z.object({ profileId, filters: dlqFiltersSchema.default({}) }),
    'read',
  ),
  'dlq.retry': call<{ messageId: string }>()(
    z.object({ profileId, dlqId, overrides: retryOverridesSchema.default({}) }),
    'write',
  ),
  'dlq.delete': call<{ deleted: string }>()(z.object({ profileId, dlqId }), 'write'),
  'dlq.bulk': stream<DlqBulkEvent>()(
    z.object({
      profileId,
      action: z.enum(['retry', 'delete']),
      target: dlqTargetSchema,
      overrides: retryOverridesSchema.default({}),
    }),
    'write',
  ),
};
