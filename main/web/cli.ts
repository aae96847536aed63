// `npm run web -- [--port N] [--no-open] [--data-dir DIR] [--stack-port N] [--stack-kv-port N]`
// Runs the console in a browser: the same back end as the desktop app, the bridge over a WebSocket.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BROWSER_HOST_NODE, nodeVersionProblem } from '../../scripts/node-version.mjs';
import { createConsoleCore } from '../core/console-core';
import { createLogger, flushLogger } from '../core/logger';
import { defaultAppDataDir } from '../core/paths';
import { createSecretStore } from '../core/secrets/secret-store';
import { nodeLauncher } from '../core/local-stack/launcher';
import { isInside, realpathOfFuture, replacePrivateFile } from '../core/private-files';
import { exportsFolderSaver } from '../core/saving/exports-folder';
import { announceLocalStack } from '../core/local-stack/ready-output';
import { startWebHost } from './web-host';

const USAGE = `usage: npm run web -- [--port N] [--no-open] [--data-dir DIR] [--stack-port N] [--stack-kv-port N] [--dev-origin URL]`;

async function main(): Promise<void> {
  const tooOld = nodeVersionProblem('browser host', BROWSER_HOST_NODE);
  if (tooOld) {
    console.error(tooOld);
    process.exit(1);
  }
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'no-open': { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      'stack-port': { type: 'string', default: '8080' },
      'stack-kv-port': { type: 'string', default: '8079' },
      'dev-origin': { type: 'string', multiple: true },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = parsePort(values.port, '--port');
  const dataDir = resolve(values['data-dir'] ?? join(defaultAppDataDir(), 'console'));
  const logger = createLogger('switchyard-web');
  // out/main/web.cjs → out/renderer and out/stack/cli.cjs
  const outDir = resolve(__dirname, '..');
  const rendererDir = join(outDir, 'renderer');
  // Everything under the renderer folder is served over HTTP: profiles and secrets must never be there.
  if (isInside(realpathOfFuture(dataDir), realpathOfFuture(rendererDir))) {
    console.error(
      `--data-dir ${dataDir} is inside ${rendererDir}, which the browser host serves over HTTP: choose a folder outside it.\n${USAGE}`,
    );
    process.exit(2);
  }

  const core = createConsoleCore({
    dataDir,
    secrets: createSecretStore(join(dataDir, 'secrets.json')),
    host: 'browser',
    version: process.env.npm_package_version ?? '0.1.0',
    logger,
    // The page never names a path: files it asks for go to this private folder, outside what is served.
    saver: exportsFolderSaver({ folder: join(dataDir, 'exports'), servedFolders: [rendererDir] }),
    stack: {
      entry: join(outDir, 'stack', 'cli.cjs'),
      launch: nodeLauncher(),
      dataDir: join(dataDir, 'local-stack'),
      port: parsePort(values['stack-port'], '--stack-port'),
      kvPort: parsePort(values['stack-kv-port'], '--stack-kv-port'),
    },
  });
  const host = await startWebHost({
    router: core.router,
    rendererDir,
    port,
    logger,
    extraOrigins: values['dev-origin'],
  });

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    await Promise.allSettled([host.close(), core.close()]);
    logger.info('stopped');
    // The last lines must reach stderr before the process ends.
    await flushLogger(logger);
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  // The ready line comes after the signal handlers: whoever reads it may stop us at once, and a SIGTERM that
  // arrives before the handlers exist kills the process without shutting the stack down or logging "stopped".
  console.log(`Switchyard ready at ${host.url}`);
  // Then, once it is up, where the local stack listens and its credentials as a .env file (no clipboard needed).
  announceLocalStack({
    dataDir,
    stack: core.stack,
    localEnv: () => core.profiles.localEnv().text,
    print: (lines) => console.log(lines),
  });
  if (!values['no-open'] && hasDisplay()) openInBrowser(writeLaunchPage(dataDir, host.url));
}

function parsePort(value: string, flag: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`${flag} must be a port number (0-65535), got "${value}"\n${USAGE}`);
    process.exit(2);
  }
  return port;
}

function hasDisplay(): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
}

/**
 * The file a browser is opened on: for the user alone (0600, in the private data folder), it sends the browser
 * on to the host's URL. The URL carries the per-launch secret, which gives the whole bridge, and an opener's
 * command line (xdg-open, open, start) can be read by any local user (`ps`); a file path cannot be used by them.
 */
function writeLaunchPage(dataDir: string, url: string): string {
  const file = join(dataDir, 'open.html');
  const html = url.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  replacePrivateFile(
    file,
    '<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">' +
      `<meta http-equiv="refresh" content="0; url=${html}"><title>Switchyard</title>` +
      `<p>Opening Switchyard… <a href="${html}">Continue</a></p>\n`,
  );
  return file;
}

function openInBrowser(target: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [target]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', target]]
        : ['xdg-open', [target]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => console.log('Could not open a browser; open the URL above yourself.'));
  child.unref();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
