// RESP2, the Redis wire protocol, in both directions.
//
// Why our own codec instead of ioredis: the bridge must hand back (1) the exact bytes of a reply for
// `Upstash-Response-Format: resp2`, (2) bulk strings as raw bytes so binary and invalid UTF-8 survive,
// (3) Redis's error texts verbatim, including errors nested inside EXEC replies, and (4) a connection
// that never issues commands of its own (no HELLO, SELECT, CLIENT SETINFO or reconnect replays, which
// would show up in MONITOR and change connection state). ioredis decodes replies into JS strings and
// Error objects and owns its reconnect logic, so none of that is reachable through it.

/** A Redis error reply (`-ERR …`). Kept as a value, not thrown: EXEC and pipelines return them in place. */
export class RespError {
  constructor(readonly message: string) {}
}

/**
 * A decoded reply. Status replies (`+OK`) are JS strings, bulk strings are Buffers, integers are numbers
 * (bigint beyond 2^53), nil is null.
 */
export type RespValue = string | Buffer | number | bigint | null | RespError | RespValue[];

export type RespArg = string | Buffer;

/** A reply handed over as a value where the receiver takes replies as bytes (connection.ts, `sendRaw`). */
export class DecodedReply {
  constructor(readonly value: RespValue) {}
}

const CRLF = Buffer.from('\r\n');

function argLength(arg: RespArg): number {
  return typeof arg === 'string' ? Buffer.byteLength(arg) : arg.length;
}

/** How many decimal digits `n` (≥ 0) has. */
export function decimalDigits(n: number): number {
  return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : String(n).length;
}

/** Bytes needed to encode one command as a RESP array of bulk strings. */
function commandLength(args: readonly RespArg[]): number {
  let total = 3 + decimalDigits(args.length);
  for (const arg of args) {
    const len = argLength(arg);
    total += 5 + decimalDigits(len) + len;
  }
  return total;
}

/** Writes `<prefix><n>\r\n` without building a string (this runs for every argument). */
export function writeHeader(target: Buffer, offset: number, prefix: number, n: number): number {
  target[offset++] = prefix;
  if (n < 10) {
    target[offset++] = 48 + n;
  } else {
    const len = decimalDigits(n);
    for (let i = len - 1; i >= 0; i--) {
      target[offset + i] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
    offset += len;
  }
  target[offset++] = 13;
  target[offset++] = 10;
  return offset;
}

function writeCommand(target: Buffer, offset: number, args: readonly RespArg[]): number {
  offset = writeHeader(target, offset, 42, args.length);
  for (const arg of args) {
    if (typeof arg === 'string') {
      const len = Buffer.byteLength(arg);
      offset = writeHeader(target, offset, 36, len);
      offset += target.write(arg, offset, 'utf8');
    } else {
      offset = writeHeader(target, offset, 36, arg.length);
      if (arg.length < 64) {
        for (let i = 0; i < arg.length; i++) target[offset + i] = arg[i]!;
        offset += arg.length;
      } else {
        offset += arg.copy(target, offset);
      }
    }
    target[offset++] = 13;
    target[offset++] = 10;
  }
  return offset;
}

/** Encodes several commands into one buffer, so a pipeline or transaction is a single socket write. */
export function encodeCommands(commands: readonly (readonly RespArg[])[]): Buffer {
  let total = 0;
  for (const args of commands) total += commandLength(args);
  const out = Buffer.allocUnsafe(total);
  let offset = 0;
  for (const args of commands) offset = writeCommand(out, offset, args);
  return out;
}

export function encodeCommand(args: readonly RespArg[]): Buffer {
  return encodeCommands([args]);
}

/** Encodes a value as RESP2 bytes; used for replies the bridge itself produces in resp2 mode. */
export function encodeReply(value: RespValue): Buffer {
  if (value === null) return Buffer.from('$-1\r\n');
  if (value instanceof RespError) return Buffer.from(`-${value.message.replace(/[\r\n]+/g, ' ')}\r\n`);
  if (Buffer.isBuffer(value)) return Buffer.concat([Buffer.from(`$${value.length}\r\n`), value, CRLF]);
  if (typeof value === 'string') return Buffer.from(`+${value.replace(/[\r\n]+/g, ' ')}\r\n`);
  if (typeof value === 'number' || typeof value === 'bigint') return Buffer.from(`:${value}\r\n`);
  return Buffer.concat([Buffer.from(`*${value.length}\r\n`), ...value.map(encodeReply)]);
}

/** Thrown (and the connection dropped) when Redis sends bytes that are not RESP2. */
export class RespProtocolError extends Error {}

/**
 * A reply larger than the parser's limit, given in place of the reply (issue 18: a 512 MB GET must not make
 * the bridge hold gigabytes). Its bytes were read and dropped as they arrived, so the connection stays in
 * step and its next replies are intact.
 */
export class ReplyTooLargeError extends RespError {
  constructor(
    readonly replyBytes: number,
    readonly limitBytes: number,
  ) {
    super(
      `ERR max reply size exceeded: the reply is ${replyBytes} bytes, the limit is ${limitBytes} bytes ` +
        `(${formatMiB(limitBytes)}, --kv-max-reply-size); read big values in parts (GETRANGE, LRANGE or HSCAN with a range)`,
    );
  }
}

function formatMiB(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${mib.toFixed(2)} MiB`;
}

interface Frame {
  items: RespValue[];
  next: number;
}

/**
 * A receiver that takes some replies as their wire bytes instead of values (the `/pipeline` JSON fast
 * path, resp-json.ts). `budget()` says how many of the next replies it takes that way (0: decode them).
 */
export interface RawReplySink {
  budget(): number;
  /** `count` whole replies, back to back, exactly as Redis sent them. */
  take(bytes: Buffer, count: number): void;
}

/**
 * Largest reply handed over as bytes. Far below the size at which a reply is streamed (reply-stream.ts,
 * 1 MiB), so a reply taken raw never needs streaming; bigger ones are decoded as before.
 */
export const RAW_REPLY_BYTES = 64 * 1024;

const EMPTY = Buffer.alloc(0);
const MAX_SAFE_DIGITS = 15;

/**
 * Incremental RESP2 parser. Feed it socket chunks; it calls `onReply` once per complete top-level reply.
 * It resumes where it stopped (partially built arrays are kept on a stack), and while a large bulk string
 * is still arriving it only collects chunks, so big replies are not re-scanned or re-copied per chunk.
 */
export class RespParser {
  private buf: Buffer = EMPTY;
  private pos = 0;
  private replyStart = 0;
  /** Bytes of the current reply that were already consumed from earlier buffers. */
  private rawParts: Buffer[] = [];
  private stack: Frame[] = [];
  /** Chunks held back until `need` bytes are available (counted from buf[0]). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private need = 0;
  /** Bytes of the current reply already consumed from earlier buffers (its size so far, with `pos`). */
  private consumedBefore = 0;
  /** The current reply is over the limit: its values are not kept, its bulk payloads are skipped. */
  private oversize = false;
  /** Payload bytes (and CRLF) of a skipped bulk string still to come. */
  private skip = 0;
  /** The error being delivered in place of an oversize reply (its raw bytes are its own encoding). */
  private tooLarge: ReplyTooLargeError | undefined;

  /**
   * `onReply` gets each top-level reply's value; during that call `currentRaw()` gives its exact wire
   * bytes (for RESP2 output). No object is allocated per reply unless the raw bytes are asked for.
   * A reply larger than `maxReplyBytes` is delivered as a `ReplyTooLargeError` instead.
   */
  constructor(
    private readonly onReply: (value: RespValue) => void,
    private readonly maxReplyBytes = Infinity,
    private readonly raw?: RawReplySink,
  ) {}

  /** The wire bytes of the reply being delivered to `onReply` (only valid during that call). */
  currentRaw(): Buffer {
    if (this.tooLarge) return encodeReply(this.tooLarge);
    const tail = this.buf.subarray(this.replyStart, this.pos);
    return this.rawParts.length === 0 ? tail : Buffer.concat([...this.rawParts, tail]);
  }

  feed(chunk: Buffer): void {
    if (this.skip > 0) {
      // The rest of a bulk string of an oversize reply: counted, never kept.
      const n = Math.min(this.skip, chunk.length);
      this.skip -= n;
      // Counted while its reply is still being read (a bulk inside an array); a top-level one was delivered.
      if (this.oversize) this.consumedBefore += n;
      if (n === chunk.length) return;
      chunk = chunk.subarray(n);
    }
    if (this.buf.length === 0 && this.pending.length === 0) {
      this.buf = chunk;
    } else {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.buf.length + this.pendingBytes < this.need) return;
      this.buf = Buffer.concat([this.buf, ...this.pending]);
      this.pending = [];
      this.pendingBytes = 0;
    }
    this.need = 0;
    this.parse();
  }

  private parse(): void {
    const buf = this.buf;
    for (;;) {
      if (this.pos >= buf.length) {
        this.suspend(this.pos + 1);
        return;
      }
      if (this.raw && this.stack.length === 0 && !this.oversize && this.takeRaw(buf)) continue;
      const start = this.pos;
      const type = buf[start];
      // Bulk and array headers are short: read their length while looking for the CR, which saves a
      // native indexOf call per reply (this loop runs for every value of every reply).
      let lineEnd = -1;
      let headerLength = 0;
      if (type === 36 || type === 42) {
        let i = start + 1;
        let negative = false;
        if (buf[i] === 45) {
          negative = true;
          i++;
        }
        for (; i < buf.length; i++) {
          const c = buf[i]!;
          if (c === 13) break;
          if (c < 48 || c > 57) throw new RespProtocolError('malformed length in a Redis reply');
          headerLength = headerLength * 10 + (c - 48);
        }
        if (negative) headerLength = -headerLength;
        if (i < buf.length) lineEnd = i;
      } else {
        lineEnd = buf.indexOf(13, start + 1);
      }
      if (lineEnd === -1 || lineEnd + 1 >= buf.length) {
        this.suspend(buf.length + 1);
        return;
      }
      let value: RespValue;
      switch (type) {
        case 43: // '+'
          value = buf.toString('utf8', start + 1, lineEnd);
          this.pos = lineEnd + 2;
          break;
        case 45: // '-'
          value = new RespError(buf.toString('utf8', start + 1, lineEnd));
          this.pos = lineEnd + 2;
          break;
        case 58: // ':'
          value = parseInteger(buf, start + 1, lineEnd);
          this.pos = lineEnd + 2;
          break;
        case 36: {
          // '$'
          const len = headerLength;
          if (len < 0) {
            value = null;
            this.pos = lineEnd + 2;
            break;
          }
          const dataStart = lineEnd + 2;
          const dataEnd = dataStart + len;
          if (this.oversize || this.consumedBefore + (dataEnd + 2 - this.replyStart) > this.maxReplyBytes) {
            this.dropReply();
            value = null;
            if (dataEnd + 2 <= buf.length) {
              this.pos = dataEnd + 2;
            } else {
              this.skip = dataEnd + 2 - buf.length;
              this.pos = buf.length;
            }
            break;
          }
          if (dataEnd + 2 > buf.length) {
            this.suspend(dataEnd + 2);
            return;
          }
          value = buf.subarray(dataStart, dataEnd);
          this.pos = dataEnd + 2;
          break;
        }
        case 42: {
          // '*'
          const len = headerLength;
          this.pos = lineEnd + 2;
          if (len < 0) {
            value = null;
          } else if (len === 0) {
            value = [];
          } else {
            this.stack.push({ items: new Array<RespValue>(len), next: 0 });
            continue;
          }
          break;
        }
        default:
          throw new RespProtocolError(`unexpected byte ${type} in a Redis reply`);
      }
      // Attach the value to its parent arrays, completing as many as it finishes.
      for (;;) {
        const top = this.stack[this.stack.length - 1];
        if (!top) {
          this.emit(value);
          break;
        }
        top.items[top.next++] = value;
        if (top.next < top.items.length) break;
        this.stack.pop();
        value = top.items;
      }
    }
  }

  /**
   * At the start of a reply: hands the receiver as many of the next replies as it takes raw and as lie
   * whole in `buf` (each at most RAW_REPLY_BYTES and within the reply limit). False when there are none:
   * the next reply is then decoded (and waited for) as usual.
   */
  private takeRaw(buf: Buffer): boolean {
    const budget = this.raw!.budget();
    if (budget === 0) return false;
    const limit = Math.min(this.maxReplyBytes, RAW_REPLY_BYTES);
    const start = this.pos;
    let end = start;
    let count = 0;
    while (count < budget) {
      const next = replyEnd(buf, end, limit);
      if (next === -1) break;
      end = next;
      count++;
    }
    if (count === 0) return false;
    this.pos = end;
    this.replyStart = end;
    this.raw!.take(buf.subarray(start, end), count);
    return true;
  }

  /** The current reply is over the limit: let go of what it holds; later values are read and dropped. */
  private dropReply(): void {
    if (this.oversize) return;
    this.oversize = true;
    this.rawParts = [];
    for (const frame of this.stack) frame.items.fill(null);
  }

  private emit(value: RespValue): void {
    if (this.oversize) {
      const size = this.consumedBefore + (this.pos - this.replyStart) + this.skip;
      this.tooLarge = new ReplyTooLargeError(size, this.maxReplyBytes);
      this.onReply(this.tooLarge);
      this.tooLarge = undefined;
      this.oversize = false;
    } else {
      this.onReply(value);
    }
    if (this.rawParts.length > 0) this.rawParts = [];
    this.consumedBefore = 0;
    this.replyStart = this.pos;
  }

  /**
   * Not enough bytes: keep the unparsed tail (from `pos`), move the already parsed part of the current
   * reply aside for its raw bytes, and wait until `needAbsolute` bytes of the old buffer are there.
   */
  private suspend(needAbsolute: number): void {
    const from = this.pos;
    if (from > this.replyStart) {
      if (!this.oversize) this.rawParts.push(this.buf.subarray(this.replyStart, from));
      this.consumedBefore += from - this.replyStart;
    }
    this.buf = from >= this.buf.length ? EMPTY : this.buf.subarray(from);
    this.need = needAbsolute - from;
    this.pos = 0;
    this.replyStart = 0;
  }
}

/**
 * Where the reply starting at `start` ends, if it lies whole in `buf` within `limit` bytes; -1 otherwise
 * (incomplete, too long, or not well-formed: the decoding parser then reads it, and reports a bad one).
 * Only counts: an array header adds its elements to the values still to skip.
 */
export function replyEnd(buf: Buffer, start: number, limit: number): number {
  const max = Math.min(buf.length, start + limit);
  let pos = start;
  let remaining = 1;
  while (remaining > 0) {
    if (pos >= max) return -1;
    const type = buf[pos];
    let i = pos + 1;
    let length = 0;
    if (type === 36 || type === 42) {
      // '$' and '*': a length, or -1 for nil.
      if (buf[i] === 45) {
        if (buf[i + 1] !== 49) return -1;
        length = -1;
        i += 2;
      } else {
        for (; i < max; i++) {
          const c = buf[i]!;
          if (c === 13) break;
          if (c < 48 || c > 57) return -1;
          length = length * 10 + (c - 48);
        }
      }
      if (i + 1 >= max || buf[i] !== 13) return -1;
    } else if (type === 43 || type === 45 || type === 58) {
      // '+', '-', ':': a line.
      i = buf.indexOf(13, i);
      if (i === -1 || i + 1 >= max) return -1;
    } else {
      return -1;
    }
    pos = i + 2;
    remaining--;
    if (type === 36 && length >= 0) {
      pos += length + 2;
      if (pos > max) return -1;
    } else if (type === 42 && length > 0) {
      remaining += length;
    }
  }
  return pos;
}

export function parseInteger(buf: Buffer, start: number, end: number): number | bigint {
  if (end - start > MAX_SAFE_DIGITS) return BigInt(buf.toString('latin1', start, end));
  let i = start;
  let negative = false;
  if (buf[i] === 45) {
    negative = true;
    i++;
  }
  let n = 0;
  for (; i < end; i++) {
    const c = buf[i]! - 48;
    if (c < 0 || c > 9) throw new RespProtocolError('malformed integer in a Redis reply');
    n = n * 10 + c;
  }
  return negative ? -n : n;
}
