// Raw bytes as the consoles show them: text when they are valid UTF-8, hex otherwise. Shared so main
// (which reads collection members binary-safe) and the renderer (string editor, workbench, viewers) decide
// "is this binary?" the same way.
import { base64ToBytes } from './resp2';

/**
 * A member, field or value of a collection as read from the server: a plain string when its bytes are
 * valid UTF-8, else the exact bytes (base64), so edits and removals can target them byte for byte.
 */
export type KvBytes = string | { base64: string };

const strict = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text, or undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strict.decode(bytes);
  } catch {
    return undefined;
  }
}

export function toHex(bytes: Uint8Array, limit = 4096): string {
  let out = '';
  const end = Math.min(bytes.length, limit);
  for (let i = 0; i < end; i += 1)
    out += bytes[i]!.toString(16).padStart(2, '0') + (i % 16 === 15 ? '\n' : ' ');
  return out.trimEnd() + (bytes.length > limit ? ` … (${bytes.length - limit} more bytes)` : '');
}

/** A base64 reply string (`Upstash-Encoding: base64`) as text when it is UTF-8, else as raw bytes. */
export function kvBytesOf(base64: string): KvBytes {
  return decodeUtf8(base64ToBytes(base64)) ?? { base64 };
}

/** A base64 reply string that is known to be text (cursors, scores, stream ids). */
export function kvTextOf(base64: string): string {
  return new TextDecoder().decode(base64ToBytes(base64));
}

/** How a value shows in a table cell: its text, or its bytes in hex. */
export function kvBytesLabel(value: KvBytes): { text: string; binary: boolean } {
  return typeof value === 'string'
    ? { text: value, binary: false }
    : { text: toHex(base64ToBytes(value.base64), 1024), binary: true };
}
