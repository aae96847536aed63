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
      if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1_000_000) {
        return { ok: false, error: `${key} must be a whole number from 1 to 1000000, got '${text}'` };
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
