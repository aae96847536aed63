// Where the Electron binary is, for `npm start` / `npm run dev` and the Electron e2e spec: ELECTRON_PATH, or
// the one the electron package installed. Found without require('electron'), which would try to download it
// (impossible offline); the installer writes path.txt only after a successful download.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {string | null} */
export function electronBinary() {
  if (process.env.ELECTRON_PATH)
    return existsSync(process.env.ELECTRON_PATH) ? process.env.ELECTRON_PATH : null;
  const pathFile = join('node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join('node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
}
