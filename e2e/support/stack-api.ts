// Test data for the message screens, created the way an app would: straight at the local stack's API
// (its URL is on the Local stack page; the token is the vendor dev token the stack serves by default).
import { expect, type Page } from '@playwright/test';

export const DEV_TOKEN = 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=';

export interface StackApi {
  url: string;
  /** POST /v2/publish/<destination> (a URL or a group name); answers the parsed JSON. */
  publish(destination: string, headers?: Record<string, string>, body?: string): Promise<unknown>;
  request(method: string, path: string, body?: unknown): Promise<Response>;
}

/** Reads the stack's URL from the Local stack page (then goes back to where the page was). */
export async function stackApi(page: Page): Promise<StackApi> {
  const back = await page.evaluate(() => location.hash);
  await page.evaluate(() => (location.hash = '#/stack'));
  await expect(page.getByTestId('stack-page-state')).toHaveText('Running', { timeout: 30_000 });
  const url = (
    await page
      .locator('dt', { hasText: 'Message + workflow API' })
      .locator('xpath=following-sibling::dd[1]')
      .textContent()
  )?.trim();
  if (!url?.startsWith('http')) throw new Error(`no stack URL on the Local stack page: ${url}`);
  await page.evaluate((hash) => (location.hash = hash || '#/'), back);
  const request = (method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  return {
    url,
    request,
    async publish(destination, headers = {}, body = '{"hello":"world"}') {
      const response = await fetch(`${url}/v2/publish/${destination}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', ...headers },
        body,
      });
      if (!response.ok) throw new Error(`publish failed: ${response.status} ${await response.text()}`);
      return response.json();
    },
  };
}
