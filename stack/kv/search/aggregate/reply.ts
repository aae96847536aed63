// An aggregation result as the hosted service answers it. Its engine (Tantivy) produces JSON; the reply is
// that JSON in RESP: an object becomes a flat [key, value, …] array (keys in the engine's order, `buckets`
// first, which the SDK's deserializeAggregateResponse relies on), an array stays an array. Whole numbers
// are integers; other numbers bulk strings (RESP2 has no doubles — the SDK turns metric strings back into
// numbers).
import type { RespValue } from '../../resp';

export type Out = null | number | string | Out[] | OutObject;

/** A JSON object whose keys keep the order they were set in (a plain object would move "0", "1" … first). */
export class OutObject {
  readonly entries: [string, Out][] = [];

  set(key: string, value: Out): this {
    this.entries.push([key, value]);
    return this;
  }

  get(key: string): Out | undefined {
    return this.entries.find(([k]) => k === key)?.[1];
  }
}

export function encodeOut(value: Out): RespValue {
  if (value === null) return null;
  if (typeof value === 'number') return encodeNumber(value);
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (value instanceof OutObject) {
    const flat: RespValue[] = [];
    for (const [key, item] of value.entries) flat.push(Buffer.from(key, 'utf8'), encodeOut(item));
    return flat;
  }
  return value.map(encodeOut);
}

function encodeNumber(n: number): RespValue {
  if (!Number.isFinite(n)) return null;
  if (Number.isInteger(n)) return Number.isSafeInteger(n) ? n : BigInt(n);
  return Buffer.from(String(n), 'utf8');
}
