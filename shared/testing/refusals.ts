// Test helper for shared/'s parsers (durations, flow control values…): a table of bad inputs, each
// refused with an `{ ok: false, error }` whose text names the problem.
import { expect } from 'vitest';

export function expectRefusals(
  parse: (text: string) => unknown,
  cases: readonly (readonly [input: string, problem: string])[],
): void {
  for (const [input, problem] of cases) {
    expect(parse(input), input).toMatchObject({ ok: false, error: expect.stringContaining(problem) });
  }
}
