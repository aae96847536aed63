// The run page in each state, in both themes at 1440×900, with real runs from a serve() app on the local
// stack: waiting for an event, sleeping, retrying, failed, canceled, succeeded (steps and history). No console
// errors; one screenshot each — to test-results/screenshots, or to docs/screenshots with SCREENSHOTS=1.
import { expect, go } from './fixtures';
import { themedConsoleTest } from './support/screenshots';
import { startWorkflowApp } from './support/workflow-app';

themedConsoleTest(
  'the run page in each state renders cleanly',
  { timeout: 240_000, viewport: { width: 1440, height: 900 } },
  async ({ page, errors, api, shoot }) => {
    const wf = await startWorkflowApp(api.url);
    try {
      const trigger = async (path: string, options: Record<string, unknown> = {}) =>
        (await wf.client.trigger({ url: `${wf.url}${path}`, body: { order: 7 }, ...options })).workflowRunId;
      const waiting = await trigger('/approval', { label: 'web' });
      const sleeping = await trigger('/nap');
      wf.setHealthy(false);
      const retrying = await trigger('/checkout', { retries: 3, retryDelay: '3600000' });
      const failed = await trigger('/checkout', { retries: 0 });
      await wf.waitForRun(failed, 'RUN_FAILED');
      wf.setHealthy(true);
      const canceled = await trigger('/approval');
      const done = await trigger('/order', { label: 'web' });
      await wf.waitForRun(done, 'RUN_SUCCESS');
      await expect
        .poll(async () => (await wf.client.getWaiters({ eventId: `approve-${canceled}` })).length)
        .toBe(1);
      await wf.client.cancel({ ids: [canceled] });
      await wf.waitForRun(canceled, 'RUN_CANCELED');

      const shootRun = async (
        name: string,
        runId: string,
        check: (why: ReturnType<typeof page.getByTestId>) => Promise<void>,
      ) => {
        await go(page, `#/workflows/run/${runId}`);
        await check(page.getByTestId('why-not-done'));
        await shoot(name);
      };
      await shootRun('workflows-run-page-waiting', waiting, (why) =>
        expect(why).toContainText('Waiting for event'),
      );
      await shootRun('workflows-run-page-sleeping', sleeping, (why) =>
        expect(why).toContainText('Sleeping until'),
      );
      await shootRun('workflows-run-page-retrying', retrying, (why) =>
        expect(why).toContainText('Retry 1 of 3 of step charge'),
      );
      await shootRun('workflows-run-page-failed', failed, (why) =>
        expect(why).toContainText('Failed at step charge'),
      );
      await shootRun('workflows-run-page-canceled', canceled, (why) =>
        expect(why).toContainText('Canceled by a cancel request'),
      );
      await shootRun('workflows-run-page-succeeded', done, async (why) => {
        await expect(why).toHaveCount(0);
        await expect(page.getByTestId('step-tree')).toBeVisible();
      });
      await page
        .getByTestId('run-page')
        .getByRole('button', { name: /^History/ })
        .click();
      await expect(page.getByTestId('run-history').locator('.wf-history-row').first()).toBeVisible();
      await shoot('workflows-run-page-history');
      await go(page, '#/workflows/runs');
      await expect(page.getByTestId('run-list').getByRole('option', { name: waiting })).toContainText(
        'Waiting for event',
      );
      await shoot('workflows-runs-why');
      expect(errors).toEqual([]);
    } finally {
      await wf.close();
    }
  },
);
