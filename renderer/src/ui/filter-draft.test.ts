import { describe, expect, it } from 'vitest';
import { describeDraft } from './filter-draft';

describe('describeDraft', () => {
  const words = [
    ['label', 'label'],
    ['url', 'URL'],
  ] as const;

  it('names the fields that have a value, in the order given, then the range', () => {
    const draft = { url: 'https://a.test', label: 'nightly', from: '2026-01-02T10:00', to: '' };
    expect(describeDraft(draft, words)).toBe('label nightly, URL https://a.test, from 2026-01-02 10:00');
  });

  it('is empty when nothing is set', () => {
    expect(describeDraft({ url: '', label: '', from: '', to: '' }, words)).toBe('');
  });
});
