import { expect, it } from 'vitest';
import { retryDelayText } from './duration';

it('gives a plain-number retry delay its unit and a readable length, and shows an expression as written', () => {
  const shown = ['3600000', '2500', '250', '1000 * pow(2, retried)', undefined].map(retryDelayText);
  expect(shown).toEqual([
    '3600000 ms (1 h 0 min)',
    '2500 ms (2.5 s)',
    '250 ms',
    '1000 * pow(2, retried)',
    undefined,
  ]);
});
