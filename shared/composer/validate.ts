// Checks a composer model as the user types: errors block sending, warnings only inform. Every message says
// what is wrong and how to write it instead, reusing the same parsers the local stack validates with.
import { headerValueProblem, isValidHeaderName } from '../headers';
import { parseFlowControlValue } from '../messages/flow-control';
import { MAX_DELAY_DAYS, MAX_DELAY_MS } from '../messages/limits';
import { checkName, parseLabels } from '../messages/names';
import {
  checkBodySize,
  parseDelay,
  parseRetries,
  parseTimeout,
  problemOf,
  utf8Length,
} from '../messages/settings';
import { checkRetryDelay } from '../retry-delay';
import type { CallbackModel, ComposerModel, HeaderRow } from './model';

/** Field path (`url`, `headers.2.name`, `callback.retries`) → message. */
export type FieldMessages = Record<string, string>;

export interface Validation {
  errors: FieldMessages;
  warnings: FieldMessages;
}

export function checkHttpUrl(value: string, what: string): string | undefined {
  const text = value.trim();
  if (text === '') return `${what} is empty`;
  if (!/^https?:\/\//i.test(text)) return `${what} must start with http:// or https://`;
  try {
    const url = new URL(text);
    if (url.hostname === '') return `${what} has no host`;
  } catch {
    return `${what} is not a valid URL`;
  }
  return undefined;
}

/** Field checks (message or undefined), with the service's rules from shared/messages/settings.ts. */
export const checkDelay = (value: string): string | undefined => problemOf(parseDelay(value));
export const checkTimeout = (value: string): string | undefined => problemOf(parseTimeout(value));
export const checkRetries = (value: string): string | undefined => problemOf(parseRetries(value));

/** The `Upstash-Flow-Control-Value` a model asks for ('' when none of its parts is set). */
export function flowControlValueOf(model: ComposerModel): string {
  const parts: string[] = [];
  if (model.flowControlParallelism.trim()) parts.push(`parallelism=${model.flowControlParallelism.trim()}`);
  if (model.flowControlRate.trim()) parts.push(`rate=${model.flowControlRate.trim()}`);
  if (model.flowControlPeriod.trim()) parts.push(`period=${model.flowControlPeriod.trim()}`);
  return parts.join(', ');
}

function checkHeaderRows(rows: HeaderRow[], prefix: string, errors: FieldMessages): void {
  rows.forEach((row, index) => {
    if (!row.enabled) return;
    const name = row.name.trim();
    if (name === '' && row.value === '') return;
    if (name === '') errors[`${prefix}.${index}.name`] = 'header name is empty';
    else if (!isValidHeaderName(name)) {
      errors[`${prefix}.${index}.name`] = `'${name}' is not a valid header name (no spaces or ':')`;
    }
    const problem = headerValueProblem(row.value);
    if (problem) errors[`${prefix}.${index}.value`] = problem;
  });
}

function hasCallbackSettings(callback: CallbackModel): boolean {
  return (
    callback.method !== '' ||
    callback.retries.trim() !== '' ||
    callback.retryDelay.trim() !== '' ||
    callback.timeout.trim() !== '' ||
    callback.headers.some((row) => row.enabled && row.name.trim() !== '')
  );
}

function checkCallback(
  callback: CallbackModel,
  key: 'callback' | 'failureCallback',
  what: string,
  required: boolean,
  errors: FieldMessages,
): void {
  const url = callback.url.trim();
  if (url === '') {
    if (required) errors[`${key}.url`] = `api/llm needs a callback: the model's answer is delivered there`;
    else if (hasCallbackSettings(callback)) {
      errors[`${key}.url`] = `set a ${what} URL, or clear its settings`;
    }
  } else {
    const problem = checkHttpUrl(url, `${what} URL`);
    if (problem) errors[`${key}.url`] = problem;
  }
  if (callback.retries.trim()) {
    const problem = checkRetries(callback.retries);
    if (problem) errors[`${key}.retries`] = problem;
  }
  if (callback.retryDelay.trim()) {
    const check = checkRetryDelay(callback.retryDelay);
    if (!check.ok) errors[`${key}.retryDelay`] = check.error;
  }
  if (callback.timeout.trim()) {
    const problem = checkTimeout(callback.timeout);
    if (problem) errors[`${key}.timeout`] = problem;
  }
  checkHeaderRows(callback.headers, `${key}.headers`, errors);
}

export function isJsonContentType(contentType: string): boolean {
  return /[/+]json\b/i.test(contentType);
}

/** Validates a model; `now` (unix ms) decides whether a not-before time is in the past. */
export function validateComposer(model: ComposerModel, now: number): Validation {
  const errors: FieldMessages = {};
  const warnings: FieldMessages = {};
  const kind = model.destinationKind;
  const target = kind === 'queue' ? model.queueTarget : kind;
  if (kind === 'queue') {
    const problem = checkName('queue', model.queue.trim());
    if (problem) errors.queue = problem;
  }
  if (target === 'url') {
    const problem = checkHttpUrl(model.url, 'destination URL');
    if (problem) errors.url = problem;
  } else if (target === 'group') {
    const problem = checkName('URL group', model.group.trim());
    if (problem) errors.group = problem;
  }
  if (kind === 'llm' && model.method !== 'POST') errors.method = 'api/llm is always POST';

  const contentTypeProblem = headerValueProblem(model.contentType);
  if (contentTypeProblem) errors.contentType = contentTypeProblem;
  const bodyTooBig = checkBodySize(utf8Length(model.body));
  if (bodyTooBig) errors.body = bodyTooBig;
  // Parsing a body that cannot be sent anyway would only slow typing down.
  else if (model.body !== '' && isJsonContentType(model.contentType)) {
    try {
      JSON.parse(model.body);
    } catch (error) {
      warnings.body = `not valid JSON (${error instanceof Error ? error.message : String(error)}); it is sent as typed`;
    }
  }
  if (
    model.body === '' &&
    isJsonContentType(model.contentType) &&
    model.method !== 'GET' &&
    model.method !== 'HEAD'
  ) {
    warnings.body = `empty, while Content-Type says ${model.contentType.trim()}: the destination may expect a JSON body`;
  }
  if ((model.method === 'GET' || model.method === 'HEAD') && model.body !== '') {
    warnings.body = `many servers ignore a body on ${model.method}`;
  }
  checkHeaderRows(model.headers, 'headers', errors);

  if (model.delay.trim()) {
    const problem = checkDelay(model.delay);
    if (problem) errors.delay = problem;
  }
  if (model.notBefore !== null) {
    if (model.notBefore * 1_000 < now) warnings.notBefore = 'in the past: the message is delivered at once';
    else if (model.notBefore * 1_000 - now > MAX_DELAY_MS)
      errors.notBefore = `more than ${MAX_DELAY_DAYS} days ahead`;
    if (model.delay.trim()) warnings.delay = 'an earliest time is set: it wins, and this delay is ignored';
  }
  if (model.retries.trim()) {
    const problem = checkRetries(model.retries);
    if (problem) errors.retries = problem;
  }
  if (model.retryDelay.trim()) {
    const check = checkRetryDelay(model.retryDelay);
    if (!check.ok) errors.retryDelay = check.error;
  }
  if (model.timeout.trim()) {
    const problem = checkTimeout(model.timeout);
    if (problem) errors.timeout = problem;
  }
  checkCallback(model.callback, 'callback', 'callback', kind === 'llm', errors);
  checkCallback(model.failureCallback, 'failureCallback', 'failure callback', false, errors);

  if (model.dedupMode === 'id') {
    const id = model.dedupId.trim();
    const problem = id === '' ? 'type a deduplication id, or choose another mode' : headerValueProblem(id);
    if (problem) errors.dedupId = problem;
  }
  if (model.labels.trim() && parseLabels(model.labels).length === 0) errors.labels = 'no label in this list';
  const labelsProblem = headerValueProblem(model.labels);
  if (labelsProblem) errors.labels = labelsProblem;

  const flowValue = flowControlValueOf(model);
  const flowKey = model.flowControlKey.trim();
  if (flowKey !== '' || flowValue !== '') {
    if (flowKey === '') errors.flowControlKey = 'flow control needs a key';
    const parsed = parseFlowControlValue(flowValue);
    if (!parsed.ok) {
      const field = /parallelism/.test(parsed.error)
        ? 'flowControlParallelism'
        : /rate/.test(parsed.error)
          ? 'flowControlRate'
          : /period/.test(parsed.error)
            ? 'flowControlPeriod'
            : 'flowControlParallelism';
      errors[field] = parsed.error;
    }
  }
  return { errors, warnings };
}
