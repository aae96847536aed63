// The Electron window's security policy as plain data and pure functions, so a unit test can assert it
// without the Electron binary (security.test.ts) and it cannot silently regress. main.ts applies it.
// Follows the Electron security checklist: context isolation, sandbox, no Node in the renderer, web
// security on, strict CSP, custom protocol instead of file://, navigation and new windows denied,
// permissions denied, IPC senders checked.
import { normalize, sep } from 'node:path';
import type { BrowserWindowConstructorOptions } from 'electron';
import { contentSecurityPolicy } from '../../shared/csp';

export const APP_SCHEME = 'app';
export const APP_HOST = 'switchyard';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** The renderer's one policy (shared/csp.ts): it talks to main over IPC only, so it needs no network. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

export function windowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Switchyard',
    backgroundColor: '#111318',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
      // Middle-click must not open links in new windows behind our handlers' back.
      disableBlinkFeatures: 'Auxclick',
    },
  };
}

/** The app's own pages (and, in development, the Vite dev server the developer started). */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  if (url.startsWith(`${APP_ORIGIN}/`)) return true;
  if (devServerUrl) {
    try {
      return new URL(url).origin === new URL(devServerUrl).origin;
    } catch {
      return false;
    }
  }
  return false;
}

/** Navigation inside the window is allowed only within the app (hash changes included). */
export function isNavigationAllowed(url: string, devServerUrl?: string): boolean {
  return isAppUrl(url, devServerUrl);
}

/**
 * A request to open a new window. Every one is denied; a user's click on an http(s) link (a tab
 * disposition, which script-opened popups do not get) is handed to the system browser instead.
 */
export function externalUrlToOpen(url: string, disposition: string): string | null {
  if (disposition !== 'foreground-tab' && disposition !== 'background-tab') return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** IPC is answered only for the app's own top-level frame. */
export function isTrustedSender(
  frameUrl: string | undefined,
  isMainFrame: boolean,
  devServerUrl?: string,
): boolean {
  return isMainFrame && frameUrl !== undefined && isAppUrl(frameUrl, devServerUrl);
}

/** Maps app://switchyard/<path> to a file inside the renderer folder; null for anything outside it. */
export function resolveAppFile(rendererDir: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const relative = normalize(pathname === '/' ? '/index.html' : pathname);
  const root = normalize(rendererDir);
  const file = normalize(`${root}${sep}${relative}`);
  return file.startsWith(root + sep) ? file : null;
}
