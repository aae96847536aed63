import { describe, expect, it } from 'vitest';
import { formatUtc, fromLocalInput, toLocalInput } from './local-time';

describe('local date-time ↔ Unix seconds', () => {
  it('round-trips through the input format in the local zone', () => {
    const seconds = 1_767_225_600 + 3_723;
    expect(fromLocalInput(toLocalInput(seconds))).toBe(seconds);
  });

  it('reads minutes-only values and refuses garbage', () => {
    const value = toLocalInput(1_767_225_600).slice(0, 16);
    expect(fromLocalInput(value)).toBe(1_767_225_600 - (1_767_225_600 % 60));
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('tomorrow')).toBeNull();
  });

  it('shows the UTC time the service gets', () => {
    expect(formatUtc(1_767_225_600)).toBe('2026-01-01 00:00:00 UTC');
  });
});
