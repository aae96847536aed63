// CSV as the console's exports write it (the job journal, the Search tab's results): RFC 4180 — fields with
// a comma, a quote or a line break quoted, quotes doubled, CRLF between records and after the last.
/** One field, quoted when it must be. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Records (the header first) as CSV text. */
export function csvText(records: readonly (readonly string[])[]): string {
  return records.map((record) => record.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
