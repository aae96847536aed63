// A `/pipeline` JSON body straight from Redis's reply bytes (issue 26).
//
// Why: decoding a pipeline of 100 GETs made a Buffer per bulk string, an array of values and then the JSON
// body from them (RESP parsing, the executor's copies and `entriesJson` were about a third of the bridge's
// CPU per request in the profile, docs/stack-kv.md). For plain JSON output — no base64, no RESP2 — the
// connection hands the replies over as their wire bytes (`sendRaw`), and each one is written into the body
// as it is read. The body is byte for byte what `entriesJson` (encode.ts) makes of the decoded replies;
// resp-json.test.ts checks that for every kind of reply, split at every byte.
import { ByteWriter } from './byte-writer';
import type { RawReplies } from './connection';
import { entryJson, errorJson } from './encode';
import { isLargeReply } from './reply-stream';
import type { RespValue } from './resp';
import { DecodedReply, parseInteger, RespError, RespParser } from './resp';

/** The text to report for reply `index`'s error (the executor explains some of Redis's errors). */
export type ErrorText = (index: number, message: string) => string;

/**
 * `[{"result":…}|{"error":…},…]` for `count` replies, or the one entry alone when `asArray` is false (the
 * body of `POST /`); undefined when a reply is big enough to be streamed (reply-stream.ts), which only
 * decoded replies can be: the caller then decodes them all (`decodeRaw`).
 */
export function rawEntriesJson(
  pieces: RawReplies,
  count: number,
  errorText: ErrorText,
  asArray = true,
): Buffer | undefined {
  let rawBytes = 0;
  for (const piece of pieces) {
    if (piece instanceof DecodedReply) {
      if (isLargeReply(piece.value)) return undefined;
    } else {
      rawBytes += piece.length;
    }
  }
  // A short bulk string grows from `$3\r\nabc\r\n` to `{"result":"abc"},`: twice its bytes and a little
  // more is enough for the common case; the output grows when escapes or decoded replies need more.
  const out = new JsonOut(2 * rawBytes + 12 * count + 2);
  if (asArray) out.byte(0x5b); // [
  let index = 0;
  for (const piece of pieces) {
    if (piece instanceof DecodedReply) {
      if (index > 0) out.byte(0x2c); // ,
      const value = piece.value;
      out.text(
        value instanceof RespError ? errorJson(errorText(index, value.message)) : entryJson(value, false),
      );
      index++;
      continue;
    }
    let pos = 0;
    while (pos < piece.length) {
      if (index > 0) out.byte(0x2c);
      // The common reply, a bulk string of plain text, is written here in one go; everything else in `entry`.
      const next = out.plainResult(piece, pos);
      pos = next === -1 ? entry(piece, pos, index, out, errorText) : next;
      index++;
    }
  }
  if (asArray) out.byte(0x5d); // ]
  return out.done();
}

/** The replies as values, for the cases the raw body does not serve (a reply to stream). */
export function decodeRaw(pieces: RawReplies): RespValue[] {
  const values: RespValue[] = [];
  const parser = new RespParser((value) => values.push(value));
  for (const piece of pieces) {
    if (piece instanceof DecodedReply) values.push(piece.value);
    else parser.feed(piece);
  }
  return values;
}

const RESULT = '{"result":';

/** One top-level reply at `pos` as a pipeline entry; returns where the next reply starts. */
function entry(buf: Buffer, pos: number, index: number, out: JsonOut, errorText: ErrorText): number {
  if (buf[pos] === 0x2d) {
    // '-': an error entry, its text possibly explained.
    const lineEnd = buf.indexOf(13, pos + 1);
    out.text(errorJson(errorText(index, buf.toString('utf8', pos + 1, lineEnd))));
    return lineEnd + 2;
  }
  out.ascii(RESULT);
  const next = value(buf, pos, out);
  out.byte(0x7d); // }
  return next;
}

/** One value at `pos` as JSON (as `jsonValue` in plain mode writes it); returns where the next one starts. */
function value(buf: Buffer, pos: number, out: JsonOut): number {
  const type = buf[pos];
  if (type === 0x24 || type === 0x2a) {
    // '$' (a bulk string) or '*' (an array), or nil: the length is read up to the CR (replyEnd checked it).
    let i = pos + 1;
    let length = 0;
    if (buf[i] === 0x2d) {
      out.ascii('null');
      return i + 4; // -1\r\n
    }
    for (let c = buf[i]!; c !== 13; c = buf[++i]!) length = length * 10 + (c - 48);
    const start = i + 2;
    if (type === 0x24) {
      string(buf, start, start + length, out);
      return start + length + 2;
    }
    out.byte(0x5b);
    let next = start;
    for (let k = 0; k < length; k++) {
      if (k > 0) out.byte(0x2c);
      next = value(buf, next, out);
    }
    out.byte(0x5d);
    return next;
  }
  const lineEnd = buf.indexOf(13, pos + 1);
  if (type === 0x2b) {
    // '+': a status, a string like any other.
    string(buf, pos + 1, lineEnd, out);
  } else if (type === 0x3a) {
    // ':': written as the decoder reads it (a number, or a bigint beyond 15 digits).
    out.ascii(String(parseInteger(buf, pos + 1, lineEnd)));
  } else {
    // '-': an error inside an array, as `{"error":…}` (never explained, like decoded ones).
    out.text(errorJson(buf.toString('utf8', pos + 1, lineEnd)));
  }
  return lineEnd + 2;
}

/**
 * Bytes as a JSON string, as `jsonValue` writes them: printable ASCII without quotes or backslashes is
 * copied as it is; anything else is decoded as UTF-8 (invalid bytes become U+FFFD) and JSON.stringify'd.
 */
function string(buf: Buffer, start: number, end: number, out: JsonOut): void {
  if (!out.plainString(buf, start, end)) out.text(JSON.stringify(buf.toString('utf8', start, end)));
}

/** Bytes that stand for themselves inside a JSON string: printable ASCII but `"` and `\\`. */
const PLAIN = new Uint8Array(256);
for (let c = 0x20; c <= 0x7e; c++) PLAIN[c] = c === 0x22 || c === 0x5c ? 0 : 1;

const RESULT_STRING = Buffer.from('{"result":"');

/** The JSON body being written, in a buffer that grows as needed. */
class JsonOut extends ByteWriter {
  byte(c: number): void {
    this.room(1);
    this.buf[this.length++] = c;
  }

  /** ASCII text (a constant or a number): a byte loop is cheaper than a call into the UTF-8 encoder. */
  ascii(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.buf[this.length++] = text.charCodeAt(i);
  }

  text(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    this.room(3 * text.length);
    this.length += this.buf.write(text, this.length, 'utf8');
  }

  /**
   * `{"result":"…"}` for a top-level bulk string of plain text at `pos` (no escapes, no decoding); returns
   * where the next reply starts, or -1 with nothing written for any other reply.
   */
  plainResult(source: Buffer, pos: number): number {
    if (source[pos] !== 0x24 || source[pos + 1] === 0x2d) return -1;
    let i = pos + 1;
    let length = 0;
    for (let c = source[i]!; c !== 13; c = source[++i]!) length = length * 10 + (c - 48);
    const start = i + 2;
    const end = start + length;
    this.room(length + RESULT_STRING.length + 2);
    const buf = this.buf;
    let at = this.length;
    for (let k = 0; k < RESULT_STRING.length; k++) buf[at++] = RESULT_STRING[k]!;
    for (let k = start; k < end; k++) {
      const c = source[k]!;
      if (PLAIN[c] === 0) return -1;
      buf[at++] = c;
    }
    buf[at++] = 0x22; // "
    buf[at++] = 0x7d; // }
    this.length = at;
    return end + 2;
  }

  /**
   * `"…"` of printable ASCII without quotes or backslashes, copied as it is checked; false (and nothing
   * written) when the bytes hold anything else.
   */
  plainString(source: Buffer, start: number, end: number): boolean {
    this.room(end - start + 2);
    const buf = this.buf;
    let at = this.length;
    buf[at++] = 0x22;
    for (let i = start; i < end; i++) {
      const c = source[i]!;
      if (PLAIN[c] === 0) return false;
      buf[at++] = c;
    }
    buf[at++] = 0x22;
    this.length = at;
    return true;
  }
}
