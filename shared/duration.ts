// Durations as the message service writes them: `10s`, `5m`, `2h`, `1d`, and combinations such as `1d10h30m`.
// Pure and dependency-free: the stack validates headers with it and the console's composer validates input
// with it as the user types, so every error says what is wrong and how to write it instead.

export class DurationError extends Error {
  override name = 'DurationError';
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Upper bound for any duration we accept: 10 years is far beyond every limit of the service. */
const MAX_MS = 10 * 365 * 86_400_000;

export interface ParseDurationOptions {
  /** Accept a bare number as seconds (`"30"` = 30 s), as `Upstash-Timeout` does. Default false. */
  bareNumberAsSeconds?: boolean;
}

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

/** Parses `10s`, `1d10h30m`, … into milliseconds; the error names the problem (`unknown unit 'x' in '10x' …`). */
export function tryParseDuration(input: string, options: ParseDurationOptions = {}): DurationResult {
  const text = input.trim();
  if (text === '') return { ok: false, error: 'empty duration (write e.g. 10s, 5m, 2h, 1d or 1h30m)' };
  if (options.bareNumberAsSeconds && /^\d+$/.test(text)) {
    return checkRange(Number(text) * 1_000, input);
  }
  let total = 0;
  let index = 0;
  while (index < text.length) {
    const digits = /^\d+/.exec(text.slice(index))?.[0];
    if (!digits) {
      const char = text[index];
      if (char === '-') return { ok: false, error: `negative durations are not allowed: '${input}'` };
      if (char === '.')
        return { ok: false, error: `fractions are not allowed in '${input}' (write 1m30s, not 1.5m)` };
      if (index === 0) {
        return {
          ok: false,
          error: `'${text}' is not a duration: write a number and a unit (s, m, h or d), e.g. 30s or 1h30m`,
        };
      }
      if (/\s/.test(char ?? '')) {
        return { ok: false, error: `no spaces inside a duration: write ${text.replace(/\s+/g, '')}` };
      }
      return {
        ok: false,
        error: `unexpected '${text.slice(index)}' in '${text}': each part is a number and a unit, as in 1h30m`,
      };
    }
    index += digits.length;
    const unit = /^[a-zA-Zµ]+/.exec(text.slice(index))?.[0];
    if (!unit) {
      if (index >= text.length) {
        return {
          ok: false,
          error: `missing unit after '${digits}' in '${input}' (use s, m, h or d, e.g. ${digits}s)`,
        };
      }
      if (text[index] === '.') {
        return { ok: false, error: `fractions are not allowed in '${input}' (write 1m30s, not 1.5m)` };
      }
      return { ok: false, error: `unexpected '${text[index]}' in '${input}' (use s, m, h or d)` };
    }
    // Own units only: `constructor` and `toString` are letters too.
    const unitMs = Object.hasOwn(UNIT_MS, unit) ? UNIT_MS[unit] : undefined;
    if (unitMs === undefined)
      return { ok: false, error: `unknown unit '${unit}' in '${input}' (use s, m, h or d)` };
    index += unit.length;
    total += Number(digits) * unitMs;
    if (total > MAX_MS) break;
  }
  return checkRange(total, input);
}

function checkRange(ms: number, input: string): DurationResult {
  if (!Number.isFinite(ms) || ms > MAX_MS) return { ok: false, error: `duration '${input}' is too large` };
  return { ok: true, ms };
}

/** Like tryParseDuration but throws a DurationError. */
export function parseDuration(input: string, options?: ParseDurationOptions): number {
  const result = tryParseDuration(input, options);
  if (!result.ok) throw new DurationError(result.error);
  return result.ms;
}

/** Milliseconds as the shortest `1d2h3m4s` form (sub-second remainders are dropped; 0 is `0s`). */
export function formatDuration(ms: number): string {
  let rest = Math.floor(Math.max(0, ms) / 1_000);
  if (rest === 0) return '0s';
  let out = '';
  for (const [unit, seconds] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const count = Math.floor(rest / seconds);
    if (count > 0) {
      out += `${count}${unit}`;
      rest -= count * seconds;
    }
  }
  return out;
}

const GO_UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Go-style durations (`6m5s`, `1.5h`, `300ms`) as destinations send them in `Retry-After`-like headers.
 * Returns milliseconds, or undefined when the text is not such a duration.
 */
export function parseGoDuration(input: string): number | undefined {
  const text = input.trim();
  if (text === '' || text === '0') return text === '0' ? 0 : undefined;
  const part = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let index = 0;
  while (index < text.length) {
    part.lastIndex = index;
    const match = part.exec(text);
    if (!match) return undefined;
    total += Number(match[1]) * (GO_UNIT_MS[match[2] as string] as number);
    index = part.lastIndex;
  }
  return Number.isFinite(total) ? total : undefined;
}
