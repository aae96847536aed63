// The JSON files main keeps in the console's data folder (profiles, composer drafts and templates, the
// workflow journal and views, the KV history): written atomically, and an unreadable file is moved aside
// for the user — never silently overwritten.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ReadJsonOptions {
  /** Names the file in the message, e.g. `composer file`. */
  what: string;
  /** Stamps the aside copy's name. */
  now: () => number;
  /** Told when the file could not be read (it is then kept aside as `<file>.unreadable-<now>`). */
  onCorrupt: (message: string) => void;
}

/**
 * The file's content checked by `parse` (which throws on a wrong layout); `undefined` when there is no
 * file, or when it could not be read or parsed — then it is moved aside and `onCorrupt` is told.
 */
export function readJsonFile<T>(
  file: string,
  parse: (raw: unknown) => T,
  { what, now, onCorrupt }: ReadJsonOptions,
): T | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch (error) {
    const aside = `${file}.unreadable-${now()}`;
    renameSync(file, aside);
    onCorrupt(`${what} ${file} could not be read and was moved to ${aside}: ${String(error)}`);
    return undefined;
  }
}

/** Writes `value` as JSON (with a final newline) to a temp file beside `file`, then renames it over. */
export function writeJsonFile(file: string, value: unknown, indent?: number): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, indent)}\n`);
  renameSync(temp, file);
}
