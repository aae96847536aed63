// Small formatting helpers for service data: times, relative times, counts.

/** `2026-08-21 14:03:07` in local time (what an operator compares with their logs). */
export function formatTime(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}:${pad(date.getSeconds())}`;
}

/** `14:03:07` for a time today, `2026-08-21 14:03:07` for one on another day (a note may outlast its day). */
export function formatTimeOfDay(ms: number, now: number = Date.now()): string {
  const text = formatTime(ms);
  return text.slice(0, 10) === formatTime(now).slice(0, 10) ? text.slice(11) : text;
}

/** `12:03:07.120` — for attempt trails, where milliseconds matter. */
export function formatClock(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

/**
 * How far the active profile's service clock is ahead of this computer's: the local stack's clock can be moved
 * forward (renderer/src/clock/), and the times it records are its own. 0 for every other profile.
 */
let serviceClockOffsetMs = 0;

export function setServiceClockOffset(ms: number): void {
  serviceClockOffsetMs = ms;
}

/** "Now" as the active profile's service counts it. */
export function serviceNow(): number {
  return Date.now() + serviceClockOffsetMs;
}

/** `just now`, `5 s ago`, `3 min ago`, `2 h ago`, `4 d ago`; `in 5 min` for the future. */
export function formatRelative(ms: number | undefined, now: number = serviceNow()): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const diff = Math.round((now - ms) / 1000);
  const future = diff < 0;
  const abs = Math.abs(diff);
  let text: string;
  if (abs < 3) return 'just now';
  if (abs < 60) text = `${abs} s`;
  else if (abs < 3600) text = `${Math.round(abs / 60)} min`;
  else if (abs < 86_400) text = `${Math.round(abs / 3600)} h`;
  else text = `${Math.round(abs / 86_400)} d`;
  return future ? `in ${text}` : `${text} ago`;
}

/** `1 endpoint`, `3 endpoints`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}
