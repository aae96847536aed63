// Test helpers for shared/'s parsers (durations, flow control values…) as tables: inputs with what they
// read as, and bad inputs each refused with an `{ ok: false, error }` whose text names the problem.
import { expect } from 'vitest';

type Table<T> = readonly (readonly [input: string, expected: T])[];

/** Each input reads as its value (numbers compared to 2 decimals, so `2us` is 0.002 ms). */
export function expectReads(parse: (text: string) => number | undefined, cases: Table<number>): void {
  for (const [input, value] of cases) expect(parse(input), input).toBeCloseTo(value);
}

export function expectRefusals(parse: (text: string) => unknown, cases: Table<string>): void {
  for (const [input, problem] of cases) {
    expect(parse(input), input).toMatchObject({ ok: false, error: expect.stringContaining(problem) });
  }
}
