// Reads the JSON bodies of `POST /`, `/pipeline` and `/multi-exec` straight into Redis arguments.
//
// JSON.parse would turn 12345678901234567890 into 12345678901234567000 and 1.10 into 1.1; the REST
// API promises that a number reaches Redis as the text the client wrote, so numbers keep their literal
// text. Strings without escapes are taken as byte slices of the body (no decode/encode round trip).
import type { CommandList } from './commands';
import { decimalDigits, writeHeader, type RespArg } from './resp';

/** The body is not what the endpoint accepts; answered with 400 and this message. */
export class BadRequestError extends Error {}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

/** The byte a two-character JSON escape (`\n`, `\"`, …) stands for, by the byte after the backslash; 0: none. */
const SHORT_ESCAPES = new Uint8Array(256);
// Each pair: the character after the backslash, then what it stands for.
for (const pair of ['""', '\\\\', '//', 'b\b', 'f\f', 'n\n', 'r\r', 't\t']) {
  SHORT_ESCAPES[pair.charCodeAt(0)] = pair.charCodeAt(1);
}

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  fail(what: string): never {
    throw new BadRequestError(`ERR failed to parse request body: ${what} at byte ${this.pos}`);
  }

  skipSpace(): number {
    const buf = this.buf;
    while (this.pos < buf.length) {
      const c = buf[this.pos]!;
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return c;
      this.pos++;
    }
    return -1;
  }

  expect(byte: number, what: string): void {
    if (this.skipSpace() !== byte) this.fail(`expected ${what}`);
    this.pos++;
  }

  /** After an element: true if another one follows (a comma was consumed), false at the closing bracket. */
  more(close: number): boolean {
    const c = this.skipSpace();
    this.pos++;
    if (c === 44) return true;
    if (c === close) return false;
    this.pos--;
    return this.fail(c === -1 ? 'unexpected end' : 'expected , or ]');
  }

  /** Where the last element read by `element()` lies in the body (when it needed no decoding). */
  spanStart = 0;
  spanEnd = 0;

  /**
   * Reads one array element. Returns the decoded bytes of a string with escapes; otherwise undefined,
   * and the argument is exactly the body bytes [spanStart, spanEnd): string contents, a number's or
   * literal's text, or a nested array/object's JSON text (the SDK stringifies objects itself).
   */
  element(): Buffer | undefined {
    const c = this.skipSpace();
    if (c === 34) {
      const buf = this.buf;
      const start = this.pos + 1;
      for (let i = start; i < buf.length; i++) {
        const b = buf[i]!;
        if (b === 34) {
          this.spanStart = start;
          this.spanEnd = i;
          this.pos = i + 1;
          return undefined;
        }
        if (b === 92) return this.escapedString(start);
        if (b < 32) {
          this.pos = i;
          this.fail('control character in string');
        }
      }
      this.pos = buf.length;
      this.fail('unterminated string');
    }
    const start = this.pos;
    if (c === 45 || (c >= 48 && c <= 57)) this.number();
    else if (c === 116) this.literal(TRUE);
    else if (c === 102) this.literal(FALSE);
    else if (c === 110) this.literal(NULL);
    else if (c === 91 || c === 123) this.skipValue();
    else this.fail(c === -1 ? 'unexpected end' : 'unexpected character');
    this.spanStart = start;
    this.spanEnd = this.pos;
    return undefined;
  }

  /** One array element turned into a Redis argument. */
  arg(): RespArg {
    return this.element() ?? this.buf.subarray(this.spanStart, this.spanEnd);
  }

  literal(word: Buffer): void {
    if (!this.buf.subarray(this.pos, this.pos + word.length).equals(word)) this.fail('unknown literal');
    this.pos += word.length;
  }

  number(): void {
    const buf = this.buf;
    if (buf[this.pos] === 45) this.pos++;
    if (buf[this.pos] === 48) this.pos++;
    else if (!this.digits()) this.fail('malformed number');
    if (buf[this.pos] === 46) {
      this.pos++;
      if (!this.digits()) this.fail('malformed number');
    }
    if (buf[this.pos] === 101 || buf[this.pos] === 69) {
      this.pos++;
      if (buf[this.pos] === 43 || buf[this.pos] === 45) this.pos++;
      if (!this.digits()) this.fail('malformed number');
    }
  }

  digits(): boolean {
    const start = this.pos;
    while (this.pos < this.buf.length && this.buf[this.pos]! >= 48 && this.buf[this.pos]! <= 57) this.pos++;
    return this.pos > start;
  }

  private escapedString(start: number): Buffer {
    const buf = this.buf;
    const out: number[] = [];
    let i = start;
    const pushCodePoint = (cp: number): void => {
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) out.push(b);
    };
    while (i < buf.length) {
      const c = buf[i]!;
      if (c === 34) {
        this.pos = i + 1;
        return Buffer.from(out);
      }
      if (c < 32) {
        this.pos = i;
        this.fail('control character in string');
      }
      if (c !== 92) {
        out.push(c);
        i++;
        continue;
      }
      const e = buf[i + 1] ?? 0;
      i += 2;
      const short = SHORT_ESCAPES[e]!;
      if (short !== 0) {
        out.push(short);
        continue;
      }
      if (e !== 117) {
        this.pos = i - 1;
        this.fail('bad escape in string');
      }
      let cp = this.hex4(i);
      i += 4;
      if (cp >= 0xd800 && cp <= 0xdbff && buf[i] === 92 && buf[i + 1] === 117) {
        const low = this.hex4(i + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      // A lone surrogate has no UTF-8 form; it becomes U+FFFD, as TextEncoder would do.
      pushCodePoint(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
    }
    this.pos = buf.length;
    return this.fail('unterminated string');
  }

  private hex4(at: number): number {
    const text = this.buf.toString('latin1', at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(text)) {
      this.pos = at;
      this.fail('bad \\u escape');
    }
    return parseInt(text, 16);
  }

  /**
   * Skips any JSON value (used for nested arrays/objects, which are passed on as text). Iterative, with an
   * explicit stack of open brackets: a body nested 20,000 deep must be a 400 or an argument, never a stack
   * overflow.
   */
  skipValue(): void {
    const open: number[] = [];
    for (;;) {
      // One value: a scalar, or the opening of an array/object (its elements follow in the loop).
      const c = this.skipSpace();
      if (c === 91 || c === 123) {
        this.pos++;
        const close = c === 91 ? 93 : 125;
        if (this.skipSpace() === close) {
          this.pos++;
        } else {
          open.push(close);
          if (close === 125) this.key();
          continue;
        }
      } else {
        this.element();
      }
      // After a value: close every container that ends here; continue with the next element, if any.
      for (;;) {
        const close = open[open.length - 1];
        if (close === undefined) return;
        if (this.more(close)) {
          if (close === 125) this.key();
          break;
        }
        open.pop();
      }
    }
  }

  /** An object's `"key":` */
  private key(): void {
    if (this.skipSpace() !== 34) this.fail('expected a key');
    this.element();
    this.expect(58, ':');
  }

  /** `["CMD", arg, …]` */
  command(): RespArg[] {
    this.expect(91, 'a JSON array');
    const args: RespArg[] = [];
    if (this.skipSpace() === 93) {
      this.pos++;
      return args;
    }
    do args.push(this.arg());
    while (this.more(93));
    return args;
  }

  end(): void {
    if (this.skipSpace() !== -1) this.fail('trailing data');
  }
}

/** Body of `POST /`: one command. */
export function parseCommandBody(body: Buffer): RespArg[] {
  const reader = new Reader(body);
  const args = reader.command();
  reader.end();
  if (args.length === 0) throw new BadRequestError('ERR empty command');
  return args;
}

/** Body of `/pipeline` and `/multi-exec`: an array of commands. */
export function parseCommandsBody(body: Buffer): RespArg[][] {
  const reader = new Reader(body);
  reader.expect(91, 'a JSON array of commands');
  const commands: RespArg[][] = [];
  if (reader.skipSpace() === 93) {
    reader.pos++;
  } else {
    do {
      if (reader.skipSpace() !== 91) reader.fail('expected a command array');
      const args = reader.command();
      if (args.length === 0) throw new BadRequestError(`ERR empty command at index ${commands.length}`);
      commands.push(args);
    } while (reader.more(93));
  }
  reader.end();
  if (commands.length === 0) throw new BadRequestError('ERR empty pipeline request');
  return commands;
}

/**
 * The body of `/pipeline`, indexed instead of copied: each argument is a span of the body (or, for a
 * string with escapes, its decoded bytes). Encoding copies the spans straight into the RESP payload, so
 * the hot path allocates no object per argument. It is the SDK's main path: auto-pipelining sends
 * almost everything here.
 */
export class JsonCommandBatch implements CommandList {
  private constructor(
    private readonly body: Buffer,
    /** Per command: index of its first span and its argument count. */
    private readonly commands: number[],
    /** Per argument: [start, end) in the body, or [-1 - i, 0] for decoded[i]. */
    private readonly spans: number[],
    private readonly decoded: Buffer[],
  ) {}

  static parse(body: Buffer): JsonCommandBatch {
    const reader = new Reader(body);
    const commands: number[] = [];
    const spans: number[] = [];
    const decoded: Buffer[] = [];
    reader.expect(91, 'a JSON array of commands');
    if (reader.skipSpace() === 93) {
      reader.pos++;
    } else {
      do {
        if (reader.skipSpace() !== 91) reader.fail('expected a command array');
        reader.pos++;
        const first = spans.length / 2;
        if (reader.skipSpace() === 93) {
          throw new BadRequestError(`ERR empty command at index ${commands.length / 2}`);
        }
        do {
          const bytes = reader.element();
          if (bytes) {
            spans.push(-1 - decoded.length, 0);
            decoded.push(bytes);
          } else {
            spans.push(reader.spanStart, reader.spanEnd);
          }
        } while (reader.more(93));
        commands.push(first, spans.length / 2 - first);
      } while (reader.more(93));
    }
    reader.end();
    if (commands.length === 0) throw new BadRequestError('ERR empty pipeline request');
    return new JsonCommandBatch(body, commands, spans, decoded);
  }

  get length(): number {
    return this.commands.length / 2;
  }

  private arg(span: number): Buffer {
    const start = this.spans[2 * span]!;
    return start < 0 ? this.decoded[-1 - start]! : this.body.subarray(start, this.spans[2 * span + 1]);
  }

  /** The previous name and where its bytes are: pipelines mostly repeat a few commands. */
  private lastName = '';
  private lastStart = 0;
  private lastEnd = 0;

  name(i: number): string {
    const span = this.commands[2 * i]!;
    const start = this.spans[2 * span]!;
    if (start < 0) return this.decoded[-1 - start]!.toString('latin1').toLowerCase();
    const end = this.spans[2 * span + 1]!;
    const body = this.body;
    if (end - start === this.lastEnd - this.lastStart && this.lastName !== '') {
      let same = true;
      for (let k = 0; k < end - start; k++) {
        if (body[start + k] !== body[this.lastStart + k]) {
          same = false;
          break;
        }
      }
      if (same) return this.lastName;
    }
    this.lastName = body.toString('latin1', start, end).toLowerCase();
    this.lastStart = start;
    this.lastEnd = end;
    return this.lastName;
  }

  args(i: number): RespArg[] {
    const first = this.commands[2 * i]!;
    const count = this.commands[2 * i + 1]!;
    const args: RespArg[] = [];
    for (let a = 0; a < count; a++) args.push(this.arg(first + a));
    return args;
  }

  encode(indices?: readonly number[]): Buffer {
    const { body, commands, spans, decoded } = this;
    const n = indices ? indices.length : this.length;
    let total = 0;
    for (let k = 0; k < n; k++) {
      const i = indices ? indices[k]! : k;
      const first = commands[2 * i]!;
      const count = commands[2 * i + 1]!;
      total += 3 + decimalDigits(count);
      for (let a = first; a < first + count; a++) {
        const start = spans[2 * a]!;
        const len = start < 0 ? decoded[-1 - start]!.length : spans[2 * a + 1]! - start;
        total += 5 + decimalDigits(len) + len;
      }
    }
    const out = Buffer.allocUnsafe(total);
    let offset = 0;
    for (let k = 0; k < n; k++) {
      const i = indices ? indices[k]! : k;
      const first = commands[2 * i]!;
      const count = commands[2 * i + 1]!;
      offset = writeHeader(out, offset, 42, count);
      for (let a = first; a < first + count; a++) {
        const start = spans[2 * a]!;
        if (start < 0) {
          const bytes = decoded[-1 - start]!;
          offset = writeHeader(out, offset, 36, bytes.length);
          offset += bytes.copy(out, offset);
        } else {
          const end = spans[2 * a + 1]!;
          offset = writeHeader(out, offset, 36, end - start);
          if (end - start < 64) {
            for (let k = start; k < end; k++) out[offset++] = body[k]!;
          } else {
            offset += body.copy(out, offset, start, end);
          }
        }
        out[offset++] = 13;
        out[offset++] = 10;
      }
    }
    return out;
  }
}
