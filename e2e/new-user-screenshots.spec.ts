// What a new user hit (issue 19), in both themes: a header value the composer cannot send says why; the
// run filter form is an empty draft on an unfiltered list; a refused token shows the error alone with what
// to do. Screenshots in test-results/screenshots, or docs/screenshots with SCREENSHOTS=1.
import { expect, go, test, waitForStack } from './fixtures';
import { localStack } from './support/local-stack';
import { saveScreenshot, themedPage } from './support/screenshots';

for (const theme of ['light', 'dark'] as const) {
  test(`new-user screens render cleanly in the ${theme} theme`, async ({ browser, consoleHost }) => {
    test.setTimeout(180_000);
    const { page, errors } = await themedPage(browser, theme, { width: 1440, height: 900 });
    await page.goto(consoleHost.url);
    await waitForStack(page);
    const stack = await localStack(page);

    // A forwarded header with a character beyond Latin-1.
    await go(page, `#/messages/compose/url/${encodeURIComponent('https://example.com/orders')}`);
    const form = page.getByRole('form', { name: 'Message' });
    await form.getByRole('button', { name: 'Add header' }).first().click();
    await form.getByLabel('Forward headers: name 1', { exact: true }).fill('X-Tenant');
    await form.getByLabel('Forward headers: value 1', { exact: true }).fill('acme-Ω');
    await expect(form.getByText(/“Ω” \(U\+03A9\) cannot be sent in a header/)).toBeVisible();
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'composer-header-non-latin', theme);

    // The run list unfiltered: the add-filter form is an empty draft.
    await go(page, '#/workflows/runs');
    await expect(page.getByLabel('State')).toHaveValue('');
    await saveScreenshot(page, 'workflows-runs-filter-draft', theme);

    // A profile whose tokens the services refuse.
    await page.keyboard.press('Alt+6');
    await page.getByRole('button', { name: 'New profile' }).click();
    const profile = page.getByRole('form', { name: 'New profile' });
    await profile.getByLabel('Name').fill('Staging (old token)');
    await profile.getByLabel('Region').selectOption('custom');
    await profile.getByLabel('Base URL').fill(stack.api.url);
    await profile.getByLabel('Message token', { exact: true }).fill('an-expired-token');
    await profile.getByLabel('REST URL').fill(stack.kv.url);
    await profile.getByLabel('KV standard token', { exact: true }).fill('an-expired-kv-token');
    await profile.getByRole('button', { name: 'Create profile' }).click();
    await page.getByRole('button', { name: 'Use this profile' }).click();

    await go(page, '#/kv/keys');
    const help = page.getByTestId('access-help');
    await help.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByTestId('access-test-result')).toContainText('HTTP 401');
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'wrong-token-kv-keys', theme);

    await go(page, '#/workflows/runs');
    await expect(page.getByText('Could not load runs.')).toBeVisible();
    await saveScreenshot(page, 'wrong-token-runs', theme);

    expect(errors.filter((text) => !/net::ERR_|status of 40[13]/.test(text))).toEqual([]);
    await page.close();
  });
}
