// Reads the JSON bodies of `POST /`, `/pipeline` and `/multi-exec` straight into Redis arguments.
//
// JSON.parse would turn 12345678901234567890 into 12345678901234567000 and 1.10 into 1.1; the REST
// API promises that a number reaches Redis as the text the client wrote, so numbers keep their literal
// text. Strings without escapes are taken as byte slices of the body (no decode/encode round trip).
import type { RespArg } from './resp';

/** The body is not what the endpoint accepts; answered with 400 and this message. */
export class BadRequestError extends Error {}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

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

  /** One array element turned into a Redis argument. */
  arg(): RespArg {
    const c = this.skipSpace();
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (c === 116) return this.literal(TRUE);
    if (c === 102) return this.literal(FALSE);
    if (c === 110) return this.literal(NULL);
    if (c === 91 || c === 123) {
      // A nested array or object is passed on as its JSON text (the SDK stringifies objects itself).
      const start = this.pos;
      this.skipValue();
      return this.buf.subarray(start, this.pos);
    }
    return this.fail(c === -1 ? 'unexpected end' : 'unexpected character');
  }

  literal(word: Buffer): Buffer {
    if (!this.buf.subarray(this.pos, this.pos + word.length).equals(word)) this.fail('unknown literal');
    this.pos += word.length;
    return word;
  }

  number(): Buffer {
    const buf = this.buf;
    const start = this.pos;
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
    return buf.subarray(start, this.pos);
  }

  digits(): boolean {
    const start = this.pos;
    while (this.pos < this.buf.length && this.buf[this.pos]! >= 48 && this.buf[this.pos]! <= 57) this.pos++;
    return this.pos > start;
  }

  string(): Buffer {
    const buf = this.buf;
    const start = ++this.pos;
    for (let i = start; i < buf.length; i++) {
      const c = buf[i]!;
      if (c === 34) {
        this.pos = i + 1;
        return buf.subarray(start, i);
      }
      if (c === 92) return this.escapedString(start);
      if (c < 32) {
        this.pos = i;
        this.fail('control character in string');
      }
    }
    this.pos = buf.length;
    return this.fail('unterminated string');
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
      const e = buf[i + 1];
      i += 2;
      switch (e) {
        case 34:
        case 92:
        case 47:
          out.push(e);
          break;
        case 98:
          out.push(8);
          break;
        case 102:
          out.push(12);
          break;
        case 110:
          out.push(10);
          break;
        case 114:
          out.push(13);
          break;
        case 116:
          out.push(9);
          break;
        case 117: {
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
          break;
        }
        default:
          this.pos = i - 1;
          this.fail('bad escape in string');
      }
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

  /** Skips any JSON value (used for nested arrays/objects, which are passed on as text). */
  skipValue(): void {
    const c = this.skipSpace();
    if (c === 34) {
      this.string();
    } else if (c === 91 || c === 123) {
      const close = c === 91 ? 93 : 125;
      this.pos++;
      if (this.skipSpace() === close) {
        this.pos++;
        return;
      }
      do {
        if (c === 123) {
          if (this.skipSpace() !== 34) this.fail('expected a key');
          this.string();
          this.expect(58, ':');
        }
        this.skipValue();
      } while (this.more(close));
    } else {
      this.arg();
    }
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
