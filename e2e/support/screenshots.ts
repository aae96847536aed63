// For the screenshot specs: a page in one colour theme that collects console errors, where the pictures
// go — test-results/screenshots always, docs/screenshots (the README's pictures) with SCREENSHOTS=1 — and
// themedConsoleTest, a test in both themes on the console with its local stack running.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { test } from '../fixtures';
import { type LocalStack, localStack } from './local-stack';
import type { Sink } from './sink';

export type Theme = 'light' | 'dark';

const targetDir = process.env.SCREENSHOTS === '1' ? 'docs/screenshots' : 'test-results/screenshots';

/** A new page in `theme`; `errors` collects what it logs as an error and its uncaught exceptions. */
export async function themedPage(
  browser: Browser,
  theme: Theme,
  viewport = { width: 1280, height: 800 },
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ colorScheme: theme, viewport });
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** Saves what `page` shows as `<name>-<theme>.png`. */
export async function saveScreenshot(page: Page, name: string, theme: Theme): Promise<void> {
  mkdirSync(targetDir, { recursive: true });
  await page.screenshot({ path: join(targetDir, `${name}-${theme}.png`) });
}

/** A screenshot test's console: a themed page on it once its local stack runs. */
export interface ThemedConsole extends LocalStack {
  page: Page;
  /** A recording destination on 127.0.0.1 (the `sink` fixture). */
  sink: Sink;
  theme: Theme;
  /** What the page logged as an error (see themedPage); each test says which, if any, it tolerates. */
  errors: string[];
  /** Parks the pointer (no hover state in the picture) and saves `<name>-<theme>.png`. */
  shoot(name: string): Promise<void>;
}

/**
 * Declares the test once per theme: `${title} in the <theme> theme`, on a themed page at a fresh console
 * whose local stack runs (`api`, `kv`), with a `sink`. The page is closed after `body`, whatever happens.
 */
export function themedConsoleTest(
  title: string,
  { timeout, viewport }: { timeout: number; viewport?: { width: number; height: number } },
  body: (console: ThemedConsole) => Promise<void>,
): void {
  for (const theme of ['light', 'dark'] as const) {
    test(`${title} in the ${theme} theme`, async ({ browser, consoleHost, sink }) => {
      test.setTimeout(timeout);
      const { page, errors } = await themedPage(browser, theme, viewport);
      try {
        await page.goto(consoleHost.url);
        const stack = await localStack(page);
        const shoot = async (name: string) => {
          await page.mouse.move(0, 0);
          await saveScreenshot(page, name, theme);
        };
        await body({ page, theme, errors, shoot, sink, ...stack });
      } finally {
        await page.close();
      }
    });
  }
}
