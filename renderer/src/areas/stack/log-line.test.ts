import { describe, expect, it } from 'vitest';
import { formatLogLine } from './log-line';

describe('formatLogLine', () => {
  it('turns a pino line into time, level, message and the remaining fields', () => {
    const time = new Date(2026, 10, 21, 12, 4, 5).getTime();
    const line = formatLogLine(
      JSON.stringify({ level: 40, time, pid: 1, msg: 'kv: redis restarted', attempt: 2, url: 'redis://x' }),
    );
    expect(line).toEqual({
      time: '12:04:05',
      level: 'warn',
      message: 'kv: redis restarted',
      fields: 'attempt=2 url=redis://x',
    });
  });

  it('keeps lines that are not JSON objects as they came', () => {
    expect(formatLogLine('plain text from a child')).toEqual({
      message: 'plain text from a child',
      fields: '',
    });
    expect(formatLogLine('[1,2]')).toEqual({ message: '[1,2]', fields: '' });
    expect(formatLogLine('{broken')).toEqual({ message: '{broken', fields: '' });
  });
});
