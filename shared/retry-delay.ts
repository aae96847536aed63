// `Upstash-Retry-Delay` expressions: arithmetic over the variable `retried` whose value is a delay in
// milliseconds, e.g. `pow(2, retried) * 1000` or `max(1000, 100 * (1 + retried))`.
// A small recursive-descent parser (never eval): the stack checks expressions at publish time and evaluates
// them after each failed attempt; the console's composer reuses the same checker while the user types.

import { MAX_RETRIES } from './messages/limits';

export class RetryDelayError extends Error {
  override name = 'RetryDelayError';
  /** 0-based character position in the expression where the problem was found. */
  readonly position: number;
  constructor(message: string, position: number) {
    super(message);
    this.position = position;
  }
}

type BinaryOp = '+' | '-' | '*' | '/';

type Node =
  | { kind: 'number'; value: number }
  | { kind: 'retried' }
  | { kind: 'unary'; op: '-' | '+'; operand: Node }
  | { kind: 'binary'; op: BinaryOp; left: Node; right: Node }
  | { kind: 'call'; name: FunctionName; args: Node[] };

const FUNCTIONS = {
  pow: { min: 2, max: 2, fn: (a: number[]) => Math.pow(a[0] as number, a[1] as number) },
  exp: { min: 1, max: 1, fn: (a: number[]) => Math.exp(a[0] as number) },
  sqrt: { min: 1, max: 1, fn: (a: number[]) => Math.sqrt(a[0] as number) },
  abs: { min: 1, max: 1, fn: (a: number[]) => Math.abs(a[0] as number) },
  floor: { min: 1, max: 1, fn: (a: number[]) => Math.floor(a[0] as number) },
  ceil: { min: 1, max: 1, fn: (a: number[]) => Math.ceil(a[0] as number) },
  round: { min: 1, max: 1, fn: (a: number[]) => Math.round(a[0] as number) },
  min: { min: 1, max: Infinity, fn: (a: number[]) => Math.min(...a) },
  max: { min: 1, max: Infinity, fn: (a: number[]) => Math.max(...a) },
} as const;
type FunctionName = keyof typeof FUNCTIONS;

/** Names the expression may use, for completion lists and error messages. */
export const RETRY_DELAY_FUNCTIONS = Object.keys(FUNCTIONS) as FunctionName[];

type Token =
  | { kind: 'number'; value: number; pos: number; text: string }
  | { kind: 'name'; value: string; pos: number; text: string }
  | { kind: 'op'; value: string; pos: number; text: string }
  | { kind: 'end'; pos: number; text: string };

const MAX_LENGTH = 1_000;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const char = source[i] as string;
    if (/\s/.test(char)) {
      i++;
      continue;
    }
    const number = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(i))?.[0];
    if (number) {
      tokens.push({ kind: 'number', value: Number(number), pos: i, text: number });
      i += number.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))?.[0];
    if (name) {
      tokens.push({ kind: 'name', value: name, pos: i, text: name });
      i += name.length;
      continue;
    }
    if ('+-*/(),'.includes(char)) {
      tokens.push({ kind: 'op', value: char, pos: i, text: char });
      i++;
      continue;
    }
    throw new RetryDelayError(`unexpected character '${char}' at position ${i + 1}`, i);
  }
  tokens.push({ kind: 'end', pos: source.length, text: 'end of expression' });
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.index] as Token;
  }
  private next(): Token {
    return this.tokens[this.index++] as Token;
  }
  private isOp(value: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.value === value;
  }
  private expectOp(value: string, context: string): void {
    const token = this.next();
    if (token.kind !== 'op' || token.value !== value) {
      throw new RetryDelayError(
        `expected '${value}' ${context} at position ${token.pos + 1}, found '${token.text}'`,
        token.pos,
      );
    }
  }

  parseAll(): Node {
    const node = this.expression();
    const token = this.peek();
    if (token.kind !== 'end') {
      throw new RetryDelayError(`unexpected '${token.text}' at position ${token.pos + 1}`, token.pos);
    }
    return node;
  }

  private expression(): Node {
    return this.leftAssociative(['+', '-'], () => this.term());
  }

  private term(): Node {
    return this.leftAssociative(['*', '/'], () => this.unary());
  }

  /** `operand (op operand)*` for one precedence level, grouped from the left. */
  private leftAssociative(ops: readonly BinaryOp[], operand: () => Node): Node {
    let left = operand();
    while (ops.some((op) => this.isOp(op))) {
      const op = this.next().text as BinaryOp;
      left = { kind: 'binary', op, left, right: operand() };
    }
    return left;
  }

  private unary(): Node {
    if (this.isOp('-') || this.isOp('+')) {
      const op = this.next().text as '-' | '+';
      return this.nested(() => ({ kind: 'unary', op, operand: this.unary() }));
    }
    return this.primary();
  }

  // Bounds recursion so that a pathological input is an error, not a stack overflow.
  private nested(parse: () => Node): Node {
    if (++this.depth > 100) throw new RetryDelayError('expression is nested too deeply', this.peek().pos);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private primary(): Node {
    const token = this.next();
    if (token.kind === 'number') {
      if (!Number.isFinite(token.value)) {
        throw new RetryDelayError(`number '${token.text}' is too large`, token.pos);
      }
      return { kind: 'number', value: token.value };
    }
    if (token.kind === 'name') {
      if (token.value === 'retried') return { kind: 'retried' };
      if (Object.hasOwn(FUNCTIONS, token.value)) {
        const name = token.value as FunctionName;
        this.expectOp('(', `after '${name}'`);
        const args: Node[] = [];
        if (!this.isOp(')')) {
          args.push(this.nested(() => this.expression()));
          while (this.isOp(',')) {
            this.next();
            args.push(this.nested(() => this.expression()));
          }
        }
        this.expectOp(')', `to close ${name}(`);
        const spec = FUNCTIONS[name];
        if (args.length < spec.min || args.length > spec.max) {
          const want = spec.max === Infinity ? `at least ${spec.min}` : `${spec.min}`;
          throw new RetryDelayError(
            `${name}() takes ${want} argument${spec.min === 1 && spec.max === 1 ? '' : 's'}, got ${args.length}`,
            token.pos,
          );
        }
        return { kind: 'call', name, args };
      }
      throw new RetryDelayError(
        `unknown name '${token.value}' at position ${token.pos + 1} (use retried or ${RETRY_DELAY_FUNCTIONS.join(', ')})`,
        token.pos,
      );
    }
    if (token.kind === 'op' && token.value === '(') {
      const inner = this.nested(() => this.expression());
      this.expectOp(')', 'to close (');
      return inner;
    }
    if (token.kind === 'end') {
      throw new RetryDelayError(
        token.pos === 0 ? 'empty expression' : 'expression ends too early',
        token.pos,
      );
    }
    throw new RetryDelayError(`unexpected '${token.text}' at position ${token.pos + 1}`, token.pos);
  }
}

function evaluate(node: Node, retried: number): number {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'retried':
      return retried;
    case 'unary':
      return node.op === '-' ? -evaluate(node.operand, retried) : evaluate(node.operand, retried);
    case 'binary': {
      const left = evaluate(node.left, retried);
      const right = evaluate(node.right, retried);
      if (node.op === '+') return left + right;
      if (node.op === '-') return left - right;
      if (node.op === '*') return left * right;
      return left / right;
    }
    case 'call':
      return FUNCTIONS[node.name].fn(node.args.map((arg) => evaluate(arg, retried)));
  }
}

export interface RetryDelayExpression {
  readonly source: string;
  /**
   * The delay in milliseconds before the next attempt, given how many retries were already made
   * (`retried` is 0 when the first attempt has just failed). May be NaN, infinite or negative for odd
   * expressions such as `sqrt(-1)`; the caller decides what to do with those.
   */
  evaluate(retried: number): number;
}

/** Parses an expression; throws RetryDelayError with a position and a readable message. */
export function parseRetryDelay(source: string): RetryDelayExpression {
  if (source.length > MAX_LENGTH)
    throw new RetryDelayError(`expression is longer than ${MAX_LENGTH} characters`, 0);
  const ast = new Parser(tokenize(source)).parseAll();
  return { source, evaluate: (retried) => evaluate(ast, retried) };
}

export type RetryDelayCheck = { ok: true } | { ok: false; error: string; position: number };

/**
 * Validation without exceptions, for forms and the service's publish check. An expression must also give a
 * usable delay — a finite number of milliseconds, not negative — for every `retried` a message can reach
 * (0 to MAX_RETRIES − 1): `1/0`, `-1` or `retried - 5` would otherwise be replaced by the default backoff
 * without a word.
 */
export function checkRetryDelay(source: string): RetryDelayCheck {
  try {
    const expression = parseRetryDelay(source);
    for (let retried = 0; retried < MAX_RETRIES; retried++) {
      const value = expression.evaluate(retried);
      if (Number.isFinite(value) && value >= 0) continue;
      const what = Number.isNaN(value) ? 'is not a number' : value < 0 ? 'is negative' : 'is infinite';
      return {
        ok: false,
        error: `the delay ${what} (${value} ms) when retried is ${retried}: it must be 0 or more milliseconds`,
        position: 0,
      };
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof RetryDelayError)
      return { ok: false, error: error.message, position: error.position };
    throw error;
  }
}

/** The service's default backoff: min(1 day, e^(2.5·(retried+1))) seconds (vendor table: 12 s, 2m28s, 30m8s, 6h7m, 24h). */
export const DEFAULT_BACKOFF_FACTOR = 2.5;
export const MAX_RETRY_DELAY_MS = 86_400_000;

/** Milliseconds before the next attempt under the default backoff, `retried` retries already made. */
export function defaultBackoffMs(retried: number, factor = DEFAULT_BACKOFF_FACTOR): number {
  return Math.round(Math.min(MAX_RETRY_DELAY_MS / 1_000, Math.exp(factor * (retried + 1))) * 1_000);
}
