// The local stack's clock and Run now in both themes: the Local stack page's clock card and the status bar
// once the clock runs ahead, the Advance dialog, Run now on a delayed message's trail and on a sleeping run's
// "why not done". No console errors; one screenshot each — to test-results/screenshots, or to docs/screenshots
// with SCREENSHOTS=1.
import { expect, go } from './fixtures';
import { themedConsoleTest } from './support/screenshots';
import { startWorkflowApp } from './support/workflow-app';

themedConsoleTest(
  'the stack clock and Run now render cleanly',
  { timeout: 240_000, viewport: { width: 1440, height: 900 } },
  async ({ page, errors, api, sink, shoot }) => {
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
      await shoot('stack-clock');

      await page.getByTestId('clock-pill').click();
      const dialog = page.getByRole('dialog', { name: 'Advance the stack clock' });
      await expect(dialog).toContainText('Next due');
      await dialog.getByRole('button', { name: '7 d', exact: true }).click();
      await shoot('stack-clock-advance');
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await go(page, `#/messages/logs/${messageId}`);
      const detail = page.getByRole('complementary', { name: 'Message detail' });
      await expect(detail.getByTestId('run-now')).toBeVisible();
      await shoot('logs-run-now');

      await go(page, `#/workflows/run/${sleeping}`);
      const why = page.getByTestId('why-not-done');
      await expect(why).toContainText('Sleeping until');
      await expect(why.getByTestId('run-now')).toBeVisible();
      await shoot('workflows-run-page-run-now');
      expect(errors).toEqual([]);
    } finally {
      await wf.close();
    }
  },
);
