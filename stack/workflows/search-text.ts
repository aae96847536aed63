// The searchable text of what a run records: its payload as given, a step's name and output (a wait's event
// data and a call's bodies decoded from base64), an error, the run's response.
import type { CallType } from '../store/workflow-store';

function json(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const decoded = (value: unknown): string =>
  typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : '';

/** The text of a log entry; a run's trigger (its entry 0, which creates it) has the payload as its body. */
export function entryText(trigger: boolean, callType: CallType, body: Buffer): string {
  if (trigger) return body.toString('utf8');
  const parsed = json(body);
  if (!parsed) return body.toString('utf8');
  if (callType === 'toCallback') return `${String(parsed.url ?? '')} ${decoded(parsed.body)}`;
  if (callType === 'fromCallback') return decoded(parsed.body);
  const name = typeof parsed.stepName === 'string' ? parsed.stepName : '';
  const out = typeof parsed.out === 'string' ? parsed.out : '';
  const waited = parsed.stepType === 'Wait' || parsed.stepType === 'WaitForWebhook';
  return `${name} ${waited ? decoded(out) : out}`;
}

/** The text of a failed attempt: the stack's error and the app's answer. */
export function errorText(error: string | undefined, body: Buffer): string {
  return `${error ?? ''} ${body.toString('utf8')}`;
}
