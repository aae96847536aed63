// The Flow control screen without React: which keys the list shows and in what order, how a key's limits
// read, and the "why is nothing delivered?" sentence of a key and of one message it holds.
import { tryParseDuration } from '../../../../../shared/duration';
import {
  checkFlowControlPin,
  type FlowControlMessageHold,
  type FlowControlInfo,
  type FlowControlPin,
  type FlowKeyFilters,
  matchesFlowKey,
} from '../../../../../shared/messages/flow-control';
import { formatClock, plural } from '../../../ui/format';

/** How often a key's numbers refresh while the screen shows them. */
export const FLOW_CONTROL_REFRESH_MS = 2_000;

export type FlowKeySort = 'waiting' | 'key' | 'inflight';

export interface FlowKeyView {
  search: string;
  waitingOnly: boolean;
  sort: FlowKeySort;
}

/** The keys the list shows: matching the search (part of the key, any case), waiting ones only if asked. */
export function visibleKeys(keys: readonly FlowControlInfo[], view: FlowKeyView): FlowControlInfo[] {
  const filters = flowKeyFilters(view);
  const shown = keys.filter((key) => matchesFlowKey(key, filters));
  const byKey = (a: FlowControlInfo, b: FlowControlInfo) =>
    a.flowControlKey < b.flowControlKey ? -1 : a.flowControlKey > b.flowControlKey ? 1 : 0;
  const order =
    view.sort === 'key'
      ? byKey
      : view.sort === 'inflight'
        ? (a: FlowControlInfo, b: FlowControlInfo) => b.parallelismCount - a.parallelismCount || byKey(a, b)
        : (a: FlowControlInfo, b: FlowControlInfo) => b.waitListSize - a.waitListSize || byKey(a, b);
  return shown.sort(order);
}

/** The list's view as the filters a job over the shown keys takes (none set: every key). */
export function flowKeyFilters(view: Pick<FlowKeyView, 'search' | 'waitingOnly'>): FlowKeyFilters {
  const search = view.search.trim();
  return { ...(search ? { search } : {}), ...(view.waitingOnly ? { waitingOnly: true as const } : {}) };
}

/** A use against its limit: "3 of 5", or "3 · no limit" when the key has none (0 on the wire). */
export function usage(count: number, max: number): { text: string; ratio: number | undefined } {
  if (max <= 0) return { text: `${count.toLocaleString()} · no limit`, ratio: undefined };
  return { text: `${count.toLocaleString()} of ${max.toLocaleString()}`, ratio: Math.min(1, count / max) };
}

/** "per 60 s", "per 1 min", "per 2 h". */
export function periodText(seconds: number): string {
  if (seconds > 0 && seconds % 3600 === 0) return `per ${seconds / 3600} h`;
  if (seconds > 0 && seconds % 60 === 0) return `per ${seconds / 60} min`;
  return `per ${seconds} s`;
}

/** Why the key's messages wait (or that none do), in one sentence. */
export function explainKey(key: FlowControlInfo): string {
  const waiting = plural(key.waitListSize, 'message');
  if (key.isPaused) {
    return key.waitListSize > 0
      ? `Paused: ${waiting} wait${key.waitListSize === 1 ? 's' : ''} and nothing of this key starts until it is resumed.`
      : 'Paused: the next messages of this key will wait until it is resumed.';
  }
  if (key.waitListSize === 0) return 'Nothing waits: messages of this key start as soon as they are due.';
  if (key.parallelismMax > 0 && key.parallelismCount >= key.parallelismMax) {
    return `All ${plural(key.parallelismMax, 'slot')} are in flight: the next of the ${waiting} waiting starts when one finishes.`;
  }
  if (key.rateMax > 0 && key.rateCount >= key.rateMax) {
    const end =
      key.ratePeriodStart > 0 ? ` at ${formatClock((key.ratePeriodStart + key.ratePeriod) * 1000)}` : '';
    return `The rate of ${key.rateMax.toLocaleString()} ${periodText(key.ratePeriod)} is used up: the ${waiting} waiting ${key.waitListSize === 1 ? 'goes' : 'go'} on when the period ends${end}.`;
  }
  return `${waiting} waiting, about to start.`;
}

/** Why one message of the key is not delivered yet. */
export function explainHold(hold: FlowControlMessageHold): string {
  if (!hold.waiting) {
    return 'This key does not hold the message now: it is not due yet, in flight, or finished.';
  }
  const ahead = hold.ahead === 0 ? 'it is next in line' : `${plural(hold.ahead, 'message')} ahead of it`;
  return hold.isPaused
    ? `Held: the key is paused (${ahead} once it is resumed).`
    : `Waiting for the key's limits: ${ahead}.`;
}

export interface PinForm {
  parallelism: string;
  rate: string;
  /** A duration such as `1m`, or seconds. */
  period: string;
}

/** The pin form as it opens: the key's current settings. */
export function pinFormOf(key: FlowControlInfo): PinForm {
  return {
    parallelism: key.parallelismMax > 0 ? String(key.parallelismMax) : '',
    rate: key.rateMax > 0 ? String(key.rateMax) : '',
    period: key.rateMax > 0 && key.ratePeriod > 0 ? `${key.ratePeriod}s` : '',
  };
}

/** The pin a form asks for, or what is wrong with it, by field (empty fields are not pinned). */
export function readPinForm(form: PinForm): {
  pin?: FlowControlPin;
  errors: Partial<Record<keyof PinForm, string>>;
} {
  const errors: Partial<Record<keyof PinForm, string>> = {};
  const pin: FlowControlPin = {};
  for (const name of ['parallelism', 'rate'] as const) {
    const text = form[name].trim();
    if (text === '') continue;
    if (!/^\d+$/.test(text)) errors[name] = 'a whole number';
    else pin[name] = Number(text);
  }
  const period = form.period.trim();
  if (period !== '') {
    const parsed = tryParseDuration(period, { bareNumberAsSeconds: true });
    if (!parsed.ok || parsed.ms % 1000 !== 0) errors.period = 'whole seconds or a duration such as 1m';
    else pin.period = parsed.ms / 1000;
  }
  if (Object.keys(errors).length > 0) return { errors };
  const problem = checkFlowControlPin(pin);
  if (problem) {
    const field = (['parallelism', 'rate', 'period'] as const).find((name) => problem.startsWith(name));
    return { errors: { [field ?? 'parallelism']: problem } };
  }
  return { pin, errors };
}
