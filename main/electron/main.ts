// The Electron app's main process: one secure window serving the renderer from app://switchyard, the
// bridge over IPC, secrets encrypted with safeStorage, and the local stack in a utility process.
// Everything else lives in main/core and runs in plain Node (see ARCHITECTURE.md).
import { readFile } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { app, BrowserWindow, dialog, protocol, safeStorage, session, shell, utilityProcess } from 'electron';
import { createConsoleCore, type ConsoleCore } from '../core/console-core';
import { announceLocalStack } from '../core/local-stack/ready-output';
import { createLogger } from '../core/logger';
import { createSecretStore } from '../core/secrets/secret-store';
import type { StackLauncher } from '../core/local-stack/launcher';
import { installElectronClipboard } from './clipboard';
import { registerBridgeIpc } from './ipc';
import { dialogSaver, type ShowSaveDialog } from './save-dialog';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  CONTENT_SECURITY_POLICY,
  externalUrlToOpen,
  isNavigationAllowed,
  resolveAppFile,
  windowOptions,
} from './security';

const logger = createLogger('switchyard-electron');
/** Set by `npm run dev` only: the Vite dev server with hot reload. */
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const outDir = join(__dirname, '..');
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

if (!app.requestSingleInstanceLock()) app.quit();

/** utilityProcess instead of ELECTRON_RUN_AS_NODE: the RunAsNode fuse is off in packaged builds. */
const utilityLauncher: StackLauncher = (entry, args) => {
  const child = utilityProcess.fork(entry, args, { stdio: 'pipe', serviceName: 'Switchyard local stack' });
  return {
    get pid() {
      return child.pid;
    },
    stdout: child.stdout,
    stderr: child.stderr,
    terminate: () => child.kill(),
    kill: () => child.kill(),
    onExit: (listener) => child.once('exit', (code) => listener(code, null)),
    onError: (listener) =>
      child.on('error', (type, location) => listener(new Error(`${type} at ${location}`))),
  };
};

let core: ConsoleCore | null = null;

/** The native save dialog, modal to the app's window: the user, not the page, picks where a file goes. */
const showSaveDialog: ShowSaveDialog = (options) => {
  const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  return window ? dialog.showSaveDialog(window, options) : dialog.showSaveDialog(options);
};

function hardenSessions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isNavigationAllowed(url, devServerUrl)) event.preventDefault();
    });
    contents.on('will-redirect', (event, url) => {
      if (!isNavigationAllowed(url, devServerUrl)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url, disposition }) => {
      const external = externalUrlToOpen(url, disposition);
      if (external) void shell.openExternal(external);
      return { action: 'deny' };
    });
  });
}

function serveAppProtocol(): void {
  const rendererDir = join(outDir, 'renderer');
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(rendererDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'content-type': MIME[extname(file)] ?? 'application/octet-stream',
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'x-content-type-options': 'nosniff',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}

function createWindow(): void {
  const window = new BrowserWindow(windowOptions(join(__dirname, 'preload.cjs')));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(devServerUrl ?? APP_ENTRY_URL);
}

app.whenReady().then(() => {
  hardenSessions();
  serveAppProtocol();
  installElectronClipboard();
  const dataDir = app.getPath('userData');
  const encrypted = safeStorage.isEncryptionAvailable();
  core = createConsoleCore({
    dataDir,
    // Encrypted and plain secrets never share a file (see secret-store.ts).
    secrets: encrypted
      ? createSecretStore(join(dataDir, 'secrets.enc.json'), {
          encrypt: (plain) => safeStorage.encryptString(plain),
          decrypt: (data) => safeStorage.decryptString(data),
        })
      : createSecretStore(join(dataDir, 'secrets.json')),
    host: 'electron',
    version: app.getVersion(),
    logger,
    saver: dialogSaver({ show: showSaveDialog, defaultFolder: app.getPath('downloads') }),
    stack: {
      // Packaged: out/stack is unpacked next to the asar archive (electron-builder.yml asarUnpack).
      entry: join(outDir, 'stack', 'cli.cjs').replace(`app.asar${sep}`, `app.asar.unpacked${sep}`),
      launch: utilityLauncher,
      dataDir: join(dataDir, 'local-stack'),
      port: Number(process.env.SWITCHYARD_STACK_PORT ?? 8080),
      kvPort: Number(process.env.SWITCHYARD_STACK_KV_PORT ?? 8079),
    },
  });
  registerBridgeIpc(core.router, logger, devServerUrl);
  // `npm start` in a terminal: where the local stack listens and its .env file, as the browser host prints.
  const started = core;
  announceLocalStack({
    dataDir,
    stack: started.stack,
    localEnv: () => started.profiles.localEnv().text,
    print: (lines) => console.log(lines),
  });
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !core) return;
  // Stop the local stack cleanly (in-flight deliveries finish or stay queued) before exiting.
  event.preventDefault();
  quitting = true;
  void core.close().finally(() => app.quit());
});
