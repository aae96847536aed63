// The JSON files main keeps in the console's data folder (profiles, composer drafts and templates, the
// workflow journal and views, the KV history): written atomically, and an unreadable file is moved aside
// for the user — never silently overwritten. Every file is the user's alone (0600, see private-files.ts).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';

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

/**
 * Writes `value` as JSON (with a final newline) to a temp file beside `file`, then renames it over; the
 * file is 0600 whatever the umask (chmod too: a temp file left by a crash keeps its old mode otherwise).
 */
export function writeJsonFile(file: string, value: unknown, indent?: number): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, indent)}\n`, { mode: PRIVATE_FILE_MODE });
  if (process.platform !== 'win32') chmodSync(temp, PRIVATE_FILE_MODE);
  renameSync(temp, file);
}
