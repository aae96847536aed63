// The console's local stack as a test reaches it: its URLs are read from the Local stack page, as a user
// would copy them, and each API gets a client that works the way an app would (see stack-api.ts, kv-api.ts).
import { expect, type Page } from '@playwright/test';
import { type KvApi, kvApi } from './kv-api';
import { go, waitForStack } from './page';
import { type StackApi, stackApi } from './stack-api';

export interface LocalStack {
  /** The message + workflow API. */
  api: StackApi;
  /** The KV REST API. */
  kv: KvApi;
}

/** Waits until the local stack runs, reads its URLs from the Local stack page, and goes back. */
export async function localStack(page: Page): Promise<LocalStack> {
  await waitForStack(page);
  const back = await page.evaluate(() => location.hash);
  await go(page, '#/stack');
  await expect(page.getByTestId('stack-page-state')).toHaveText('Running', { timeout: 30_000 });
  const urlOf = async (label: string): Promise<string> => {
    const url = (
      await page.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]').textContent()
    )?.trim();
    if (!url?.startsWith('http')) throw new Error(`no ${label} URL on the Local stack page: ${url}`);
    return url;
  };
  const stack = { api: stackApi(await urlOf('Message + workflow API')), kv: kvApi(await urlOf('KV REST')) };
  await go(page, back || '#/');
  return stack;
}
