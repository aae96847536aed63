// Turns Redis replies into the REST API's JSON (plain or base64) and RESP2 bodies.
import type { RespValue } from './resp';
import { RespError } from './resp';

/**
 * JSON text of a reply value. Plain mode decodes strings as UTF-8 with invalid bytes replaced by U+FFFD
 * (Buffer#toString does exactly that). Base64 mode encodes every string's raw bytes, except a top-level
 * `OK` status: the SDK leaves a bare "OK" alone, but it base64-decodes strings inside arrays, where a raw
 * "OK" would come out as garbage — so nested ones are encoded too ("T0s=" decodes back to "OK").
 */
export function jsonValue(value: RespValue, base64: boolean, topLevel: boolean): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
    case 'bigint':
      return String(value);
    case 'string':
      if (!base64 || (topLevel && value === 'OK')) return JSON.stringify(value);
      return `"${Buffer.from(value, 'utf8').toString('base64')}"`;
  }
  if (Buffer.isBuffer(value)) return base64 ? `"${value.toString('base64')}"` : plainString(value);
  if (value instanceof RespError) return errorJson(value.message);
  let out = '[';
  for (let i = 0; i < value.length; i++) {
    if (i > 0) out += ',';
    out += jsonValue(value[i]!, base64, false);
  }
  return out + ']';
}

/**
 * A bulk string as a JSON string. Short printable ASCII needs no decoding or escaping (the common case
 * for keys, counters and small values); anything else goes through a UTF-8 decode (invalid bytes become
 * U+FFFD) and JSON.stringify.
 */
function plainString(buf: Buffer): string {
  if (isPlainAscii(buf)) return `"${buf.toString('latin1')}"`;
  return JSON.stringify(buf.toString('utf8'));
}

/** Short printable ASCII without quotes or backslashes: valid JSON string content as is. */
function isPlainAscii(buf: Buffer): boolean {
  const n = buf.length;
  if (n > 256) return false;
  for (let i = 0; i < n; i++) {
    const c = buf[i]!;
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

const OPEN_STRING = Buffer.from('{"result":"');
/** `{"result":"OK"}` — the same in both modes (a top-level OK status is never base64-encoded). */
const OK_ENTRY = '{"result":"OK"}';
/** A nil reply (GET of a missing key), the same in both modes. */
const NULL_ENTRY = '{"result":null}';

/**
 * A pipeline reply body: `[{"result":…},…]` as bytes. The common entry — a short plain ASCII bulk
 * string in JSON mode — is copied straight from Redis's reply into the body; everything else goes
 * through `entryJson`.
 */
export function entriesJson(values: readonly RespValue[], base64: boolean): Buffer {
  const n = values.length;
  const texts = new Array<string | undefined>(n);
  let size = 2 + Math.max(0, n - 1);
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    if (!base64 && Buffer.isBuffer(value) && isPlainAscii(value)) {
      size += OPEN_STRING.length + value.length + 2;
    } else if (value === 'OK') {
      texts[i] = OK_ENTRY;
      size += OK_ENTRY.length;
    } else if (value === null) {
      texts[i] = NULL_ENTRY;
      size += NULL_ENTRY.length;
    } else {
      const text = entryJson(value, base64);
      texts[i] = text;
      size += Buffer.byteLength(text);
    }
  }
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  out[offset++] = 0x5b; // [
  for (let i = 0; i < n; i++) {
    if (i > 0) out[offset++] = 0x2c; // ,
    const text = texts[i];
    if (text === OK_ENTRY || text === NULL_ENTRY) {
      // Short constant ASCII: a byte loop is cheaper than a call into the UTF-8 encoder.
      for (let k = 0; k < text.length; k++) out[offset++] = text.charCodeAt(k);
      continue;
    }
    if (text !== undefined) {
      offset += out.write(text, offset, 'utf8');
      continue;
    }
    const value = values[i] as Buffer;
    for (let k = 0; k < OPEN_STRING.length; k++) out[offset++] = OPEN_STRING[k]!;
    for (let k = 0; k < value.length; k++) out[offset++] = value[k]!;
    out[offset++] = 0x22; // "
    out[offset++] = 0x7d; // }
  }
  out[offset++] = 0x5d; // ]
  return out.subarray(0, offset);
}

export function errorJson(message: string): string {
  return `{"error":${JSON.stringify(message)}}`;
}

/** One `{result}` or `{error}` object, as a single reply or a pipeline/transaction entry. */
export function entryJson(value: RespValue, base64: boolean): string {
  if (value instanceof RespError) return errorJson(value.message);
  return `{"result":${jsonValue(value, base64, true)}}`;
}
