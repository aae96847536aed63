// One page of a list endpoint (logs, DLQ) bounded by count and by size: rows are read one at a time and the
// page ends early, with a cursor, once they come to about `maxBytes` of JSON — a thousand events of 1 MB
// messages would otherwise be built into one response of over a gigabyte, stalling the process.

/** At most `count` rows, fewer once their estimated JSON passes `maxBytes` (never fewer than one). */
export function boundedPage<Row>(
  rows: Iterable<Row>,
  count: number,
  maxBytes: number,
  bytes: (row: Row) => number,
): { page: Row[]; more: boolean } {
  const page: Row[] = [];
  let total = 0;
  for (const row of rows) {
    total += bytes(row);
    // Leaving the loop early ends the statement's iterator, so the rows after the page are never read.
    if (page.length === count || (page.length > 0 && total > maxBytes)) return { page, more: true };
    page.push(row);
  }
  return { page, more: false };
}

/** Bytes of base64 a binary column becomes in JSON. */
export function base64Bytes(value: Buffer | null | undefined): number {
  return Math.ceil((value?.length ?? 0) / 3) * 4;
}
