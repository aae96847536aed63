import { expect, it } from 'vitest';
import { waitFromHeaderValue } from './retry-after';

it('reads seconds, unix times in seconds or milliseconds, HTTP dates and Go durations as a wait in ms', () => {
  const now = Date.UTC(2026, 10, 28, 2, 0, 0);
  const read = (value: string | undefined) => waitFromHeaderValue(value, now);
  expect([read('120'), read('0'), read('1.5')]).toEqual([120_000, 0, 1500]);
  expect([read(String(now / 1000 + 30)), read(String(now + 2500)), read(String(now / 1000 - 5))]).toEqual([
    30_000, 2500, 0,
  ]);
  expect(read('Sat, 28 Nov 2026 02:01:00 GMT')).toBe(60_000);
  expect(read('6m5s')).toBe(365_000);
  expect([read(undefined), read(''), read('soon')]).toEqual([undefined, undefined, undefined]);
});
