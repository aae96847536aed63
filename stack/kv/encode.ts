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
  const n = buf.length;
  if (n <= 256) {
    let i = 0;
    for (; i < n; i++) {
      const c = buf[i]!;
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) break;
    }
    if (i === n) return `"${buf.toString('latin1')}"`;
  }
  return JSON.stringify(buf.toString('utf8'));
}

export function errorJson(message: string): string {
  return `{"error":${JSON.stringify(message)}}`;
}

/** One `{result}` or `{error}` object, as a single reply or a pipeline/transaction entry. */
export function entryJson(value: RespValue, base64: boolean): string {
  if (value instanceof RespError) return errorJson(value.message);
  return `{"result":${jsonValue(value, base64, true)}}`;
}
