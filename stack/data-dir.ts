// Where the stack keeps its state by default (the OS's per-user app-data folder), and the lock that keeps two
// stacks from driving the same data dir (two engines would deliver everything twice).
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Switchyard', 'stack');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Switchyard', 'stack');
  const base =
    env.XDG_DATA_HOME && env.XDG_DATA_HOME.startsWith('/')
      ? env.XDG_DATA_HOME
      : join(home, '.local', 'share');
  return join(base, 'switchyard', 'stack');
}

export class DataDirBusyError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates the data dir for the user alone (0700 whatever the umask): it holds the tokens and signing keys.
 * A folder that is already there is tightened when it is a stack's (an older stack made it 0755) or empty;
 * any other existing folder the user named is left as it is.
 */
export function prepareDataDir(dir: string): void {
  const existed = existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!existed || existsSync(join(dir, 'stack.db')) || readdirSync(dir).length === 0) chmodSync(dir, 0o700);
}

/** Creates the data dir (see prepareDataDir) and takes its lock; returns the release function. */
export function lockDataDir(dir: string): () => void {
  prepareDataDir(dir);
  const file = join(dir, 'stack.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let pid = NaN;
      try {
        pid = Number(readFileSync(file, 'utf8').trim());
      } catch {
        // Vanished meanwhile: try again.
      }
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirBusyError(
          `another stack (pid ${pid}) is using the data dir ${dir}; stop it or pass another --data-dir`,
        );
      }
      // A stale lock from a stack that died (kill -9, power loss): take it over.
      try {
        unlinkSync(file);
      } catch {
        // Someone else removed it first.
      }
    }
  }
  throw new DataDirBusyError(`could not lock the data dir ${dir}`);
}
