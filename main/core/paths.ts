// Default locations on disk, per OS, without Electron (the browser host needs them too).
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The OS's per-user application data folder for Switchyard. */
export function defaultAppDataDir(): string {
  const home = homedir();
  switch (process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Switchyard');
    case 'win32':
      return join(process.env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Switchyard');
    default:
      return join(process.env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'switchyard');
  }
}
