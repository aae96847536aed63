// Durations on the timeline: "850 ms", "4.2 s", "3 min 5 s", "2 h 10 min".
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/**
 * A step's retry delay is the `Upstash-Retry-Delay` expression as the app sent it, in milliseconds. A plain
 * number ("3600000") is hard to read, so it gets its unit and a readable length beside it; an expression is
 * shown as written.
 */
export function retryDelayText(expression: string | undefined): string | undefined {
  if (expression === undefined) return undefined;
  const trimmed = expression.trim();
  if (!/^\d+$/.test(trimmed)) return expression;
  const ms = Number(trimmed);
  return ms < 1000 ? `${ms} ms` : `${ms} ms (${formatDuration(ms)})`;
}
