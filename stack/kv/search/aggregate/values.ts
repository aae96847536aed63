// Reading a document's values for an aggregation, and writing numbers and instants the way the hosted
// service's engine (Tantivy, in Rust) writes them into bucket keys.
import type { SearchDocument, SearchValue } from '../types';

/** Every value a document holds at `path` (an array field's each value; none when the field is absent). */
export function valuesOf(doc: SearchDocument, path: string): readonly SearchValue[] {
  const value = doc.value(path);
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value as SearchValue];
}

/** A value as a number: numbers and DATE's unix milliseconds as they are, BOOL as 1 or 0 (as Tantivy's columns hold it). */
export function asNumber(value: SearchValue): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return undefined;
}

/** A document's numeric values at `path`, or `[missing]` when it has none and a fallback was given. */
export function numbersOf(doc: SearchDocument, path: string, missing: number | undefined): number[] {
  const numbers: number[] = [];
  for (const value of valuesOf(doc, path)) {
    const n = asNumber(value);
    if (n !== undefined) numbers.push(n);
  }
  if (numbers.length === 0 && missing !== undefined) numbers.push(missing);
  return numbers;
}

/**
 * A number as Rust's `f64` Display writes it (range keys such as `"30-60"` and `"0.1-0.2"`): never in
 * exponent notation, `-0` kept. JavaScript's String() agrees except for exponents (below 1e-6, from 1e21).
 */
export function formatF64(n: number): string {
  if (Object.is(n, -0)) return '-0';
  if (Number.isInteger(n)) return Math.abs(n) < 1e21 ? String(n) : BigInt(n).toString();
  const text = String(n);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign, lead, rest = '', exponentText] = match;
  const digits = lead! + rest;
  const exponent = Number(exponentText);
  // Only small numbers reach here (large ones are integers above); the point moves left.
  return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
}

/**
 * A DATE value (unix ms) as RFC 3339 in UTC the way Tantivy's `format_date` writes it: whole seconds
 * without a fraction (`2024-01-01T00:00:00Z`), otherwise the fraction without trailing zeros.
 */
export function formatDate(ms: number): string {
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return formatF64(ms);
  return date
    .toISOString()
    .replace(/\.(\d*?)0*Z$/, (_, fraction: string) => (fraction === '' ? 'Z' : `.${fraction}Z`));
}
