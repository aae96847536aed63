// Token-bearing text written to a file by main, on a host without a clipboard, in both themes: the screen
// says where main put the file (its private exports folder). Screenshots in test-results/screenshots, or
// docs/screenshots with SCREENSHOTS=1.
import { expect, go, test, waitForStack } from './fixtures';
import { saveScreenshot, themedPage } from './support/screenshots';
import { withoutClipboard } from './support/secrets';

withoutClipboard();

for (const theme of ['light', 'dark'] as const) {
  test(`secrets written to a file render cleanly in the ${theme} theme`, async ({
    browser,
    consoleHost,
    sink,
  }) => {
    test.setTimeout(120_000);
    const { page, errors } = await themedPage(browser, theme, { width: 1440, height: 1000 });
    await page.goto(consoleHost.url);
    await waitForStack(page);

    await go(page, '#/messages/webhook');
    await page.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/github`);
    await expect(page.getByTestId('webhook-url')).toContainText('qstash_token=••••');
    await page.getByRole('button', { name: 'Write file' }).click();
    await expect(page.getByTestId('written-path')).toContainText('/exports/switchyard-intake-url.txt');
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'secret-file-webhook', theme);

    await go(page, '#/profiles/local');
    const card = page.getByRole('region', { name: 'Credentials as .env' });
    await card.getByLabel('File name').fill('my-app.env');
    await card.getByRole('button', { name: 'Write file' }).click();
    await expect(card.getByTestId('written-path')).toContainText('/exports/my-app.env');
    await card.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'secret-file-local-env', theme);

    expect(errors.filter((text) => !/net::ERR_/.test(text))).toEqual([]);
    await page.close();
  });
}
