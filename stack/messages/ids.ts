// Identifiers shaped like the real service's: `msg_` + base58 for messages, `<ms>-<n>` (a Redis-stream-like
// id) for DLQ entries, `jwt_` + base58 for signature ids.
import { randomBytes } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

// Random bytes come from a pool refilled 64 KiB at a time: one getrandom call per ~1,500 ids instead of
// several per id (that showed up as 10% of the stack's CPU under load).
const POOL_SIZE = 65_536;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function randomByte(): number {
  if (poolOffset >= POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  return pool[poolOffset++] as number;
}

export function base58(length: number): string {
  let out = '';
  while (out.length < length) {
    // 58 does not divide 256; rejecting the few biased bytes keeps the alphabet uniform.
    const byte = randomByte();
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
