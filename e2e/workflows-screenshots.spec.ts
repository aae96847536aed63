// The Workflows screens (run list, run detail, a run's messages in the logs, compare, DLQ triage, the bulk job dialog, the job journal)
// in both themes, with real runs from a serve() app on the local stack: no console errors, one screenshot
// each — to test-results/screenshots, or to docs/screenshots with SCREENSHOTS=1.
import { expect, go } from './fixtures';
import { themedConsoleTest } from './support/screenshots';
import { startWorkflowApp } from './support/workflow-app';

themedConsoleTest(
  'workflow screens render cleanly',
  { timeout: 180_000, viewport: { width: 1440, height: 900 } },
  async ({ page, errors, api, shoot: save }) => {
    const wf = await startWorkflowApp(api.url);
    try {
      const shoot = async (name: string, check: () => Promise<void>) => {
        await check();
        await save(name);
      };
      const { workflowRunId: order } = await wf.client.trigger({
        url: `${wf.url}/order`,
        body: { order: 7 },
        label: 'web',
      });
      wf.setHealthy(false);
      const failed: string[] = [];
      for (let i = 0; i < 4; i += 1) {
        failed.push(
          (await wf.client.trigger({ url: `${wf.url}/checkout`, body: { i }, retries: 0, label: 'web' }))
            .workflowRunId,
        );
      }
      failed.push((await wf.client.trigger({ url: `${wf.url}/ship`, retries: 0 })).workflowRunId);
      for (const id of failed) await wf.waitForRun(id, 'RUN_FAILED');
      wf.setHealthy(true);
      const { workflowRunId: good } = await wf.client.trigger({ url: `${wf.url}/checkout`, body: { i: 9 } });
      await wf.waitForRun(good, 'RUN_SUCCESS');
      await wf.waitForRun(order, 'RUN_SUCCESS');

      await go(page, '#/workflows/runs');
      await shoot('workflows-runs', async () => {
        await expect(page.getByTestId('run-list').getByRole('option')).not.toHaveCount(0);
        await expect(page.getByTestId('run-stats')).toBeVisible();
      });
      await page.getByTestId('run-list').getByRole('option', { name: order }).click();
      await shoot('workflows-run-detail', async () => {
        await expect(page.getByTestId('step-panel')).toBeVisible();
      });
      await page.getByTestId('run-list').getByRole('option', { name: failed[0] }).click();
      await shoot('workflows-run-failed', async () => {
        await expect(page.getByTestId('failure-function')).toBeVisible();
        await expect(page.getByTestId('step-panel')).toContainText('Attempts that failed');
      });
      await page.getByTestId('run-detail').getByRole('button', { name: 'Messages in logs' }).click();
      await shoot('workflows-run-messages', async () => {
        await expect(
          page.getByRole('button', { name: new RegExp(`^Remove filter Run ${failed[0]}: `) }),
        ).toBeVisible();
        await expect(page.getByTestId('log-list').getByRole('listitem')).not.toHaveCount(0);
      });
      await go(page, `#/workflows/compare/${failed[0]}/${good}`);
      await shoot('workflows-compare', async () => {
        await expect(page.getByTestId('compare-summary')).toBeVisible();
      });
      await go(page, '#/workflows/dlq');
      await shoot('workflows-dlq-triage', async () => {
        await expect(page.getByTestId('failure-group')).toHaveCount(2);
      });
      await page.getByTestId('failure-group').filter({ hasText: 'charge' }).getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Restart / resume…' }).click();
      await shoot('workflows-bulk-dialog', async () => {
        await expect(page.getByRole('dialog').getByTestId('bulk-count')).toHaveText('4 runs');
      });
      await page.getByRole('dialog').getByRole('button', { name: 'Restart 4 runs' }).click();
      await shoot('workflows-bulk-summary', async () => {
        await expect(page.getByTestId('bulk-summary')).toContainText('4 of 4 restarted');
      });
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await go(page, '#/jobs');
      await shoot('workflows-jobs', async () => {
        await expect(page.getByTestId('job-row')).toHaveCount(1);
      });
      expect(errors).toEqual([]);
    } finally {
      await wf.close();
    }
  },
);
