// Identifiers shaped like the real service's: `msg_` + base58 for messages, `<ms>-<n>` (a Redis-stream-like
// id) for DLQ entries, `jwt_` + base58 for signature ids.
import { randomBytes } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  // 58 does not divide 256; rejection of the few biased bytes keeps the alphabet uniform.
  for (let i = 0; out.length < length; i++) {
    const byte = i < bytes.length ? (bytes[i] as number) : (randomBytes(1)[0] as number);
    if (byte < 232) out += BASE58[byte % 58];
  }
  return out;
}

export function newMessageId(): string {
  return `msg_${base58(40)}`;
}

export function newJwtId(): string {
  return `jwt_${base58(28)}`;
}

/** `<ms>-<n>` like the real service's Redis-stream-style ids; `n` (the message's row number) keeps it unique. */
export function newDlqId(now: number, seq: number): string {
  return `${now}-${seq}`;
}
