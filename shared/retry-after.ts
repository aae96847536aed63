// How long a server asked its client to wait, from one `Retry-After`-like header value. The stack reads it
// from a destination's answer (stack/messages/backoff.ts); main reads it from a service's 429 or 503
// (main/core/http/service-http.ts), so a job waits as long as the service asked.
import { parseGoDuration } from './duration';

/**
 * Milliseconds to wait from `value`, or undefined when it says nothing readable. Accepted: seconds (`120`),
 * a unix time (rate-limit reset headers: seconds, or milliseconds when it is that large), an HTTP date
 * (`Wed, 21 Oct 2026 07:28:00 GMT`) and a Go duration (`6m5s`). A time already past is 0.
 */
export function waitFromHeaderValue(value: string | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let ms: number | undefined;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const number = Number(text);
    if (number > 1e12) ms = number - now;
    else if (number > 1e9) ms = number * 1_000 - now;
    else ms = number * 1_000;
  } else if (/[a-z]{3},/i.test(text)) {
    const date = Date.parse(text);
    ms = Number.isNaN(date) ? undefined : date - now;
  } else {
    ms = parseGoDuration(text);
  }
  return ms === undefined ? undefined : Math.max(0, ms);
}
