import { describe, expect, it } from 'vitest';
import { fuzzyScore } from './fuzzy';

describe('fuzzyScore', () => {
  it('rejects texts that lack the characters in order', () => {
    expect(fuzzyScore('qld', 'Go to DLQ')).toBeNull();
    expect(fuzzyScore('xyz', 'Messages')).toBeNull();
  });

  it('ranks word-start matches above scattered ones', () => {
    const wordStart = fuzzyScore('dlq', 'Go to DLQ')!;
    const scattered = fuzzyScore('dlq', 'Download queue')!;
    expect(wordStart).toBeGreaterThan(scattered);
  });

  it('matches everything with an empty query', () => {
    expect(fuzzyScore('', 'anything')).toBe(0);
  });
});
