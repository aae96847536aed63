// The run page in each state, in both themes at 1440×900, with real runs from a serve() app on the local
// stack: waiting for an event, sleeping, retrying, failed, canceled, succeeded (steps and history). No console
// errors; one screenshot each — to test-results/screenshots, or to docs/screenshots with SCREENSHOTS=1.
import { expect, go, test } from './fixtures';
import { localStack } from './support/local-stack';
import { saveScreenshot, themedPage } from './support/screenshots';
import { startWorkflowApp } from './support/workflow-app';

for (const theme of ['light', 'dark'] as const) {
  test(`the run page in each state renders cleanly in the ${theme} theme`, async ({
    browser,
    consoleHost,
  }) => {
    test.setTimeout(240_000);
    const { page, errors } = await themedPage(browser, theme, { width: 1440, height: 900 });
    await page.goto(consoleHost.url);
    const { api } = await localStack(page);
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

      const shoot = async (
        name: string,
        runId: string,
        check: (why: ReturnType<typeof page.getByTestId>) => Promise<void>,
      ) => {
        await go(page, `#/workflows/run/${runId}`);
        await check(page.getByTestId('why-not-done'));
        await page.mouse.move(0, 0);
        await saveScreenshot(page, name, theme);
      };
      await shoot('workflows-run-page-waiting', waiting, (why) =>
        expect(why).toContainText('Waiting for event'),
      );
      await shoot('workflows-run-page-sleeping', sleeping, (why) =>
        expect(why).toContainText('Sleeping until'),
      );
      await shoot('workflows-run-page-retrying', retrying, (why) =>
        expect(why).toContainText('Retry 1 of 3 of step charge'),
      );
      await shoot('workflows-run-page-failed', failed, (why) =>
        expect(why).toContainText('Failed at step charge'),
      );
      await shoot('workflows-run-page-canceled', canceled, (why) =>
        expect(why).toContainText('Canceled by a cancel request'),
      );
      await shoot('workflows-run-page-succeeded', done, async (why) => {
        await expect(why).toHaveCount(0);
        await expect(page.getByTestId('step-tree')).toBeVisible();
      });
      await page
        .getByTestId('run-page')
        .getByRole('button', { name: /^History/ })
        .click();
      await expect(page.getByTestId('run-history').locator('.wf-history-row').first()).toBeVisible();
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'workflows-run-page-history', theme);
      await go(page, '#/workflows/runs');
      await expect(
        page.getByTestId('run-list').getByRole('option', { name: `Run ${waiting}` }),
      ).toContainText('Waiting for event');
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'workflows-runs-why', theme);
      expect(errors).toEqual([]);
    } finally {
      await wf.close();
      await page.close();
    }
  });
}
