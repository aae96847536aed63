// For the screenshot specs: a page in one colour theme that collects console errors, and where the pictures
// go — test-results/screenshots always, docs/screenshots (the README's pictures) with SCREENSHOTS=1.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';

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
