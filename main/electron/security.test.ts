import { describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  CONTENT_SECURITY_POLICY,
  externalUrlToOpen,
  isNavigationAllowed,
  isTrustedSender,
  resolveAppFile,
  windowOptions,
} from './security';

const RENDERER_DIR = '/opt/app/out/renderer';
/** The file app:// serves for `url` from the renderer folder, or null. */
const appFile = (url: string) => resolveAppFile(RENDERER_DIR, url);

describe('Electron window security', () => {
  it('isolates and sandboxes the renderer with no Node access', () => {
    const prefs = windowOptions('/app/preload.cjs').webPreferences!;
    // The Electron security checklist's switches: these on, every way to reach Node or foreign content off.
    for (const key of ['contextIsolation', 'sandbox', 'webSecurity'] as const)
      expect(prefs[key], key).toBe(true);
    const off = [
      ...['nodeIntegration', 'nodeIntegrationInWorker', 'nodeIntegrationInSubFrames'],
      ...['allowRunningInsecureContent', 'experimentalFeatures', 'webviewTag', 'navigateOnDragDrop'],
    ] as const;
    for (const key of off) expect(prefs[key], key).toBe(false);
    expect(prefs.preload).toBe('/app/preload.cjs');
    expect(prefs.disableBlinkFeatures).toContain('Auxclick');
  });

  it('has a CSP without inline or remote script', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(directives['script-src']).not.toContain("'unsafe-inline'");
  });

  it('allows navigation only within the app', () => {
    expect(isNavigationAllowed(`${APP_ENTRY_URL}#/profiles`)).toBe(true);
    expect(isNavigationAllowed('https://evil.example/')).toBe(false);
    expect(isNavigationAllowed('file:///etc/passwd')).toBe(false);
    expect(isNavigationAllowed('app://other/index.html')).toBe(false);
    // The dev server is trusted only when the developer runs it.
    expect(isNavigationAllowed('http://127.0.0.1:5173/', 'http://127.0.0.1:5173/')).toBe(true);
    expect(isNavigationAllowed('http://127.0.0.1:5173/')).toBe(false);
  });

  it('opens only clicked http(s) links externally, never script popups or other schemes', () => {
    expect(externalUrlToOpen('https://upstash.com/docs', 'foreground-tab')).toBe('https://upstash.com/docs');
    expect(externalUrlToOpen('http://example.com/', 'background-tab')).toBe('http://example.com/');
    expect(externalUrlToOpen('https://upstash.com/docs', 'new-window')).toBeNull();
    expect(externalUrlToOpen('file:///etc/passwd', 'foreground-tab')).toBeNull();
    expect(externalUrlToOpen('javascript:alert(1)', 'foreground-tab')).toBeNull();
    expect(externalUrlToOpen('smb://host/share', 'foreground-tab')).toBeNull();
  });

  it('answers IPC only from the app main frame', () => {
    expect(isTrustedSender(APP_ENTRY_URL, true)).toBe(true);
    expect(isTrustedSender(APP_ENTRY_URL, false)).toBe(false);
    expect(isTrustedSender('https://evil.example/', true)).toBe(false);
    expect(isTrustedSender(undefined, true)).toBe(false);
  });

  it('serves app files only from inside the renderer folder', () => {
    expect(appFile('app://switchyard/')).toBe(`${RENDERER_DIR}/index.html`);
    expect(appFile('app://switchyard/assets/a.js')).toBe(`${RENDERER_DIR}/assets/a.js`);
    const hostile = [
      'app://switchyard/../../secret',
      'app://switchyard/%2e%2e/%2e%2e/etc/passwd',
      'app://switchyard/..%2f..%2fetc/passwd',
      'app://switchyard/..%5c..%5cwindows',
      'app://switchyard/%00',
    ];
    for (const url of hostile) {
      const file = appFile(url);
      expect(file === null || file.startsWith(`${RENDERER_DIR}/`), url).toBe(true);
    }
    expect(appFile('app://switchyard/%00')).toBeNull();
    expect(appFile('app://switchyard/%E0%A4%A')).toBeNull();
    expect(appFile('app://other/index.html')).toBeNull();
  });
});
