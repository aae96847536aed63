// The console's promise about tokens, as a test checks it: main may hand a token to the clipboard or to a
// file, but the page never holds it — not in its DOM, not in any bridge frame main sent to it; and a spec whose
// consoles have no OS clipboard (withoutClipboard).
import { expect, type Page } from '@playwright/test';
import { test } from '../fixtures';

/** Fails if `secret`, as it is or URL-encoded (as it sits in a copied URL), is in the page or its frames. */
export async function expectSecretKeptFromPage(
  page: Page,
  receivedFrames: readonly string[],
  secret: string,
): Promise<void> {
  const html = await page.content();
  const frames = receivedFrames.join('\n');
  for (const form of [secret, encodeURIComponent(secret)]) {
    expect(html, 'the page DOM').not.toContain(form);
    expect(frames, 'the frames main sent to the page').not.toContain(form);
  }
}

/**
 * The spec's consoles run without a graphical session, so without an OS clipboard: main writes
 * token-bearing text to a file instead. Each test's host inherits this environment; it is put back after.
 */
export function withoutClipboard(): void {
  const saved = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
  test.beforeAll(async () => {
    delete process.env.DISPLAY;
    delete process.env.WAYLAND_DISPLAY;
  });
  test.afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  });
}
