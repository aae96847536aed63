// The overrides of a retry (message DLQ) or a restart/resume (workflow DLQ) as typed → what the job's start
// carries, checked with the schema main uses for it, so a field's problem shows under the field before
// anything is sent; and one line per override for previews, summaries and the Jobs screen. Blank fields
// keep the original's setting.
import type { z } from 'zod';
import { isValidHeaderName, isValidHeaderValue } from '../../../../shared/headers';
import { parseRetries } from '../../../../shared/messages/settings';

/** Every override field of either form, as typed. */
export interface OverridesDraft {
  retries: string;
  delay: string;
  retryDelay: string;
  timeout: string;
  label: string;
  /** `Name: value` per line: headers for the destination. */
  headers: string;
  flowControlKey: string;
  flowControlValue: string;
  failureCallback: string;
}

export const EMPTY_OVERRIDES: OverridesDraft = {
  retries: '',
  delay: '',
  retryDelay: '',
  timeout: '',
  label: '',
  headers: '',
  flowControlKey: '',
  flowControlValue: '',
  failureCallback: '',
};

export type OverrideErrors = Partial<Record<keyof OverridesDraft, string>>;

/** The draft's filled fields → overrides that `schema` (the procedure's own) accepts, or errors by field. */
export function toOverrides<S extends z.ZodType>(
  draft: OverridesDraft,
  schema: S,
): { overrides: z.input<S>; errors: OverrideErrors } {
  const errors: OverrideErrors = {};
  const overrides: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(draft) as [keyof OverridesDraft, string][]) {
    const text = raw.trim();
    if (!text || key === 'headers') continue;
    if (key === 'retries') {
      const parsed = parseRetries(text);
      if (parsed.ok) overrides.retries = parsed.value;
      else errors.retries = parsed.error;
    } else {
      overrides[key] = text;
    }
  }
  const headers = parseHeaderLines(draft.headers);
  if ('error' in headers) errors.headers = headers.error;
  else if (Object.keys(headers.headers).length > 0) overrides.forwardHeaders = headers.headers;
  if (overrides.flowControlValue !== undefined && overrides.flowControlKey === undefined) {
    errors.flowControlKey = 'a flow-control value needs a key';
  }
  const parsed = schema.safeParse(overrides);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]);
      const key = (field === 'forwardHeaders' ? 'headers' : field) as keyof OverridesDraft;
      errors[key] ??= issue.message;
    }
  }
  return { overrides: overrides as z.input<S>, errors };
}

function parseHeaderLines(text: string): { headers: Record<string, string> } | { error: string } {
  const headers: Record<string, string> = {};
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    const value = colon > 0 ? line.slice(colon + 1).trim() : '';
    if (!name || !isValidHeaderName(name)) return { error: `line ${index + 1}: write “Name: value”` };
    if (!isValidHeaderValue(value)) return { error: `line ${index + 1}: the value has a control character` };
    headers[name] = value;
  }
  return { headers };
}

const WORDS: Record<string, string> = {
  retries: 'retries',
  delay: 'delay',
  retryDelay: 'retry delay',
  timeout: 'timeout',
  label: 'labels',
  callback: 'callback',
  failureCallback: 'failure callback',
  flowControlKey: 'flow-control key',
  flowControlValue: 'flow control',
};

/** "retries 2", "labels replay", "X-Replay: yes": one line per override that is set. */
export function describeOverrides(overrides: Record<string, unknown> = {}): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined || value === '') continue;
    if (key === 'forwardHeaders') {
      for (const [name, header] of Object.entries(value as Record<string, string>))
        lines.push(`${name}: ${header}`);
    } else {
      lines.push(`${WORDS[key] ?? key} ${String(value)}`);
    }
  }
  return lines;
}
