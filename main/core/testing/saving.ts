// For the savers' tests (main/core/saving/exports-folder.test.ts, main/electron/save-dialog.test.ts): the
// one request both save, and the permission check that applies only where files have POSIX modes.
import { statSync } from 'node:fs';
import { expect } from 'vitest';
import type { SaveRequest } from '../saving/file-saver';

export const ENV_TEXT = 'QSTASH_TOKEN=secret\n';

/** The local stack's credentials as a .env file, as the page asks to save them: under `suggestedName`, or
 * switchyard-local.env when it suggests none. */
export function envFile(suggestedName?: string): SaveRequest {
  return {
    text: ENV_TEXT,
    suggestedName,
    defaultName: 'switchyard-local.env',
    what: 'the local stack credentials (.env)',
  };
}

/** `path`'s permission bits are exactly `mode` (Windows has none to check). */
export function expectMode(path: string, mode: number): void {
  if (process.platform !== 'win32') expect(statSync(path).mode & 0o777, path).toBe(mode);
}
