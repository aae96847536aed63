// What the filter bars of the logs and the DLQ share on the way from typed text to bridge filters:
// comma-separated lists and a From/To range of `datetime-local` values.

/** `a, b ,,c` → ['a', 'b', 'c']; undefined when empty. */
export function splitList(text: string): string[] | undefined {
  const values = text
    .split(',')
    .map((value) => value.trim())
    .filter(Boolean);
  return values.length > 0 ? [...new Set(values)] : undefined;
}

/** A `datetime-local` value → unix ms (local time); undefined when empty or unreadable. */
export function localToMs(value: string): number | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : undefined;
}

/** From/To as typed → unix ms; `to` is inclusive to the end of the chosen minute. */
export function toDateRange(
  from: string,
  to: string,
): { fromDate: number | undefined; toDate: number | undefined; error?: string } {
  const fromDate = localToMs(from);
  const toMinute = localToMs(to);
  const toDate = toMinute === undefined ? undefined : toMinute + 59_999;
  if (fromDate !== undefined && toDate !== undefined && fromDate > toDate) {
    return { fromDate, toDate, error: '“From” is after “To”.' };
  }
  return { fromDate, toDate };
}

/**
 * The filters as typed, in words: "group orders, label nightly, from 2026-01-02 10:00" — each field that
 * has a value under its word, in the order given; the From/To range last. Empty when nothing is set.
 */
export function describeDraft<D extends { from: string; to: string }>(
  draft: D,
  words: readonly (readonly [keyof D & string, string])[],
): string {
  const parts = words.filter(([key]) => draft[key]).map(([key, word]) => `${word} ${String(draft[key])}`);
  if (draft.from) parts.push(`from ${draft.from.replace('T', ' ')}`);
  if (draft.to) parts.push(`to ${draft.to.replace('T', ' ')}`);
  return parts.join(', ');
}
