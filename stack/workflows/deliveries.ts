// A run's messages and their delivery attempts, read from the message events the engine writes (ACTIVE at an
// attempt's start; DELIVERED or ERROR at its end; RETRY with the next due time; FAILED, CANCELLED): the
// run record's local-only `deliveries`, from which the console shows each attempt's status and duration.
import type { HeaderMap } from '../../shared/messages/types';
import type { DeliveryAttempt, FlowControlHold, RunDelivery } from '../../shared/workflows/types';
import type { MessageHistory } from '../store/workflow-store';

export type { MessageHistory };

interface EventData {
  error?: string;
  responseStatus?: number;
  responseHeader?: HeaderMap;
  responseBody?: string;
}

function header(headers: HeaderMap | undefined, name: string): string | undefined {
  for (const [key, values] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return values[0];
  return undefined;
}

/** The SDK's error message in a failed attempt's body (`{"error","message"}`), cut short. */
function sdkMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64').toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message.slice(0, 500) : undefined;
  } catch {
    return undefined;
  }
}

/** Each attempt: from its ACTIVE event to its DELIVERED or ERROR (absent while it runs). */
export function attemptsOf(history: MessageHistory | undefined): DeliveryAttempt[] {
  const attempts: DeliveryAttempt[] = [];
  let open: DeliveryAttempt | undefined;
  for (const event of history?.events ?? []) {
    if (event.state === 'ACTIVE') {
      open = { start: event.time };
      attempts.push(open);
      continue;
    }
    if (event.state !== 'DELIVERED' && event.state !== 'ERROR') continue;
    const data = (event.data ? JSON.parse(event.data) : {}) as EventData;
    // An outcome without its ACTIVE (not written for a message cancelled before it started) is an attempt of
    // unknown start.
    const attempt = open ?? { start: event.time };
    if (!open) attempts.push(attempt);
    open = undefined;
    attempt.end = event.time;
    if (data.responseStatus !== undefined) attempt.status = data.responseStatus;
    if (event.state === 'ERROR') {
      if (data.error) attempt.error = data.error;
      const message = sdkMessage(data.responseBody);
      if (message) attempt.message = message;
      const step = header(data.responseHeader, 'upstash-error-step-name');
      if (step) attempt.stepName = step;
    }
  }
  return attempts;
}

function stateOf(history: MessageHistory | undefined, attempts: DeliveryAttempt[]): RunDelivery['state'] {
  if (!history) return 'delivered';
  if (history.done) {
    const last = history.events[history.events.length - 1]?.state;
    return last === 'FAILED' ? 'failed' : last === 'CANCELLED' ? 'canceled' : 'delivered';
  }
  if (attempts.some((attempt) => attempt.end === undefined)) return 'delivering';
  return history.retried > 0 ? 'retrying' : 'scheduled';
}

export function delivery(
  base: Pick<RunDelivery, 'messageId' | 'kind' | 'createdAt'> & Partial<RunDelivery>,
  history: MessageHistory | undefined,
  hold: FlowControlHold | undefined,
  inflightSince?: number,
): RunDelivery {
  const attempts = attemptsOf(history);
  // An attempt in flight whose ACTIVE event is not written yet (it is, with the outcome or after 200 ms).
  const last = attempts[attempts.length - 1];
  if (inflightSince !== undefined && (!last || last.end !== undefined))
    attempts.push({ start: inflightSince });
  const state = stateOf(history, attempts);
  const out: RunDelivery = { ...base, state, attempts };
  if (history?.maxRetries !== undefined) out.maxRetries = history.maxRetries;
  if ((state === 'scheduled' || state === 'retrying') && history) out.dueAt = history.dueAt;
  if (hold) out.flowControl = hold;
  return out;
}
