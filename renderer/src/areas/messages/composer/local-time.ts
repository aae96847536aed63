// The earliest-delivery picker works in the user's local time (`<input type="datetime-local">`); the
// service takes Unix seconds, UTC. These two convert between them.

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** Unix seconds → `YYYY-MM-DDTHH:mm:ss` in local time (the input's value format). */
export function toLocalInput(unixSeconds: number): string {
  const d = new Date(unixSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The input's value (local time) → Unix seconds; null for an empty or unreadable value. */
export function fromLocalInput(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '0'] = match;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  return Number.isNaN(date.getTime()) ? null : Math.floor(date.getTime() / 1000);
}

/** `2026-01-01 09:30:00 UTC`: what the service will see, shown next to the local picker. */
export function formatUtc(unixSeconds: number): string {
  return `${new Date(unixSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}
