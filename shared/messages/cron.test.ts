import { describe, expect, it } from 'vitest';
import { expectRefusals } from '../testing/parse-tables';
import { nextTick, nextTicks, parseCron, storedCronSpec, type CronSpec } from './cron';

function spec(text: string): CronSpec {
  const parsed = parseCron(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

const iso = (times: number[]): string[] => times.map((time) => new Date(time).toISOString());

describe('parseCron', () => {
  it('reads five fields, with or without a zone prefix, whitespace collapsed', () => {
    expect(parseCron('*/10 * * * * ')).toEqual({
      ok: true,
      value: { text: '*/10 * * * *', expression: '*/10 * * * *' },
    });
    expect(parseCron('CRON_TZ=Europe/Berlin  17 3 * * *')).toEqual({
      ok: true,
      value: {
        text: 'CRON_TZ=Europe/Berlin 17 3 * * *',
        expression: '17 3 * * *',
        timezone: 'Europe/Berlin',
      },
    });
    expect(parseCron('TZ=America/New_York 0 4 * * MON-FRI')).toMatchObject({
      ok: true,
      value: { timezone: 'America/New_York', expression: '0 4 * * MON-FRI' },
    });
    expect(parseCron('@daily')).toMatchObject({ ok: true, value: { expression: '@daily' } });
  });

  it('reads a stored cron (its text) back as the same spec', () => {
    for (const input of [
      '*/10  * * * *',
      'CRON_TZ=Europe/Berlin 17 3 * * *',
      'TZ=Asia/Tokyo @daily',
      '@weekly',
    ]) {
      const parsed = parseCron(input);
      if (!parsed.ok) throw new Error(parsed.error);
      expect(storedCronSpec(parsed.value.text)).toEqual(parsed.value);
    }
  });

  it('refuses what is wrong, naming the problem', () => {
    expectRefusals(parseCron, [
      ['', 'empty'],
      ['* * * *', 'five fields'],
      ['* * * * * *', 'this one has 6'],
      ['61 * * * *', 'minute: 61'],
      ['a b c d e', 'illegal characters'],
      ['*/0 * * * *', 'stepping'],
      ['0 0 30 2 *', 'never fires'],
      ['CRON_TZ=Mars/Base * * * * *', "unknown time zone 'Mars/Base'"],
      ['CRON_TZ= * * * * *', "unknown time zone ''"],
      ['CRON_TZ=Europe/Berlin', 'this one has 0'],
    ]);
  });
});

describe('next fire times', () => {
  it('are in UTC without a prefix, strictly after the given time', () => {
    const every = spec('* * * * *');
    const minute = Date.UTC(2026, 0, 1, 12, 0);
    expect(nextTick(every, minute)).toBe(minute + 60_000);
    expect(nextTick(every, minute - 1)).toBe(minute);
    expect(iso(nextTicks(spec('17 3 * * *'), Date.UTC(2026, 0, 1), 2))).toEqual([
      '2026-01-01T03:17:00.000Z',
      '2026-01-02T03:17:00.000Z',
    ]);
  });

  it('follow the zone of CRON_TZ', () => {
    expect(iso(nextTicks(spec('CRON_TZ=America/New_York 0 4 * * *'), Date.UTC(2026, 0, 1), 1))).toEqual([
      '2026-01-01T09:00:00.000Z',
    ]);
  });

  it('handle DST: a fixed time in the spring gap runs after it, a repeated time once', () => {
    const fixed = spec('CRON_TZ=Europe/Berlin 30 2 * * *');
    // 2026-03-29: 02:00 → 03:00 in Berlin, so 02:30 does not exist that day.
    expect(iso(nextTicks(fixed, Date.UTC(2026, 2, 28), 3))).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    // 2026-10-25: 03:00 → 02:00, so 02:30 happens twice; a fixed-time job runs once.
    expect(iso(nextTicks(fixed, Date.UTC(2026, 9, 24), 3))).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('an interval job runs on both repeated times of a fall-back', () => {
    const halfHourly = spec('CRON_TZ=Europe/Berlin */30 * * * *');
    expect(iso(nextTicks(halfHourly, Date.UTC(2026, 9, 25, 0, 10), 4))).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T01:00:00.000Z', // 02:00 CET
      '2026-10-25T01:30:00.000Z', // 02:30 CET
      '2026-10-25T02:00:00.000Z',
    ]);
  });
});

describe('cron in words', () => {
  it('says the expression and its zone', async () => {
    const { describeCron } = await import('./cron-words');
    expect(describeCron('CRON_TZ=Europe/Berlin 17 3 * * *')).toBe('Every day at 03:17, Europe/Berlin');
    expect(describeCron('*/5 * * * *')).toBe('Every 5 minutes, UTC');
    expect(describeCron('0 9 * * MON-FRI')).toBe('At 09:00, Monday through Friday, UTC');
  });
});
