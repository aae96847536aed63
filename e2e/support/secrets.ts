// The console's promise about tokens, as a test checks it: main may hand a token to the clipboard or to a
// file, but the page never holds it — not in its DOM, not in any bridge frame main sent to it.
import { expect, type Page } from '@playwright/test';

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
