// For tests: a browser host over a throwaway renderer folder and a console core without a local stack.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsoleCore } from '../core/console-core';
import { createLogger } from '../core/logger';
import { createTestConsoleCore } from '../core/testing/console-core';
import { startWebHost, type WebHost } from './web-host';

export interface TestHost {
  host: WebHost;
  core: ConsoleCore;
  close(): Promise<void>;
}

/**
 * Serves `<dir>/renderer` with an index.html and assets/app.js, and leaves `<dir>/outside.txt` next to it
 * (which must never be served). The console's data folder is `<dir>/data` unless `dataDir` says otherwise.
 */
export async function startTestHost(dir: string, options: { dataDir?: string } = {}): Promise<TestHost> {
  const rendererDir = join(dir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Switchyard</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'outside.txt'), 'must not be served');
  const core = createTestConsoleCore(dir, { dataDir: options.dataDir, servedFolders: [rendererDir] });
  const host = await startWebHost({
    router: core.router,
    rendererDir,
    port: 0,
    logger: createLogger('test', 'silent'),
  });
  return {
    host,
    core,
    close: async () => {
      await host.close();
      await core.close();
    },
  };
}
