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

/** `n` in base58, `width` digits, zero-padded ('1' is base58's zero). */
function base58Fixed(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = BASE58[n % 58] + out;
    n = Math.floor(n / 58);
  }
  return out;
}

/**
 * `msg_` + 40 base58 characters, like the real service's ids. Why the first 8 are the wall-clock time in
 * milliseconds: the messages table has a unique index on the id, and random ids put every new message on a
 * random page of that index, so each commit (and each checkpoint after it) rewrote about one 4 KiB index page
 * per message (the profile of `bench messages`: ~13 KB written per message). Time-first ids land together at the
 * index's right end. base58's alphabet is in ASCII order, so fixed-width digits sort like the numbers. The other
 * 32 characters stay random (~187 bits): ids remain unguessable.
 */
export function newMessageId(): string {
  return `msg_${base58Fixed(Date.now(), 8)}${base58(32)}`;
}

export function newJwtId(): string {
  return `jwt_${base58(28)}`;
}

/** `<ms>-<n>` like the real service's Redis-stream-style ids; `n` (the message's row number) keeps it unique. */
export function newDlqId(now: number, seq: number): string {
  return `${now}-${seq}`;
}
