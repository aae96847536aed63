// The "retry with overrides" form: text as typed → the overrides the bridge takes, with a message per
// field. Blank fields keep the original message's setting.
import { isValidHeaderName, isValidHeaderValue } from '../../../../shared/headers';
import type { RetryOverrides } from '../../../../shared/messages/overrides';
import { parseDelay, parseRetries, parseTimeout } from '../../../../shared/messages/settings';
import { checkRetryDelay } from '../../../../shared/retry-delay';

export interface OverridesDraft {
  retries: string;
  delay: string;
  retryDelay: string;
  timeout: string;
  label: string;
  /** `Name: value` per line. */
  headers: string;
}

export const EMPTY_OVERRIDES: OverridesDraft = {
  retries: '',
  delay: '',
  retryDelay: '',
  timeout: '',
  label: '',
  headers: '',
};

export function toOverrides(draft: OverridesDraft): {
  overrides: RetryOverrides;
  errors: Partial<Record<keyof OverridesDraft, string>>;
} {
  const overrides: RetryOverrides = {};
  const errors: Partial<Record<keyof OverridesDraft, string>> = {};
  const retries = draft.retries.trim();
  if (retries) {
    const parsed = parseRetries(retries);
    if (!parsed.ok) errors.retries = parsed.error;
    else overrides.retries = parsed.value;
  }
  // The same parsers as the composer's: a timeout of `30` (seconds) is taken, a delay over 365d is not.
  for (const [key, parse] of [
    ['delay', parseDelay],
    ['timeout', parseTimeout],
  ] as const) {
    const text = draft[key].trim();
    if (!text) continue;
    const parsed = parse(text);
    if (!parsed.ok) errors[key] = parsed.error;
    else overrides[key] = text;
  }
  const expression = draft.retryDelay.trim();
  if (expression) {
    const check = checkRetryDelay(expression);
    if (!check.ok) errors.retryDelay = check.error;
    else overrides.retryDelay = expression;
  }
  if (draft.label.trim()) overrides.label = draft.label.trim();
  const forward: Record<string, string> = {};
  const lines = draft.headers.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    const value = colon > 0 ? line.slice(colon + 1).trim() : '';
    if (!name || !isValidHeaderName(name)) {
      errors.headers = `line ${index + 1}: write “Name: value”`;
      break;
    }
    if (!isValidHeaderValue(value)) {
      errors.headers = `line ${index + 1}: the value has a control character`;
      break;
    }
    forward[name] = value;
  }
  if (Object.keys(forward).length > 0) overrides.forwardHeaders = forward;
  return { overrides, errors };
}

/** One line per override, for the confirmation ("Retries 0", "Delay 10s", …). */
export function describeOverrides(overrides: RetryOverrides): string[] {
  const lines: string[] = [];
  if (overrides.retries !== undefined) lines.push(`Retries: ${overrides.retries}`);
  if (overrides.delay) lines.push(`Delay: ${overrides.delay}`);
  if (overrides.retryDelay) lines.push(`Retry delay: ${overrides.retryDelay}`);
  if (overrides.timeout) lines.push(`Timeout: ${overrides.timeout}`);
  if (overrides.label) lines.push(`Labels: ${overrides.label}`);
  for (const [name, value] of Object.entries(overrides.forwardHeaders ?? {})) lines.push(`${name}: ${value}`);
  return lines;
}
