// Retry overrides → the `Upstash-*` headers a DLQ retry request carries; the service applies them on top
// of the original message's settings.
import type { RetryOverrides } from '../../../../shared/bridge/procedures/dlq';
import { canonicalHeaderName } from '../../../../shared/headers';

export function overrideHeaders(overrides: RetryOverrides = {}): Record<string, string> {
  const headers: Record<string, string> = {};
  if (overrides.retries !== undefined) headers['Upstash-Retries'] = String(overrides.retries);
  if (overrides.delay) headers['Upstash-Delay'] = overrides.delay;
  if (overrides.retryDelay) headers['Upstash-Retry-Delay'] = overrides.retryDelay;
  if (overrides.timeout) headers['Upstash-Timeout'] = overrides.timeout;
  if (overrides.callback) headers['Upstash-Callback'] = overrides.callback;
  if (overrides.failureCallback) headers['Upstash-Failure-Callback'] = overrides.failureCallback;
  if (overrides.label) headers['Upstash-Label'] = overrides.label;
  for (const [name, value] of Object.entries(overrides.forwardHeaders ?? {})) {
    headers[`Upstash-Forward-${canonicalHeaderName(name)}`] = value;
  }
  return headers;
}
