// Where main puts text that carries a token (webhook URLs, curl commands, the Local profile as .env): the
// OS clipboard, or — where there is none, e.g. the browser host on a headless server — a file the user
// names. Either way the text is written by main and never returned to the renderer. A file is created new
// (never overwriting one) and readable by the user alone, like the console's own secrets.
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { BridgeError } from '../../../shared/bridge/errors';
import type { SecretTarget } from '../../../shared/bridge/procedures/app';
import type { Clipboard } from './clipboard';

export interface Delivered {
  to: SecretTarget['kind'];
  /** The file written, as an absolute path (file targets only). */
  path?: string;
}

/** `~/x` → the home folder; anything else must already be absolute (main has no "current folder" to offer). */
export function resolveTargetPath(path: string, home: string = homedir()): string {
  const trimmed = path.trim();
  const expanded = trimmed === '~' ? home : trimmed.startsWith('~/') ? join(home, trimmed.slice(2)) : trimmed;
  if (!isAbsolute(expanded)) {
    throw new BridgeError({
      code: 'INVALID_INPUT',
      message: `Give a full path (starting with / or ~/), not "${trimmed}".`,
      fields: { path: 'a full path, starting with / or ~/' },
    });
  }
  return expanded;
}

export async function deliverSecret(
  text: string,
  target: SecretTarget,
  clipboard: () => Clipboard,
): Promise<Delivered> {
  if (target.kind === 'clipboard') {
    try {
      await clipboard().writeText(text);
    } catch (error) {
      throw new BridgeError({
        code: 'NOT_CONFIGURED',
        message: error instanceof Error ? error.message : String(error),
      });
    }
    return { to: 'clipboard' };
  }
  const path = resolveTargetPath(target.path);
  try {
    // 'wx': fail if it exists, so a typo never replaces someone's file; 0600: for the user alone.
    await writeFile(path, text.endsWith('\n') ? text : `${text}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'EEXIST'
        ? `${path} already exists: Switchyard never overwrites a file. Choose a new name or remove it first.`
        : code === 'ENOENT'
          ? `The folder of ${path} does not exist.`
          : code === 'EACCES' || code === 'EPERM'
            ? `No permission to write ${path}.`
            : code === 'EISDIR'
              ? `${path} is a folder: name a file in it.`
              : `Could not write ${path}: ${error instanceof Error ? error.message : String(error)}`;
    throw new BridgeError({ code: 'INVALID_INPUT', message, fields: { path: message } });
  }
  return { to: 'file', path };
}
