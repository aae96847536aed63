// The cron expressions of schedules (`Upstash-Cron`): five fields (minute hour day-of-month month
// day-of-week), optionally prefixed with `CRON_TZ=<IANA zone>` (or `TZ=`); without a prefix they run in UTC.
// Parsing, validation and the next fire times come from croner (time zones and DST included); the stack's
// scheduler and the console's cron field both use this module, so they agree on what is valid.
//
// DST (croner's rule, the same as Vixie cron): a fixed-time job (`30 2 * * *`) whose time falls in a
// spring-forward gap runs at the first valid time after the gap, and runs once when a fall-back repeats its
// time; an interval job (`*/30 * * * *`) skips the times of the gap and runs on both repeated times.
import { Cron } from 'croner';

export interface CronSpec {
  /** The expression as stored and shown: whitespace collapsed, the zone prefix kept as given. */
  text: string;
  /** The five fields (or a nickname such as `@daily`). */
  expression: string;
  /** The IANA zone of a `CRON_TZ=` / `TZ=` prefix; undefined = UTC. */
  timezone?: string;
}

export type CronResult = { ok: true; value: CronSpec } | { ok: false; error: string };

const ZONE_PREFIX = /^(CRON_TZ|TZ)=(\S*)$/;
const NICKNAMES = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@hourly']);

/** True when `zone` is an IANA time zone name this runtime knows. */
export function isTimeZone(zone: string): boolean {
  if (zone === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

// Compiled patterns, shared by schedules with the same expression and zone, least recently used first out.
// Kept very small: croner allocates a year table of 10,000 numbers in each (about 80 KB a pattern), and a
// cache that holds patterns long enough to survive a few garbage collections fills the old generation with
// them. Creating 10,000 schedules with 6,600 distinct crons through a cache of 200 drove the stack's V8 heap
// to 150–175 MB (most of it dead year tables) for 35 MB of live data; through a cache of 8 each table dies
// young. One request or one firing asks for the same few patterns several times in a row: 8 covers that.
const compiled = new Map<string, Cron>();
const MAX_COMPILED = 8;

function compile(expression: string, timezone: string | undefined): Cron {
  const key = `${timezone ?? ''} ${expression}`;
  let cron = compiled.get(key);
  if (cron) {
    compiled.delete(key);
    compiled.set(key, cron);
  } else {
    // No callback: croner only evaluates the pattern, it never starts a timer of its own. UTC as an offset:
    // a zone costs croner Intl conversions at every step (about 3 times slower).
    cron = new Cron(expression, timezone ? { timezone, mode: '5-part' } : { utcOffset: 0, mode: '5-part' });
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, cron);
  }
  return cron;
}

function describeProblem(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // croner's messages start with its class name ("CronPattern: Invalid value for minute: 61").
  return text.replace(/^Cron(Pattern|Date)?:\s*/, '');
}

/** The fields of a cron expression and its zone prefix, unchecked. */
function splitCron(input: string): { parts: string[]; prefix?: RegExpExecArray; timezone?: string } {
  const parts = input.trim().split(/\s+/).filter(Boolean);
  const prefix = parts.length > 0 ? ZONE_PREFIX.exec(parts[0] as string) : null;
  if (!prefix) return { parts };
  return { parts: parts.slice(1), prefix, timezone: prefix[2] as string };
}

/**
 * The spec of a cron that was valid when it was stored (parseCron's `text`), without checking it again:
 * compiling a pattern costs croner about a millisecond and 80 KB, which the stack's scheduler need not pay
 * for every schedule it loads or changes.
 */
export function storedCronSpec(text: string): CronSpec {
  const { parts, timezone } = splitCron(text);
  return { text, expression: parts.join(' '), timezone };
}

/** Parses and validates a cron expression, with its optional zone prefix. */
export function parseCron(input: string): CronResult {
  const { parts, prefix, timezone } = splitCron(input);
  if (parts.length === 0 && !prefix) return { ok: false, error: 'the cron expression is empty' };
  if (prefix && timezone !== undefined && !isTimeZone(timezone)) {
    return {
      ok: false,
      error: `unknown time zone '${timezone}' in ${prefix[1]}=: use an IANA zone such as Europe/Berlin or America/New_York`,
    };
  }
  const fields = parts.length === 1 && NICKNAMES.has((parts[0] as string).toLowerCase()) ? 1 : 5;
  if (parts.length !== fields) {
    return {
      ok: false,
      error: `a cron expression has five fields (minute hour day-of-month month day-of-week), this one has ${parts.length}`,
    };
  }
  const expression = parts.join(' ');
  let cron: Cron;
  try {
    cron = compile(expression, timezone);
  } catch (error) {
    return { ok: false, error: `invalid cron expression '${expression}': ${describeProblem(error)}` };
  }
  if (cron.nextRun(new Date(0)) === null && cron.nextRun() === null) {
    return { ok: false, error: `the cron expression '${expression}' never fires (no such date)` };
  }
  const text = timezone === undefined ? expression : `${prefix?.[1]}=${timezone} ${expression}`;
  return { ok: true, value: { text, expression, timezone } };
}

/** The first fire time strictly after `after` (unix ms), or undefined if there is none. */
export function nextTick(spec: CronSpec, after: number): number | undefined {
  // croner works in whole seconds and returns the first match after the given second.
  return compile(spec.expression, spec.timezone).nextRun(new Date(after))?.getTime();
}

/** The next `count` fire times after `after` (unix ms). */
export function nextTicks(spec: CronSpec, after: number, count: number): number[] {
  const out: number[] = [];
  let from = after;
  while (out.length < count) {
    const next = nextTick(spec, from);
    if (next === undefined) break;
    out.push(next);
    from = next;
  }
  return out;
}
