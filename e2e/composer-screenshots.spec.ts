// The composer, batch builder and webhook intake in both themes: filled in as a user would, no console
// errors, a screenshot of each (test-results/screenshots, or docs/screenshots with SCREENSHOTS=1).
import { expect, go, test, waitForStack } from './fixtures';
import { saveScreenshot, themedPage } from './support/screenshots';

for (const theme of ['light', 'dark'] as const) {
  test(`composer screens render cleanly in the ${theme} theme`, async ({ browser, consoleHost, sink }) => {
    // Seven screenshots in one test: like the other screenshot specs, more than the default minute on a
    // loaded machine (this one timed out at 60 s with a load average of 15 on 2 cores).
    test.setTimeout(120_000);
    const { page, errors } = await themedPage(browser, theme, { width: 1440, height: 1000 });
    await page.goto(consoleHost.url);
    await waitForStack(page);
    const shoot = async (name: string, scrollTop = true) => {
      if (scrollTop) await page.locator('.page-body').evaluate((el) => el.scrollTo(0, 0));
      await saveScreenshot(page, name, theme);
    };

    // Composer: a message with forwarded headers, delay, retry expression and callback, then sent.
    await go(page, `#/messages/compose/url/${encodeURIComponent(`${sink.url}/orders`)}`);
    const form = page.getByRole('form', { name: 'Message' });
    await expect(form.getByLabel('Destination URL', { exact: true })).toHaveValue(`${sink.url}/orders`);
    await page.getByRole('textbox', { name: 'Body' }).fill('{\n  "orderId": 4711,\n  "status": "paid"\n}');
    await form.getByRole('button', { name: 'Add header' }).first().click();
    await form.getByLabel('Forward headers: name 1', { exact: true }).fill('X-Tenant');
    await form.getByLabel('Forward headers: value 1', { exact: true }).fill('acme');
    await form.getByLabel('Delay', { exact: true }).fill('30s');
    await form.getByLabel('Retries', { exact: true }).fill('4');
    await form.getByLabel('Retry delay expression', { exact: true }).fill('pow(2, retried) * 1000');
    await form.getByText('Callback', { exact: true }).click();
    await form.getByLabel('Callback URL', { exact: true }).fill(`${sink.url}/callback`);
    await form.getByText('Deduplication and labels').click();
    await form.getByLabel('Labels', { exact: true }).fill('billing, eu');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByTestId('send-result')).toContainText('Accepted.');
    await page.mouse.move(0, 0);
    await shoot('composer-sent');

    // Validation as you type.
    await form.getByLabel('Delay', { exact: true }).fill('1.5m');
    await form.getByLabel('Retry delay expression', { exact: true }).fill('pow(2, tries) * 1000');
    await expect(form.getByText(/fractions are not allowed/)).toBeVisible();
    await expect(form.getByText(/unknown name 'tries'/)).toBeVisible();
    await form.getByLabel('Delay', { exact: true }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shoot('composer-validation', false);

    // Templates: save the message, see the library.
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    const library = page.getByRole('dialog', { name: 'Messages library' });
    await library.getByLabel('Save the current message as', { exact: true }).fill('Order paid → billing');
    await library.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(library.getByRole('list', { name: 'Templates' })).toContainText('Order paid → billing');
    await shoot('composer-templates', false);
    await library.getByRole('button', { name: 'Sent (this profile)' }).click();
    await expect(library.getByRole('list', { name: 'Sent messages' })).toContainText('/orders');
    await shoot('composer-history', false);
    await library.getByRole('button', { name: 'Close' }).click();

    // Import a curl command.
    await page.getByRole('button', { name: 'Import curl' }).click();
    await page
      .getByLabel('curl command', { exact: true })
      .fill(
        `curl 'https://api.example.com/v1/invoices' \\\n  -H 'content-type: application/json' \\\n  -H 'x-request-id: 42' \\\n  --data-raw '{"invoice":"INV-7","amount":1200}'`,
      );
    await shoot('composer-import-curl', false);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await expect(form.getByLabel('Destination URL', { exact: true })).toHaveValue(
      'https://api.example.com/v1/invoices',
    );

    // Batch builder with a refused item in place.
    await go(page, '#/messages/batch');
    const batchForm = page.locator('.batch-layout');
    await batchForm.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/batch-a`);
    await page.getByRole('button', { name: 'Add item' }).click();
    await batchForm.getByRole('button', { name: 'URL group', exact: true }).first().click();
    await batchForm.getByLabel('URL group', { exact: true }).fill('no-such-group');
    await page.getByRole('button', { name: 'Add item' }).click();
    await batchForm.getByRole('button', { name: 'URL', exact: true }).first().click();
    await batchForm.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/batch-c`);
    await page.getByRole('button', { name: /Send batch/ }).click();
    await expect(page.getByTestId('batch-summary')).toContainText('2 of 3 items accepted');
    await page.mouse.move(0, 0);
    await shoot('batch-results');

    // Webhook intake: the URL with the token masked.
    await go(page, '#/messages/webhook');
    await page.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/github`);
    await page.getByLabel('Retries', { exact: true }).fill('5');
    await expect(page.getByTestId('webhook-url')).toContainText('qstash_token=••••');
    await shoot('webhook-intake');

    expect(errors.filter((text) => !/net::ERR_/.test(text))).toEqual([]);
    await page.close();
  });
}
