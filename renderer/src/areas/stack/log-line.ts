// The stack logs structured JSON (pino) to stderr. For people, each line becomes
// "12:04:05 INFO  message  key=value …"; anything that is not such JSON is shown as it came.
const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'name', 'v']);

export interface LogLine {
  time?: string;
  level?: string;
  message: string;
  fields: string;
}

export function formatLogLine(raw: string): LogLine {
  let entry: Record<string, unknown>;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { message: raw, fields: '' };
    entry = parsed as Record<string, unknown>;
  } catch {
    return { message: raw, fields: '' };
  }
  const time = typeof entry.time === 'number' ? new Date(entry.time).toTimeString().slice(0, 8) : undefined;
  const level = typeof entry.level === 'number' ? (LEVELS[entry.level] ?? String(entry.level)) : undefined;
  const fields = Object.entries(entry)
    .filter(([key]) => !HIDDEN.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return { time, level, message: typeof entry.msg === 'string' ? entry.msg : '', fields };
}
