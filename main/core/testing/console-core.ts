import { join } from 'node:path';
import { type ConsoleCore, createConsoleCore } from '../console-core';
import { createLogger } from '../logger';
import { nodeLauncher } from '../local-stack/launcher';
import { createSecretStore } from '../secrets/secret-store';

/**
 * A console core for tests that need the bridge but no local stack: data and plain-file secrets in
 * `dir`, and a stack entry that does not exist, so Local reports "not available". The caller closes it.
 */
export function createTestConsoleCore(dir: string): ConsoleCore {
  return createConsoleCore({
    dataDir: join(dir, 'data'),
    secrets: createSecretStore(join(dir, 'data', 'secrets.json')),
    host: 'browser',
    version: 'test',
    logger: createLogger('test', 'silent'),
    stack: { entry: join(dir, 'missing.cjs'), launch: nodeLauncher(), dataDir: dir, port: 0, kvPort: 0 },
  });
}
