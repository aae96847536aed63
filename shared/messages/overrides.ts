// What a DLQ retry may change about the original message, and the `Upstash-*` headers that carry it. The
// fields are checked with the same parsers as the composer's (shared/messages/settings.ts), so a value the
// composer takes is taken here too, with the same caps.
import { z } from 'zod';
import { canonicalHeaderName, HEADER, headerValueProblem, isValidHeaderName } from '../headers';
import { checkRetryDelay } from '../retry-delay';
import { isHttpUrl } from '../urls';
import { MAX_RETRIES } from './limits';
import { parseDelay, parseTimeout, timeoutHeaderValue } from './settings';

/** A trimmed string that `check` accepts; its error becomes the field's message. */
const checkedText = (check: (text: string) => { ok: true } | { ok: false; error: string }) =>
  z
    .string()
    .trim()
    .superRefine((text, ctx) => {
      const result = check(text);
      if (!result.ok) ctx.addIssue({ code: 'custom', message: result.error });
    });

const httpUrl = z.string().trim().refine(isHttpUrl, 'must be an http:// or https:// URL');

/** Settings a retry may override; each becomes an `Upstash-*` header on the retry request. */
/** A header value that can be sent; the message says what is wrong with one that cannot. */
export const headerValueSchema = z.string().superRefine((value, context) => {
  const problem = headerValueProblem(value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

export const retryOverridesSchema = z.object({
  retries: z.number().int().min(0).max(MAX_RETRIES).optional(),
  delay: checkedText(parseDelay).optional(),
  retryDelay: checkedText(checkRetryDelay).optional(),
  /** A duration; a bare number is seconds (as the composer and the service take it). */
  timeout: checkedText(parseTimeout).optional(),
  callback: httpUrl.optional(),
  failureCallback: httpUrl.optional(),
  /** Comma-separated labels. */
  label: z.string().trim().min(1).max(500).optional(),
  /** Headers for the destination (sent as `Upstash-Forward-<name>`), replacing the original's of that name. */
  forwardHeaders: z
    .record(z.string().refine(isValidHeaderName, 'not a valid header name'), headerValueSchema)
    .optional(),
});
export type RetryOverrides = z.input<typeof retryOverridesSchema>;

/** Retry overrides → the `Upstash-*` headers of the retry request; the service applies them on top. */
export function overrideHeaders(overrides: RetryOverrides = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  if (overrides.retries !== undefined) headers[HEADER.retries] = String(overrides.retries);
  if (overrides.delay) headers[HEADER.delay] = overrides.delay;
  if (overrides.retryDelay) headers[HEADER.retryDelay] = overrides.retryDelay;
  if (overrides.timeout) headers[HEADER.timeout] = timeoutHeaderValue(overrides.timeout);
  if (overrides.callback) headers[HEADER.callback] = overrides.callback;
  if (overrides.failureCallback) headers[HEADER.failureCallback] = overrides.failureCallback;
  if (overrides.label) headers[HEADER.label] = overrides.label;
  for (const [name, value] of Object.entries(overrides.forwardHeaders ?? {})) {
    headers[`${HEADER.forwardPrefix}${canonicalHeaderName(name)}`] = value;
  }
  return headers;
}
