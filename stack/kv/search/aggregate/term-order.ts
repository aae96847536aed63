// The order $terms buckets with equal counts come back in. The hosted service's engine (Tantivy) sorts its
// buckets with an unstable sort that leaves ties where they were (insertion sort, up to 20 buckets), and they
// were in the iteration order of Rust hash maps keyed with FxHash: first the segment's map of term ids, then
// the merge map of `IntermediateKey`s. The SDK's own test asserts that order (categoryIds 2, 0, 1 with three
// documents each), so it is reproduced here: FxHash (rustc-hash 1.x) and the slot a hashbrown table (Rust's
// HashMap, 16-byte control groups on x86-64) gives each key, which decides the iteration order.
import type { SearchFieldType, SearchValue } from '../types';

/** Tantivy's key order: numbers before strings, numbers by value, strings by their UTF-8 bytes. */
export function compareKeys(a: SearchValue, b: SearchValue): number {
  const na = typeof a === 'string' ? undefined : Number(a);
  const nb = typeof b === 'string' ? undefined : Number(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  if (na !== undefined) return -1;
  if (nb !== undefined) return 1;
  return Buffer.compare(Buffer.from(a as string, 'utf8'), Buffer.from(b as string, 'utf8'));
}

const MASK_64 = (1n << 64n) - 1n;
const FX_SEED = 0x517cc1b727220a95n;
const GROUP_WIDTH = 16;

/** rustc-hash 1.x's FxHasher: per word, rotate left 5, xor, multiply. */
class FxHasher {
  hash = 0n;

  private add(word: bigint): void {
    const rotated = ((this.hash << 5n) | (this.hash >> 59n)) & MASK_64;
    this.hash = ((rotated ^ word) * FX_SEED) & MASK_64;
  }

  writeU64(value: bigint): this {
    this.add(value & MASK_64);
    return this;
  }

  /** `str`'s Hash: its bytes in 8-, 4-, 2- and 1-byte words (little-endian), then 0xff. */
  writeStr(text: string): this {
    const bytes = Buffer.from(text, 'utf8');
    let at = 0;
    for (; bytes.length - at >= 8; at += 8) this.add(bytes.readBigUInt64LE(at));
    if (bytes.length - at >= 4) {
      this.add(BigInt(bytes.readUInt32LE(at)));
      at += 4;
    }
    if (bytes.length - at >= 2) {
      this.add(BigInt(bytes.readUInt16LE(at)));
      at += 2;
    }
    if (bytes.length - at >= 1) this.add(BigInt(bytes[at]!));
    return this.writeU64(0xffn);
  }
}

/** hashbrown's bucket count for a capacity: 4 or 8 when small, else a power of two at most 7/8 full. */
function bucketsFor(capacity: number): number {
  if (capacity < 4) return 4;
  if (capacity < 8) return 8;
  let buckets = 1;
  while (buckets < Math.floor((capacity * 8) / 7)) buckets *= 2;
  return buckets;
}

function capacityOf(buckets: number): number {
  return buckets < 8 ? buckets - 1 : (buckets / 8) * 7;
}

/** Where a hashbrown table puts each item; iterating it visits the slots in index order. */
class HashbrownTable<T> {
  private slots: ({ hash: number; item: T } | undefined)[];
  private size = 0;

  constructor(capacity: number) {
    this.slots = capacity === 0 ? [] : new Array<undefined>(bucketsFor(capacity)).fill(undefined);
  }

  /** Control byte `i` of the probe window: past the buckets, the copy of the first group (or EMPTY). */
  private full(i: number): boolean {
    const buckets = this.slots.length;
    if (i < buckets) return this.slots[i] !== undefined;
    if (buckets >= GROUP_WIDTH) return this.slots[i - buckets] !== undefined;
    return i >= GROUP_WIDTH && this.slots[i - GROUP_WIDTH] !== undefined;
  }

  /** `hash` is the low 32 bits of the 64-bit hash: all a table's mask ever keeps. */
  private slotFor(hash: number): number {
    const mask = this.slots.length - 1;
    let position = hash & mask;
    for (let stride = GROUP_WIDTH; ; stride += GROUP_WIDTH) {
      for (let bit = 0; bit < GROUP_WIDTH; bit++) {
        if (this.full(position + bit)) continue;
        const index = (position + bit) & mask;
        // A window past the end of a table smaller than a group can point at a full slot: take the first free.
        return this.slots[index] === undefined ? index : this.slots.findIndex((slot) => slot === undefined);
      }
      position = (position + stride) & mask;
    }
  }

  insert(hash: number, item: T): void {
    if (this.size >= capacityOf(this.slots.length)) this.grow();
    this.slots[this.slotFor(hash)] = { hash, item };
    this.size++;
  }

  private grow(): void {
    const old = this.items(true);
    this.slots = new Array<undefined>(
      bucketsFor(Math.max(this.size + 1, capacityOf(this.slots.length) + 1)),
    ).fill(undefined);
    for (const { hash, item } of old) this.slots[this.slotFor(hash)] = { hash, item };
  }

  items(withHashes: true): { hash: number; item: T }[];
  items(): T[];
  items(withHashes?: boolean): unknown[] {
    const full = this.slots.filter((slot) => slot !== undefined);
    return withHashes ? full : full.map((slot) => slot.item);
  }
}

const FX_SEED_LOW = Number(FX_SEED & 0xffffffffn);

/**
 * The low 32 bits of FxHash after one more word (its low 32 bits `word`) over a hash whose low 32 bits after
 * the rotation are `rotatedLow`: a product's low bits depend only on its factors' low bits, so numbers need no
 * BigInt (a terms aggregation may hash every distinct value).
 */
function fxLow32(rotatedLow: number, word: number): number {
  return Math.imul((rotatedLow ^ word) >>> 0, FX_SEED_LOW) >>> 0;
}

/** The low 32 bits of rotl(FxHash of one word `value`, 5): the state a second word is mixed into. */
function rotatedLow32(value: bigint): number {
  const hash = (value * FX_SEED) & MASK_64;
  return Number(((hash << 5n) | (hash >> 59n)) & 0xffffffffn);
}

/** An f64's 64 bits as two 32-bit words. */
function f64Words(value: number): { high: number; low: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  return { high: view.getUint32(0), low: view.getUint32(4) };
}

/**
 * The low 32 bits of an f64 as Tantivy's columns store it (its bits made to sort as unsigned integers: the
 * sign bit flipped for a positive number, every bit for a negative one).
 */
function f64ColumnLow32(value: number): number {
  const { high, low } = f64Words(value);
  return high >>> 31 === 0 ? low : ~low >>> 0;
}

/**
 * Terms in the order the segment's collector holds them. An F64 column's ids (its values' bits) go through an FxHash
 * map; other columns' ids (integers, term ordinals, booleans) are small enough for its vector, so they come in
 * ascending order.
 */
export function segmentOrder<T extends { key: SearchValue }>(
  buckets: readonly T[],
  type: SearchFieldType,
): T[] {
  if (type !== 'F64' || !buckets.every(({ key }) => typeof key === 'number')) {
    return buckets.slice().sort((a, b) => compareKeys(a.key, b.key));
  }
  const table = new HashbrownTable<T>(0);
  // One word hashed from a zero state: no rotation to carry.
  for (const bucket of buckets) table.insert(fxLow32(0, f64ColumnLow32(bucket.key as number)), bucket);
  return table.items();
}

/** The hash state after each `IntermediateKey` variant's index, ready for the value's word. */
const VARIANT_STATE = {
  bool: rotatedLow32(1n),
  f64: rotatedLow32(3n),
  i64: rotatedLow32(4n),
  u64: rotatedLow32(5n),
};

/**
 * The FxHash (low 32 bits) of Tantivy's `IntermediateKey` for a term: its variant's index (IpAddr 0, Bool 1, Str 2, F64 3,
 * I64 4, U64 5), then the value. An F64 column's whole numbers become U64 / I64 keys (Tantivy normalises them).
 */
function intermediateKeyHash(key: SearchValue, type: SearchFieldType): number {
  if (typeof key === 'string') return Number(new FxHasher().writeU64(2n).writeStr(key).hash & 0xffffffffn);
  if (typeof key === 'boolean') return fxLow32(VARIANT_STATE.bool, key ? 1 : 0);
  const whole = Number.isInteger(key);
  // ToUint32 (`>>> 0`) keeps an integer's low 32 bits exactly, negative ones in two's complement.
  if (type === 'U64' || (type !== 'I64' && whole && key >= 0)) return fxLow32(VARIANT_STATE.u64, key >>> 0);
  if (type === 'I64' || type === 'DATE' || whole) return fxLow32(VARIANT_STATE.i64, key >>> 0);
  return fxLow32(VARIANT_STATE.f64, f64Words(key).low);
}

/** Terms in the iteration order of Tantivy's merge map, filled in the given order after reserving room for all. */
export function mergeOrder<T extends { key: SearchValue }>(
  buckets: readonly T[],
  type: SearchFieldType,
): T[] {
  const table = new HashbrownTable<T>(buckets.length);
  for (const bucket of buckets) table.insert(intermediateKeyHash(bucket.key, type), bucket);
  return table.items();
}
