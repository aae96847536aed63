import { join } from 'node:path';
import { type ConsoleCore, createConsoleCore } from '../console-core';
import { createLogger } from '../logger';
import { nodeLauncher } from '../local-stack/launcher';
import { exportsFolderSaver } from '../saving/exports-folder';
import { createSecretStore } from '../secrets/secret-store';

/**
 * A console core for tests that need the bridge but no local stack: data and plain-file secrets in
 * `<dir>/data` (or `dataDir`), files the page asks for in `<data>/exports` as in the browser host, and a
 * stack entry that does not exist, so Local reports "not available". The caller closes it.
 */
export function createTestConsoleCore(
  dir: string,
  { dataDir = join(dir, 'data'), servedFolders = [] }: { dataDir?: string; servedFolders?: string[] } = {},
): ConsoleCore {
  return createConsoleCore({
    dataDir,
    secrets: createSecretStore(join(dataDir, 'secrets.json')),
    saver: exportsFolderSaver({ folder: join(dataDir, 'exports'), servedFolders }),
    host: 'browser',
    version: 'test',
    logger: createLogger('test', 'silent'),
    stack: { entry: join(dir, 'missing.cjs'), launch: nodeLauncher(), dataDir: dir, port: 0, kvPort: 0 },
  });
}
