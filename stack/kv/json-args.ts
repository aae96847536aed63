// Reads the JSON bodies of `POST /`, `/pipeline` and `/multi-exec`: the first two straight into the RESP
// bytes sent to Redis (JsonCommandBatch), transactions into argument arrays.
//
// JSON.parse would turn 12345678901234567890 into 12345678901234567000 and 1.10 into 1.1; the REST
// API promises that a number reaches Redis as the text the client wrote, so numbers keep their literal
// text. Strings without escapes are taken as byte slices of the body (no decode/encode round trip).
import { ByteWriter } from './byte-writer';
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

  /** The byte length of the longest argument `command()` has read (CommandList.longestArg). */
  longestArg = 0;

  /** `["CMD", arg, …]` */
  command(): RespArg[] {
    this.expect(91, 'a JSON array');
    const args: RespArg[] = [];
    if (this.skipSpace() === 93) {
      this.pos++;
      return args;
    }
    do {
      const arg = this.arg();
      if (arg.length > this.longestArg) this.longestArg = arg.length;
      args.push(arg);
    } while (this.more(93));
    return args;
  }

  end(): void {
    if (this.skipSpace() !== -1) this.fail('trailing data');
  }
}

/** A `/multi-exec` body: its commands, and the byte length of their longest argument (CommandList.longestArg). */
export interface CommandsBody {
  commands: RespArg[][];
  longestArg: number;
}

/** Body of `/multi-exec`: an array of commands, as argument arrays (a transaction looks at every one). */
export function parseCommandsBody(body: Buffer): CommandsBody {
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
  return { commands, longestArg: reader.longestArg };
}

/**
 * The body of `POST /` or `/pipeline`, read straight into the RESP bytes Redis is sent (issue 26).
 *
 * Why not arguments first: reading the JSON into argument spans and then encoding those as RESP walked
 * every argument twice and was, with the reply body, the largest part of our own code in a pipeline's
 * profile (docs/stack-kv.md). Here each argument is written as a RESP bulk string the moment its end is
 * found, so the body is read once and the payload is ready when the last `]` is. The JSON grammar and
 * every error are those of `Reader` (the same code reads `/multi-exec`): a body JSON.parse rejects is a
 * 400 with the same message (json-args.test.ts checks that on malformed bodies).
 *
 * The few commands the bridge looks into (policy rules, extensions, JSON.*) get their names and
 * arguments back from the RESP bytes (`name`, `args`); encoding all commands is the payload itself.
 */
export class JsonCommandBatch implements CommandList {
  private constructor(
    /** Every command as a RESP array of bulk strings, in order. */
    private readonly resp: Buffer,
    /** Where each command starts in `resp`, and (last) where the final one ends. */
    private readonly starts: number[],
    readonly longestArg: number,
  ) {}

  /** Body of `/pipeline`: an array of commands. */
  static parse(body: Buffer): JsonCommandBatch {
    const reader = new Reader(body);
    const out = new RespOut(body.length);
    const starts: number[] = [];
    reader.expect(91, 'a JSON array of commands');
    if (reader.skipSpace() === 93) {
      reader.pos++;
    } else {
      do {
        if (reader.skipSpace() !== 91) reader.fail('expected a command array');
        starts.push(out.length);
        if (readCommand(reader, out) === 0) {
          throw new BadRequestError(`ERR empty command at index ${starts.length - 1}`);
        }
      } while (reader.more(93));
    }
    reader.end();
    if (starts.length === 0) throw new BadRequestError('ERR empty pipeline request');
    starts.push(out.length);
    return new JsonCommandBatch(out.done(), starts, out.longestArg);
  }

  /** Body of `POST /`: one command. */
  static parseOne(body: Buffer): JsonCommandBatch {
    const reader = new Reader(body);
    const out = new RespOut(body.length);
    const count = readCommand(reader, out);
    reader.end();
    if (count === 0) throw new BadRequestError('ERR empty command');
    return new JsonCommandBatch(out.done(), [0, out.length], out.longestArg);
  }

  get length(): number {
    return this.starts.length - 1;
  }

  /** The previous name and where its bytes are: pipelines mostly repeat a few commands. */
  private lastName = '';
  private lastStart = 0;
  private lastEnd = 0;

  name(i: number): string {
    const resp = this.resp;
    // `*<count>\r\n$<length>\r\n<name>\r\n…`, read in place (this runs for every command of a pipeline).
    let pos = this.starts[i]! + 1;
    while (resp[pos] !== 10) pos++;
    pos++;
    let length = 0;
    for (let c = resp[++pos]!; c !== 13; c = resp[++pos]!) length = length * 10 + (c - 48);
    const start = pos + 2;
    const end = start + length;
    if (end - start === this.lastEnd - this.lastStart && this.lastName !== '') {
      let same = true;
      for (let k = 0; k < end - start; k++) {
        if (resp[start + k] !== resp[this.lastStart + k]) {
          same = false;
          break;
        }
      }
      if (same) return this.lastName;
    }
    this.lastName = resp.toString('latin1', start, end).toLowerCase();
    this.lastStart = start;
    this.lastEnd = end;
    return this.lastName;
  }

  args(i: number): RespArg[] {
    const resp = this.resp;
    const header = bulkAt(resp, this.starts[i]!);
    const count = header.length;
    const args: RespArg[] = [];
    let pos = header.start;
    for (let a = 0; a < count; a++) {
      const { start, end } = bulkAt(resp, pos);
      args.push(resp.subarray(start, end));
      pos = end + 2;
    }
    return args;
  }

  encode(indices?: readonly number[]): Buffer {
    if (!indices || this.isEveryCommand(indices)) return this.resp;
    return Buffer.concat(indices.map((i) => this.resp.subarray(this.starts[i], this.starts[i + 1])));
  }

  private isEveryCommand(indices: readonly number[]): boolean {
    if (indices.length !== this.length) return false;
    for (let k = 0; k < indices.length; k++) if (indices[k] !== k) return false;
    return true;
  }
}

/**
 * `[arg, …]` at the reader's position (past leading space) as a RESP array; returns its argument count.
 * The count is only known at the `]`, so one digit is reserved for it and the arguments move right in
 * the rare case of ten or more.
 */
function readCommand(reader: Reader, out: RespOut): number {
  reader.expect(91, 'a JSON array');
  const start = out.reserve(4); // `*N\r\n`
  let count = 0;
  if (reader.skipSpace() === 93) {
    reader.pos++;
  } else {
    do {
      count++;
      // Most arguments are strings without escapes: copied as they are scanned, in one pass.
      if (reader.skipSpace() === 34) {
        const end = out.plainString(reader.buf, reader.pos + 1);
        if (end !== -1) {
          reader.pos = end + 1;
          continue;
        }
      }
      const decoded = reader.element();
      if (decoded) out.bulk(decoded, 0, decoded.length);
      else out.bulk(reader.buf, reader.spanStart, reader.spanEnd);
    } while (reader.more(93));
  }
  out.header(start, count);
  return count;
}

/** `$<n>\r\n` or `*<n>\r\n` at `pos`: n as `length`, and the bytes of a bulk string as [start, end). */
function bulkAt(buf: Buffer, pos: number): { length: number; start: number; end: number } {
  let i = pos + 1;
  let length = 0;
  for (let c = buf[i]!; c !== 13; c = buf[++i]!) length = length * 10 + (c - 48);
  return { length, start: i + 2, end: i + 2 + length };
}

/** RESP bytes being written, in a buffer that grows as needed. */
class RespOut extends ByteWriter {
  constructor(bodyLength: number) {
    // Short arguments grow in RESP (`"GET",` is 6 bytes, `$3\r\nGET\r\n` 9); long ones hardly do.
    super(Math.min(2 * bodyLength, bodyLength + 65536) + 64);
  }

  /** The byte length of the longest argument written (CommandList.longestArg): one comparison an argument. */
  longestArg = 0;

  /** Skips `n` bytes to be written later; returns where they start. */
  reserve(n: number): number {
    this.room(n);
    const at = this.length;
    this.length += n;
    return at;
  }

  /** `$<length>\r\n<bytes>\r\n` */
  bulk(source: Buffer, start: number, end: number): void {
    const length = end - start;
    if (length > this.longestArg) this.longestArg = length;
    this.room(length + 16); // `$`, up to 11 digits, two CRLFs
    const buf = this.buf;
    let at = writeHeader(buf, this.length, 36, length);
    if (length < 64) {
      // A byte loop beats a call into Buffer#copy for the short keys and values most commands carry.
      for (let k = start; k < end; k++) buf[at++] = source[k]!;
    } else {
      at += source.copy(buf, at, start, end);
    }
    buf[at++] = 13;
    buf[at++] = 10;
    this.length = at;
  }

  /**
   * The JSON string starting at `start` (past its quote) as a bulk string, copied while it is scanned;
   * returns where its closing quote is. At a backslash, a control character or the end of the body it
   * returns -1 with nothing written (`Reader.element` then reads it, decoding or failing as JSON does).
   * The length is only known at the quote: one digit is assumed and the bytes move for a longer one.
   */
  plainString(source: Buffer, start: number): number {
    this.room(source.length - start + 16);
    const buf = this.buf;
    const head = this.length;
    let at = head + 4; // `$N\r\n`
    for (let i = start; i < source.length; i++) {
      const c = source[i]!;
      if (c === 34) {
        const length = i - start;
        if (length > this.longestArg) this.longestArg = length;
        if (length >= 10) {
          const extra = decimalDigits(length) - 1;
          buf.copyWithin(head + 4 + extra, head + 4, at);
          at += extra;
        }
        writeHeader(buf, head, 36, length);
        buf[at++] = 13;
        buf[at++] = 10;
        this.length = at;
        return i;
      }
      if (c === 92 || c < 32) return -1;
      buf[at++] = c;
    }
    return -1;
  }

  /** Writes `*<count>\r\n` into the 4 bytes reserved at `at`, moving what follows for a longer count. */
  header(at: number, count: number): void {
    const extra = decimalDigits(count) - 1;
    if (extra > 0) {
      this.room(extra);
      this.buf.copyWithin(at + 4 + extra, at + 4, this.length);
      this.length += extra;
    }
    writeHeader(this.buf, at, 42, count);
  }
}
