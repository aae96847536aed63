// The local stack's clock and Run now in both themes: the Local stack page's clock card and the status bar
// once the clock runs ahead, the Advance dialog, Run now on a delayed message's trail and on a sleeping run's
// "why not done". No console errors; one screenshot each — to test-results/screenshots, or to docs/screenshots
// with SCREENSHOTS=1.
import { expect, go, test } from './fixtures';
import { localStack } from './support/local-stack';
import { saveScreenshot, themedPage } from './support/screenshots';
import { startSink } from './support/sink';
import { startWorkflowApp } from './support/workflow-app';

for (const theme of ['light', 'dark'] as const) {
  test(`the stack clock and Run now render cleanly in the ${theme} theme`, async ({
    browser,
    consoleHost,
  }) => {
    test.setTimeout(240_000);
    const { page, errors } = await themedPage(browser, theme, { width: 1440, height: 900 });
    await page.goto(consoleHost.url);
    const { api } = await localStack(page);
    const sink = await startSink();
    const wf = await startWorkflowApp(api.url);
    try {
      // The clock runs 3 d ahead first; the 2 h message and the 1 h nap are made after, so the advance does
      // not deliver or wake them (the week-long sleep outlasts it either way).
      await wf.client.trigger({ url: `${wf.url}/week` });
      const advance = await api.request('POST', '/local/clock/advance', { by: '3d' });
      expect(advance.status).toBe(200);
      const { messageId } = (await api.publish(`${sink.url}/reminder`, { 'Upstash-Delay': '2h' })) as {
        messageId: string;
      };
      const sleeping = (await wf.client.trigger({ url: `${wf.url}/nap` })).workflowRunId;

      await go(page, '#/stack');
      const card = page.getByTestId('stack-clock-card');
      await expect(card).toContainText('+3 d ahead of this computer');
      await expect(page.getByTestId('clock-pill')).toContainText('+3 d');
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'stack-clock', theme);

      await page.getByTestId('clock-pill').click();
      const dialog = page.getByRole('dialog', { name: 'Advance the stack clock' });
      await expect(dialog).toContainText('Next due');
      await dialog.getByRole('button', { name: '7 d', exact: true }).click();
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'stack-clock-advance', theme);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await go(page, `#/messages/logs/${messageId}`);
      const detail = page.getByRole('complementary', { name: 'Message detail' });
      await expect(detail.getByTestId('run-now')).toBeVisible();
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'logs-run-now', theme);

      await go(page, `#/workflows/run/${sleeping}`);
      const why = page.getByTestId('why-not-done');
      await expect(why).toContainText('Sleeping until');
      await expect(why.getByTestId('run-now')).toBeVisible();
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'workflows-run-page-run-now', theme);
      expect(errors).toEqual([]);
    } finally {
      await wf.close();
      await sink.close();
      await page.close();
    }
  });
}
