import { describe, expect, it } from 'vitest';
import { checkRetryDelay, parseRetryDelay, RetryDelayError } from './retry-delay';

const evaluate = (source: string, retried = 0): number => parseRetryDelay(source).evaluate(retried);

describe('retry-delay expressions', () => {
  it('evaluates the documented examples', () => {
    expect(evaluate('1000')).toBe(1000);
    expect(evaluate('1000 * (1 + retried)', 2)).toBe(3000);
    expect(evaluate('pow(2, retried) * 1000', 3)).toBe(8000);
    expect(evaluate('max(1000, pow(2, retried) * 100)', 0)).toBe(1000);
    expect(evaluate('max(1000, pow(2, retried) * 100)', 5)).toBe(3200);
  });

  it('follows precedence, associativity, unary minus and every function', () => {
    expect(evaluate('2 + 3 * 4')).toBe(14);
    expect(evaluate('(2 + 3) * 4')).toBe(20);
    expect(evaluate('10 - 4 - 3')).toBe(3);
    expect(evaluate('100 / 10 / 5')).toBe(2);
    expect(evaluate('-2 * -3')).toBe(6);
    expect(evaluate('+5')).toBe(5);
    expect(evaluate('exp(0) + sqrt(16) + abs(-3)')).toBe(8);
    expect(evaluate('floor(1.7) + ceil(1.2) + round(2.5)')).toBe(6);
    expect(evaluate('min(5, 3, 9) + max(1, 7)')).toBe(10);
    expect(evaluate('1.5e3')).toBe(1500);
    expect(evaluate('  retried  ', 7)).toBe(7);
  });

  it('rejects bad input with a position and a readable reason', () => {
    const cases: [string, string, number][] = [
      ['', 'empty expression', 0],
      ['1000 *', 'expression ends too early', 6],
      [
        'foo(1)',
        "unknown name 'foo' at position 1 (use retried or pow, exp, sqrt, abs, floor, ceil, round, min, max)",
        0,
      ],
      ['retried + x', "unknown name 'x' at position 11", 10],
      ['pow(2)', 'pow() takes 2 arguments, got 1', 0],
      ['sqrt(1, 2)', 'sqrt() takes 1 argument, got 2', 0],
      ['max()', 'max() takes at least 1 arguments, got 0', 0],
      ['(1 + 2', "expected ')' to close ( at position 7, found 'end of expression'", 6],
      ['1 + 2)', "unexpected ')' at position 6", 5],
      ['1000; process.exit()', "unexpected character ';' at position 5", 4],
      ['pow 2', "expected '(' after 'pow' at position 5, found '2'", 4],
      ['2 ** 3', "unexpected '*' at position 4", 3],
    ];
    for (const [source, message, position] of cases) {
      const result = checkRetryDelay(source);
      expect(result, source).toEqual({ ok: false, error: expect.stringContaining(message), position });
    }
    expect(() => parseRetryDelay('eval(1)')).toThrow(RetryDelayError);
  });

  it('refuses pathological input instead of overflowing the stack', () => {
    expect(checkRetryDelay('('.repeat(500) + '1' + ')'.repeat(500))).toMatchObject({ ok: false });
    expect(checkRetryDelay('-'.repeat(500) + '1')).toMatchObject({ ok: false });
    expect(checkRetryDelay('1+'.repeat(600) + '1')).toMatchObject({
      ok: false,
      error: expect.stringContaining('longer'),
    });
  });

  it('lets odd results through for the caller to handle', () => {
    expect(evaluate('sqrt(-1)')).toBeNaN();
    expect(evaluate('1 / 0')).toBe(Infinity);
  });
});

describe('checkRetryDelay refuses expressions that give no usable delay (issue 9 item 17)', () => {
  it.each([
    ['1/0', /infinite \(Infinity ms\) when retried is 0/],
    ['-1', /negative \(-1 ms\) when retried is 0/],
    ['-5', /negative/],
    ['0/0', /not a number/],
    ['sqrt(-1)', /not a number/],
    ['1000 - retried * 200', /negative \(-200 ms\) when retried is 6/],
    ['1000/(retried - 3)', /negative .* when retried is 0/],
  ])('%s', (source, message) => {
    const check = checkRetryDelay(source);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.error).toMatch(message);
  });

  it('accepts expressions that stay finite and not negative up to the last retry', () => {
    for (const source of [
      '0',
      'pow(2, retried) * 1000',
      'max(1000, 100 * (1 + retried))',
      '1e12',
      'retried',
    ]) {
      expect(checkRetryDelay(source), source).toEqual({ ok: true });
    }
  });
});
