// `Upstash-Flow-Control-Value: parallelism=2, rate=10, period=1m`: any subset, comma-separated, spaces allowed.
import { tryParseDuration } from '../duration';

export interface FlowControlValue {
  parallelism?: number;
  rate?: number;
  /** Seconds; 1 when not given. */
  period: number;
}

export type FlowControlResult = { ok: true; value: FlowControlValue } | { ok: false; error: string };

/** Maximum period the service accepts (one week). */
export const MAX_FLOW_CONTROL_PERIOD_SECONDS = 7 * 86_400;
/** Largest parallelism or rate a message (or a pin) may set. */
export const MAX_FLOW_CONTROL_LIMIT = 1_000_000;
/** Longest flow-control key. */
export const MAX_FLOW_CONTROL_KEY_LENGTH = 200;

export function parseFlowControlValue(input: string): FlowControlResult {
  const value: FlowControlValue = { period: 1 };
  const seen = new Set<string>();
  for (const raw of input.split(',')) {
    const part = raw.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return { ok: false, error: `expected key=value in flow control value, got '${part}'` };
    const key = part.slice(0, eq).trim().toLowerCase();
    const text = part.slice(eq + 1).trim();
    if (seen.has(key)) return { ok: false, error: `'${key}' is given twice in flow control value` };
    seen.add(key);
    if (key === 'parallelism' || key === 'rate') {
      if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_FLOW_CONTROL_LIMIT) {
        return {
          ok: false,
          error: `${key} must be a whole number from 1 to ${MAX_FLOW_CONTROL_LIMIT}, got '${text}'`,
        };
      }
      value[key] = Number(text);
    } else if (key === 'period') {
      const parsed = tryParseDuration(text, { bareNumberAsSeconds: true });
      if (!parsed.ok) return { ok: false, error: `invalid flow control period: ${parsed.error}` };
      const seconds = Math.ceil(parsed.ms / 1_000);
      if (seconds < 1) return { ok: false, error: 'flow control period must be at least 1s' };
      if (seconds > MAX_FLOW_CONTROL_PERIOD_SECONDS) {
        return { ok: false, error: `flow control period '${text}' is longer than the maximum of 7d` };
      }
      value.period = seconds;
    } else {
      return { ok: false, error: `unknown flow control setting '${key}' (use parallelism, rate and period)` };
    }
  }
  if (value.parallelism === undefined && value.rate === undefined) {
    return {
      ok: false,
      error: 'flow control value needs parallelism or rate (e.g. parallelism=2, rate=10, period=1m)',
    };
  }
  return { ok: true, value };
}

export function formatFlowControlValue(value: FlowControlValue): string {
  const parts: string[] = [];
  if (value.parallelism !== undefined) parts.push(`parallelism=${value.parallelism}`);
  if (value.rate !== undefined) parts.push(`rate=${value.rate}`);
  parts.push(`period=${value.period}s`);
  return parts.join(', ');
}

// ---------------------------------------------------------------- the management API (`/v2/flowControl…`)

/** `GET /v2/flowControl/{key}`: a key's limits and what is in use now (the SDK's `FlowControlInfo`). */
export interface FlowControlInfo {
  flowControlKey: string;
  /** Messages (and workflow steps) that are due but held by the key. */
  waitListSize: number;
  /** 0 when the key has no parallelism limit. */
  parallelismMax: number;
  /** Attempts of the key in flight now. */
  parallelismCount: number;
  /** 0 when the key has no rate limit. */
  rateMax: number;
  /** Attempts started in the current rate period. */
  rateCount: number;
  /** Seconds. */
  ratePeriod: number;
  /** Unix seconds; 0 when no period is running. */
  ratePeriodStart: number;
  isPaused: boolean;
  isPinnedParallelism: boolean;
  isPinnedRate: boolean;
}

/** `GET /v2/globalParallelism`: attempts in flight over all keys, and the most there may be. */
export interface GlobalParallelismInfo {
  parallelismMax: number;
  parallelismCount: number;
}

/** `POST /v2/flowControl/{key}/pin?parallelism=&rate=&period=` (period in seconds). */
export interface FlowControlPin {
  parallelism?: number;
  rate?: number;
  period?: number;
}

/** `POST /v2/flowControl/{key}/unpin?parallelism=true&rate=true`. */
export interface FlowControlUnpin {
  parallelism?: boolean;
  rate?: boolean;
}

/** One bucket of a key's recent past (local stack only: `GET /local/flowControl/{key}/history`). */
export interface FlowControlHistoryPoint {
  /** Start of the bucket, unix ms. */
  at: number;
  /** The most messages waiting at once in the bucket. */
  waiting: number;
  /** Messages of the key delivered in the bucket. */
  delivered: number;
}

export interface FlowControlHistory {
  flowControlKey: string;
  bucketMs: number;
  points: FlowControlHistoryPoint[];
}

/**
 * Why a pending message with a flow-control key is not delivered yet (local stack only:
 * `GET /local/flowControl/{key}/messages/{messageId}`). `waiting` is false when the key does not hold it
 * (not due yet, in flight, or finished).
 */
export interface FlowControlMessageHold {
  flowControlKey: string;
  messageId: string;
  waiting: boolean;
  /** Messages of the key ahead of it in the waitlist. */
  ahead: number;
  isPaused: boolean;
}

/** A problem with a pin's values, or undefined when they are fine. */
export function checkFlowControlPin(pin: FlowControlPin): string | undefined {
  if (pin.parallelism === undefined && pin.rate === undefined && pin.period === undefined) {
    return 'pin needs parallelism, rate or period';
  }
  for (const name of ['parallelism', 'rate'] as const) {
    const value = pin[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > MAX_FLOW_CONTROL_LIMIT)) {
      return `${name} must be a whole number from 1 to ${MAX_FLOW_CONTROL_LIMIT}`;
    }
  }
  const period = pin.period;
  if (
    period !== undefined &&
    (!Number.isInteger(period) || period < 1 || period > MAX_FLOW_CONTROL_PERIOD_SECONDS)
  ) {
    return `period must be a whole number of seconds from 1 to ${MAX_FLOW_CONTROL_PERIOD_SECONDS} (7 days)`;
  }
  return undefined;
}

/** Which keys the Flow control list shows: its search and its "waiting only" switch. */
export interface FlowKeyFilters {
  /** Part of the key, any case (as the service's `?search=`). */
  search?: string;
  /** Only keys with waiting messages (absent, not false, when off: false is no filter). */
  waitingOnly?: true;
}

/** The console's list and main's job plan (pause/resume/reset many keys) both filter with this. */
export function matchesFlowKey(key: FlowControlInfo, filters: FlowKeyFilters): boolean {
  const search = (filters.search ?? '').trim().toLowerCase();
  return (
    (!filters.waitingOnly || key.waitListSize > 0) &&
    (search === '' || key.flowControlKey.toLowerCase().includes(search))
  );
}
