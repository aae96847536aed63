// Big replies go out in pieces (issue 18). A 100 MB value as one JSON text is a 100–600 MB string (every
// control byte becomes `\u0000`), past V8's string limit, and building it held the event loop — and with
// it the stack's other ports — for seconds. Replies whose strings add up to more than STREAM_THRESHOLD are
// encoded piece by piece instead, each piece written when the client has taken the previous ones, with a
// turn of the event loop in between. Memory: the reply itself plus one piece and the socket's buffer.
import { isUtf8 } from 'node:buffer';
import type { ServerResponse } from 'node:http';

import { jsonValue } from './encode';
import type { RespValue } from './resp';
import { RespError } from './resp';

/** String bytes in a reply above which it is streamed. */
export const STREAM_THRESHOLD = 1024 * 1024;
/** Bytes of a string encoded at a time (a multiple of 3, so base64 pieces join without padding). */
const PIECE_BYTES = 3 * 128 * 1024;
/** Text gathered before a write. */
const WRITE_BYTES = 256 * 1024;

/** Whether a reply's strings add up to more than STREAM_THRESHOLD (stops counting there). */
export function isLargeReply(value: RespValue): boolean {
  return stringBytes(value, 0) > STREAM_THRESHOLD;
}

function stringBytes(value: RespValue, sum: number): number {
  if (Buffer.isBuffer(value)) return sum + value.length;
  if (Array.isArray(value)) {
    for (const item of value) {
      sum = stringBytes(item, sum);
      if (sum > STREAM_THRESHOLD) break;
    }
  }
  return sum;
}

/** A piece of the body: text, or bytes that are already JSON (escaped UTF-8). */
export type Piece = string | Buffer;

/** The same JSON text as `jsonValue`, in pieces. */
function* jsonPieces(value: RespValue, base64: boolean, topLevel: boolean): Generator<Piece> {
  if (Buffer.isBuffer(value) && value.length > PIECE_BYTES) {
    yield* stringPieces(value, base64);
  } else if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      yield* jsonPieces(value[i]!, base64, false);
    }
    yield ']';
  } else {
    yield jsonValue(value, base64, topLevel);
  }
}

/**
 * A long bulk string as a JSON string: base64 of each piece, or its UTF-8 text escaped. Pieces end on
 * character boundaries; a piece of valid UTF-8 is escaped byte by byte (fast, no string), any other is
 * decoded (invalid bytes become U+FFFD, as in the one-piece encoder) and JSON.stringify'd.
 */
function* stringPieces(buf: Buffer, base64: boolean): Generator<Piece> {
  yield '"';
  if (base64) {
    for (let at = 0; at < buf.length; at += PIECE_BYTES) yield buf.toString('base64', at, at + PIECE_BYTES);
  } else {
    let at = 0;
    while (at < buf.length) {
      const piece = buf.subarray(at, characterBoundary(buf, at + PIECE_BYTES));
      at += piece.length;
      // A piece ends where a character starts, so decoding it alone gives what decoding the whole would.
      yield isUtf8(piece) ? escapeUtf8(piece) : escaped(piece.toString('utf8'));
    }
  }
  yield '"';
}

/** `end`, moved back to the start of a UTF-8 character it would split (at most 3 bytes). */
function characterBoundary(buf: Buffer, end: number): number {
  if (end >= buf.length) return buf.length;
  let i = end;
  while (i > end - 3 && (buf[i]! & 0xc0) === 0x80) i--;
  return i;
}

function escaped(text: string): string {
  return text === '' ? '' : JSON.stringify(text).slice(1, -1);
}

/** Short escapes JSON.stringify uses; other control characters become \u00XX. */
const SHORT_ESCAPES: Record<number, number> = { 0x08: 0x62, 0x09: 0x74, 0x0a: 0x6e, 0x0c: 0x66, 0x0d: 0x72 };
const HEX = Buffer.from('0123456789abcdef');

/** Valid UTF-8 escaped exactly as JSON.stringify escapes its text, as bytes (the piece itself if nothing needs it). */
function escapeUtf8(piece: Buffer): Buffer {
  let extra = 0;
  for (let i = 0; i < piece.length; i++) {
    const c = piece[i]!;
    if (c === 0x22 || c === 0x5c) extra += 1;
    else if (c < 0x20) extra += SHORT_ESCAPES[c] ? 1 : 5;
  }
  if (extra === 0) return piece;
  const out = Buffer.allocUnsafe(piece.length + extra);
  let o = 0;
  for (let i = 0; i < piece.length; i++) {
    const c = piece[i]!;
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) {
      out[o++] = c;
      continue;
    }
    out[o++] = 0x5c; // backslash
    const short = c === 0x22 || c === 0x5c ? c : SHORT_ESCAPES[c];
    if (short) {
      out[o++] = short;
    } else {
      out[o++] = 0x75; // u
      out[o++] = 0x30;
      out[o++] = 0x30;
      out[o++] = HEX[c >> 4]!;
      out[o++] = HEX[c & 15]!;
    }
  }
  return out;
}

/** `{"result":…}` or `{"error":…}` in pieces. */
export function* entryPieces(value: RespValue, base64: boolean): Generator<Piece> {
  if (value instanceof RespError) {
    yield jsonValue(value, base64, true);
    return;
  }
  yield '{"result":';
  yield* jsonPieces(value, base64, true);
  yield '}';
}

/** A pipeline's or transaction's `[{…},…]` in pieces. */
export function* entriesPieces(values: readonly RespValue[], base64: boolean): Generator<Piece> {
  yield '[';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) yield ',';
    yield* entryPieces(values[i]!, base64);
  }
  yield ']';
}

/**
 * Writes a response body from pieces, about WRITE_BYTES at a time: waits for the socket to drain when the
 * client reads slowly, and yields to the event loop between writes. Stops when the client goes away.
 */
export async function writePieces(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  pieces: Iterable<Piece>,
): Promise<void> {
  res.writeHead(status, headers);
  let batch: string[] = [];
  let size = 0;
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      batch.push(piece);
      size += piece.length;
      if (size < WRITE_BYTES) continue;
    }
    if (batch.length > 0 && !(await write(res, batch.join('')))) return;
    batch = [];
    size = 0;
    if (typeof piece !== 'string' && !(await write(res, piece))) return;
  }
  if (!res.destroyed) res.end(batch.join(''));
}

/** False once the client is gone. */
async function write(res: ServerResponse, chunk: Piece): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  }
  await new Promise<void>((resolve) => setImmediate(resolve));
  return !res.destroyed;
}
