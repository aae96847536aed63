// CSV as the console's exports write it (the job journal, the Search tab's results): RFC 4180 — fields with
// a comma, a quote or a line break quoted, quotes doubled, CRLF between records and after the last.
//
// Exported data is the user's (KV documents, error texts from a service), and spreadsheets run a cell that
// starts with `=`, `+`, `-` or `@` (or a tab / carriage return before one) as a formula: a document holding
// `=HYPERLINK("http://…")` would become a live link, or worse, in the file the user opens. Such a cell is
// written with a leading `'`, which spreadsheets show as text and do not display. A plain number (`-5`,
// `-1.5e3`) is left as it is: it cannot be a formula, and the columns of numbers must stay numbers.

/** Characters a spreadsheet takes as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number as JSON writes it, which a spreadsheet reads as a number, never as a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** One field, defused if a spreadsheet would run it, then quoted when it must be. */
export function csvCell(value: string): string {
  const text = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records (the header first) as CSV text. */
export function csvText(records: readonly (readonly string[])[]): string {
  return records.map((record) => record.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
