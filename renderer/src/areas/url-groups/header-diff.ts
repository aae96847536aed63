// Default headers of a URL group: the editable rows, and the before/after diff shown before applying.
import { canonicalHeaderName, headerValueProblem, isValidHeaderName } from '../../../../shared/headers';
import type { HeaderMap } from '../../../../shared/messages/types';

export interface HeaderRow {
  name: string;
  value: string;
}

export interface HeaderChange {
  name: string;
  kind: 'added' | 'removed' | 'changed' | 'same';
  before?: string[];
  after?: string[];
}

export function rowsFromHeaders(headers: HeaderMap | undefined): HeaderRow[] {
  return Object.entries(headers ?? {}).flatMap(([name, values]) => values.map((value) => ({ name, value })));
}

/** Rows → header map (canonical names, repeated names become several values); errors by row index. */
export function headersFromRows(rows: HeaderRow[]): { headers: HeaderMap; errors: Record<number, string> } {
  const headers: HeaderMap = {};
  const errors: Record<number, string> = {};
  rows.forEach((row, index) => {
    const name = row.name.trim();
    const value = row.value.trim();
    if (name === '' && value === '') return;
    const problem =
      name === ''
        ? 'a header needs a name'
        : !isValidHeaderName(name)
          ? `“${name}” is not a valid header name`
          : // Valid, but no key of a plain object: the service refuses to forward it (stack/messages).
            /(^|forward-)__proto__$/i.test(name)
            ? `“${name}” cannot be forwarded`
            : headerValueProblem(value);
    if (problem) errors[index] = problem;
    else (headers[canonicalHeaderName(name)] ??= []).push(value);
  });
  return { headers, errors };
}

const same = (a: string[] | undefined, b: string[] | undefined) =>
  (a ?? []).length === (b ?? []).length && (a ?? []).every((value, index) => value === b?.[index]);

/** Every header of either side, sorted by name, with what happens to it. Names compare case-insensitively. */
export function diffHeaders(before: HeaderMap | undefined, after: HeaderMap): HeaderChange[] {
  const lower = (map: HeaderMap | undefined) =>
    new Map(Object.entries(map ?? {}).map(([name, values]) => [name.toLowerCase(), { name, values }]));
  const old = lower(before);
  const next = lower(after);
  const names = [...new Set([...old.keys(), ...next.keys()])].sort();
  return names.map((key) => {
    const was = old.get(key);
    const will = next.get(key);
    const name = will?.name ?? was?.name ?? key;
    if (!was) return { name, kind: 'added', after: will!.values };
    if (!will) return { name, kind: 'removed', before: was.values };
    return {
      name,
      kind: same(was.values, will.values) ? 'same' : 'changed',
      before: was.values,
      after: will.values,
    };
  });
}
