// For the stores that keep a JSON file in the data folder: open one over an unreadable file, with a
// clock that stamps the aside copy and a list of what the store reported.
import { readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

export function openOverUnreadable<Store>(
  file: string,
  content: string,
  open: (file: string, now: () => number, onCorrupt: (message: string) => void) => Store,
  now = 42,
): { store: Store; problems: string[]; filesLeft: string[]; aside: string } {
  writeFileSync(file, content);
  const problems: string[] = [];
  const store = open(
    file,
    () => now,
    (message) => problems.push(message),
  );
  return {
    store,
    problems,
    filesLeft: readdirSync(dirname(file)),
    aside: `${basename(file)}.unreadable-${now}`,
  };
}
