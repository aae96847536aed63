import { describe, expect, it } from 'vitest';
import { retryDelayText } from './duration';

describe('retryDelayText', () => {
  it('gives a plain number of milliseconds its unit and a readable length', () => {
    expect(retryDelayText('3600000')).toBe('3600000 ms (1 h 0 min)');
    expect(retryDelayText('2500')).toBe('2500 ms (2.5 s)');
    expect(retryDelayText('250')).toBe('250 ms');
  });

  it('shows an expression as the app wrote it', () => {
    expect(retryDelayText('1000 * pow(2, retried)')).toBe('1000 * pow(2, retried)');
    expect(retryDelayText(undefined)).toBeUndefined();
  });
});
