// Reads a service URL off the console's Local stack page once the stack reports Running — how the UI
// benchmarks find the stack the browser host started.
import type { Page } from '@playwright/test';

export async function stackPageUrl(
  page: Page,
  service: 'KV REST' | 'Message + workflow API',
): Promise<string> {
  await page.evaluate(() => (location.hash = '#/stack'));
  await page.getByTestId('stack-page-state').getByText('Running').waitFor({ timeout: 60_000 });
  const text = await page
    .locator('dt', { hasText: service })
    .locator('xpath=following-sibling::dd[1]')
    .textContent();
  return (text ?? '').trim();
}
