// The browser host's FileSaver: every file goes into one private folder inside the console's data folder
// (0700, files 0600), never under a folder the host serves over HTTP, never over an existing file (a
// number is added to the name instead), and never anywhere else — the page's suggestion is a plain name.
import { realpathSync } from 'node:fs';
import { extname, join } from 'node:path';
import { BridgeError } from '../../../shared/bridge/errors';
import { ensurePrivateDir, isInside, realpathOfFuture, writeNewPrivateFile } from '../private-files';
import { savedFileName, type FileSaver } from './file-saver';

export interface ExportsFolderOptions {
  /** Absolute: `<data dir>/exports`. */
  folder: string;
  /** Folders served over HTTP (the browser host's renderer folder): the exports folder must be outside them. */
  servedFolders: readonly string[];
}

/** How many numbered names (`a-2.txt` … ) are tried before giving up. */
const MAX_NUMBERED = 1000;

export function exportsFolderSaver({ folder, servedFolders }: ExportsFolderOptions): FileSaver {
  return {
    saving: { kind: 'folder', folder },
    async save(request) {
      const { text } = request;
      const name = savedFileName(request);
      const real = privateFolderOutside(folder, servedFolders);
      for (let n = 1; n <= MAX_NUMBERED; n++) {
        const path = join(real, numbered(name, n));
        try {
          writeNewPrivateFile(path, text);
          return { path };
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
            throw new BridgeError({
              code: 'INTERNAL',
              message: `Could not write ${path}: ${(error as Error).message}`,
            });
          }
        }
      }
      throw new BridgeError({
        code: 'INVALID_INPUT',
        message: `${folder} already holds ${MAX_NUMBERED} files named like ${name}: remove some, or suggest another name.`,
      });
    },
  };
}

/**
 * The folder, checked to be outside every served one (before it is created, so nothing is made there
 * either), created 0700, resolved through any symbolic link and checked again.
 */
function privateFolderOutside(folder: string, servedFolders: readonly string[]): string {
  refuseInsideServed(folder, realpathOfFuture(folder), servedFolders);
  ensurePrivateDir(folder);
  const real = realpathSync(folder);
  refuseInsideServed(folder, real, servedFolders);
  return real;
}

function refuseInsideServed(folder: string, real: string, servedFolders: readonly string[]): void {
  for (const served of servedFolders) {
    if (isInside(real, realpathOfFuture(served))) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: `The exports folder ${folder} is inside ${served}, which the browser host serves over HTTP: Switchyard writes nothing there. Start the console with a --data-dir outside it.`,
      });
    }
  }
}

/** `name` for the first try, then `stem-2.ext`, `stem-3.ext` … (`.env` → `.env-2`). */
export function numbered(name: string, n: number): string {
  if (n === 1) return name;
  const ext = extname(name);
  return `${name.slice(0, name.length - ext.length)}-${n}${ext}`;
}
