// Renders every shell screen in both themes, checks that none logs an error, and saves a screenshot of
// each: to test-results/screenshots always, and to docs/screenshots (the README's pictures) when run
// with SCREENSHOTS=1 (`npm run screenshots`).
import type { Page } from '@playwright/test';
import { expect, test, waitForStack } from './fixtures';
import { saveScreenshot, themedPage } from './support/screenshots';

for (const theme of ['light', 'dark'] as const) {
  test(`shell screens render cleanly in the ${theme} theme`, async ({ browser, consoleHost }) => {
    const { page, errors } = await themedPage(browser, theme);
    await page.goto(consoleHost.url);
    await waitForStack(page);
    const shoot = async (name: string, check: (page: Page) => Promise<void>) => {
      await check(page);
      await saveScreenshot(page, name, theme);
    };

    await shoot('profiles-local', async (p) => {
      await p.keyboard.press('Alt+6');
      await expect(p.getByRole('heading', { name: 'Built-in: the local stack' })).toBeVisible();
      await p.getByRole('button', { name: 'Test message API' }).click();
      await p.getByRole('button', { name: 'Test KV REST' }).click();
      await expect(p.getByTestId('test-result-kv')).toContainText('Connected');
    });
    await shoot('profiles-local-env', async (p) => {
      const env = p.getByRole('region', { name: 'Credentials as .env' });
      await env.scrollIntoViewIfNeeded();
      await expect(env.getByTestId('secret-delivery-method')).toBeVisible();
    });
    await shoot('profile-new', async (p) => {
      await p.getByRole('button', { name: 'New profile' }).click();
      const form = p.getByRole('form', { name: 'New profile' });
      await form.getByLabel('Name').fill('Payments (prod)');
      await form.getByRole('button', { name: 'Prod', exact: true }).click();
      await form.getByLabel('Region').selectOption('us-east-1');
      await form.getByLabel('REST URL').fill('https://payments-kv.upstash.io');
    });
    await shoot('prod-active', async (p) => {
      await p
        .getByRole('form', { name: 'New profile' })
        .getByLabel('Message token', { exact: true })
        .fill('qstash-token-for-screenshot');
      await p.getByRole('button', { name: 'Create profile' }).click();
      await p.getByRole('button', { name: 'Use this profile' }).click();
      await expect(p.getByRole('note')).toContainText('PRODUCTION');
      await p.mouse.move(0, 0);
    });
    await shoot('palette', async (p) => {
      await p.keyboard.press('Control+k');
      await p.keyboard.type('go');
      await expect(p.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
    });
    await closePalette(page);
    await shoot('local-stack', async (p) => {
      await p.keyboard.press('Alt+7');
      await expect(p.getByTestId('stack-page-state')).toHaveText('Running');
    });
    await shoot('confirm-delete', async (p) => {
      await p.keyboard.press('Alt+6');
      await p
        .getByRole('navigation', { name: 'Profiles' })
        .getByRole('button', { name: /^Payments \(prod\)/ })
        .click();
      await p.getByRole('button', { name: 'Delete' }).click();
      await expect(p.getByRole('dialog', { name: /Delete profile/ })).toBeVisible();
    });

    // The only tolerated errors are failed loads of remote region URLs (no internet here).
    expect(errors.filter((text) => !/net::ERR_/.test(text))).toEqual([]);
    await page.close();
  });
}

async function closePalette(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeHidden();
}
