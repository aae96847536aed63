// A RESP2 reader for the workbench's raw view: turns the protocol bytes the server sent (for one command
// or a pipeline) into values, keeping where each reply starts so the hex view can mark it. Pure TS.

export type Resp2Value =
  | { kind: 'simple'; text: string }
  | { kind: 'error'; text: string }
  | { kind: 'integer'; text: string }
  | { kind: 'bulk'; bytes: Uint8Array | null }
  | { kind: 'array'; items: Resp2Value[] | null };

export interface Resp2Reply {
  value: Resp2Value;
  /** Byte offsets of this reply in the input. */
  start: number;
  end: number;
}

export class Resp2Error extends Error {}

/** Reads every reply in `bytes`; throws Resp2Error on bytes that are not RESP2. */
export function parseResp2(bytes: Uint8Array): Resp2Reply[] {
  const replies: Resp2Reply[] = [];
  let at = 0;
  while (at < bytes.length) {
    const start = at;
    const [value, next] = readValue(bytes, at, 0);
    replies.push({ value, start, end: next });
    at = next;
  }
  return replies;
}

function readLine(bytes: Uint8Array, at: number): [string, number] {
  for (let i = at; i < bytes.length - 1; i += 1) {
    if (bytes[i] === 13 && bytes[i + 1] === 10) {
      let text = '';
      for (let j = at; j < i; j += 1) text += String.fromCharCode(bytes[j]!);
      return [text, i + 2];
    }
  }
  throw new Resp2Error(`unterminated line at byte ${at}`);
}

function readValue(bytes: Uint8Array, at: number, depth: number): [Resp2Value, number] {
  if (depth > 64) throw new Resp2Error('nesting deeper than 64');
  const type = String.fromCharCode(bytes[at]!);
  const [line, next] = readLine(bytes, at + 1);
  switch (type) {
    case '+':
      return [{ kind: 'simple', text: utf8(bytes.subarray(at + 1, next - 2)) }, next];
    case '-':
      return [{ kind: 'error', text: utf8(bytes.subarray(at + 1, next - 2)) }, next];
    case ':':
      return [{ kind: 'integer', text: line }, next];
    case '$': {
      const length = Number(line);
      if (length === -1) return [{ kind: 'bulk', bytes: null }, next];
      if (!Number.isInteger(length) || length < 0 || next + length + 2 > bytes.length) {
        throw new Resp2Error(`bad bulk length ${line} at byte ${at}`);
      }
      return [{ kind: 'bulk', bytes: bytes.slice(next, next + length) }, next + length + 2];
    }
    case '*': {
      const count = Number(line);
      if (count === -1) return [{ kind: 'array', items: null }, next];
      if (!Number.isInteger(count) || count < 0)
        throw new Resp2Error(`bad array length ${line} at byte ${at}`);
      const items: Resp2Value[] = [];
      let cursor = next;
      for (let i = 0; i < count; i += 1) {
        const [item, after] = readValue(bytes, cursor, depth + 1);
        items.push(item);
        cursor = after;
      }
      return [{ kind: 'array', items }, cursor];
    }
    default:
      throw new Resp2Error(`unknown type byte 0x${(bytes[at] ?? 0).toString(16)} at byte ${at}`);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false });
function utf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** A plain JS value for rendering: strings (UTF-8, invalid bytes as U+FFFD), numbers as text, errors marked. */
export function resp2ToPlain(value: Resp2Value): unknown {
  switch (value.kind) {
    case 'simple':
      return value.text;
    case 'error':
      return { error: value.text };
    case 'integer':
      return Number.isSafeInteger(Number(value.text)) ? Number(value.text) : value.text;
    case 'bulk':
      return value.bytes === null ? null : utf8(value.bytes);
    case 'array':
      return value.items === null ? null : value.items.map(resp2ToPlain);
  }
}

/** Rows of a classic hex dump: offset, 16 bytes in hex, and their printable ASCII. */
export function hexDump(
  bytes: Uint8Array,
  limit = 64 * 1024,
): { offset: string; hex: string; ascii: string }[] {
  const rows: { offset: string; hex: string; ascii: string }[] = [];
  const end = Math.min(bytes.length, limit);
  for (let row = 0; row < end; row += 16) {
    const slice = bytes.subarray(row, Math.min(row + 16, end));
    let hex = '';
    let ascii = '';
    slice.forEach((byte, i) => {
      hex += byte.toString(16).padStart(2, '0') + (i === 7 ? '  ' : ' ');
      ascii += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.';
    });
    rows.push({ offset: row.toString(16).padStart(8, '0'), hex: hex.trimEnd(), ascii });
  }
  return rows;
}

/** base64 → bytes without Node or DOM-only APIs beyond atob (present in browsers and Node ≥ 16). */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
