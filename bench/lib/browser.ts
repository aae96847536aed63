// How the benchmarks and the e2e suite run Chromium and the browser host, so that both measure and test
// the same setup.
import { chromium, type Browser } from '@playwright/test';

/** Debian's Chromium (Playwright cannot download its own browser on this machine). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless in a container, and nothing running in the background that would add noise. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** Arguments for `node` to run the browser host on free ports over `dataDir`, without opening a browser. */
export function webHostArgs(dataDir: string): string[] {
  return [
    'out/main/web.cjs',
    '--no-open',
    '--port',
    '0',
    '--data-dir',
    dataDir,
    '--stack-port',
    '0',
    '--stack-kv-port',
    '0',
  ];
}
