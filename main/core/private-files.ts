// The console's files are for the user alone: its data folder is 0700 and every file main writes in it is
// 0600 (profiles, drafts, history, journals, secrets, exports), whatever the umask. Folders made by older
// versions (0755, files 0644) are tightened at start-up. Windows has no such modes; there the user's
// profile folder is already private, and chmod only toggles read-only, so nothing is done.
import {
  chmodSync,
  closeSync,
  existsSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  realpathSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
const POSIX = process.platform !== 'win32';

/** Files only the console writes: a folder holding one of them is the console's own data folder. */
const CONSOLE_FILES = [
  'profiles.json',
  'secrets.json',
  'secrets.enc.json',
  'composer.json',
  'kv-history.json',
  'workflows.json',
];

export interface PreparedDataDir {
  /** False when the folder was someone else's (non-empty, none of the console's files): left as it was. */
  tightened: boolean;
}

/**
 * Makes `dir` the console's private data folder: created 0700, and — when it is new, empty or already the
 * console's — it and everything in it tightened (folders 0700, files 0600; links and sockets left alone).
 * A non-empty folder without any console file (a `--data-dir` pointing at, say, a home folder) is left
 * as it is: chmod-ing someone's folder tree would be far worse than the leak it prevents.
 */
export function preparePrivateDataDir(dir: string): PreparedDataDir {
  const existed = existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const entries = readdirSync(dir);
  const ours = !existed || entries.length === 0 || CONSOLE_FILES.some((name) => entries.includes(name));
  if (!ours) return { tightened: false };
  if (POSIX) tightenTree(dir);
  return { tightened: true };
}

/** Folders 0700 and regular files 0600 under (and including) `dir`; symbolic links are never followed. */
export function tightenTree(dir: string): void {
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) return;
  if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let entry;
    try {
      entry = lstatSync(path);
    } catch {
      continue; // removed meanwhile
    }
    if (entry.isDirectory()) tightenTree(path);
    else if (entry.isFile() && (entry.mode & 0o777) !== PRIVATE_FILE_MODE) chmodSync(path, PRIVATE_FILE_MODE);
  }
}

/** Creates `dir` (and its parents) if needed and makes `dir` itself 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (POSIX && (lstatSync(dir).mode & 0o777) !== PRIVATE_DIR_MODE) chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Writes `text` to a file that must not exist yet (O_EXCL: an existing file or a planted symbolic link
 * makes it fail with EEXIST), 0600 whatever the umask.
 */
export function writeNewPrivateFile(path: string, text: string | Buffer): void {
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  try {
    if (POSIX) fchmodSync(fd, PRIVATE_FILE_MODE);
    const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    let written = 0;
    while (written < data.length) written += writeSync(fd, data, written);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `path` with `text` atomically, the result 0600: a new private file beside it, renamed over it.
 * A symbolic link at `path` is replaced, never written through.
 */
export function replacePrivateFile(path: string, text: string | Buffer): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  writeNewPrivateFile(temp, text);
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Whether `path` is `folder` or inside it (both absolute and already resolved). */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The real path `path` has or will have: its deepest existing ancestor resolved, the rest appended. */
export function realpathOfFuture(path: string): string {
  const rest: string[] = [];
  let current = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return resolve(path);
      rest.push(basename(current));
      current = parent;
    }
  }
}
