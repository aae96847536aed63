// The Workflows area end to end: Chromium → browser host → main → the real local stack → a real app
// served with the vendor's serve() on 127.0.0.1. Runs of every step type in the explorer; failures grouped
// in DLQ triage; a bulk restart of one group with progress, summary and its journal entry; compare.
import { expect, go, test } from './fixtures';

test('the run explorer shows a run of every step type: tree beside timeline, step details, filters', async ({
  app,
  workflowApp: wf,
}) => {
  test.setTimeout(120_000);
  const workflowRunId = await wf.trigger('/order', { body: { order: 7 }, label: 'e2e-order' });
  await wf.waitForRun(workflowRunId, 'RUN_SUCCESS');
  await wf.trigger('/checkout', { body: { order: 8 } });

  await go(app, '#/workflows/runs');
  const list = app.getByTestId('run-list');
  await expect(list.getByRole('option', { name: workflowRunId })).toBeVisible();
  await list.getByRole('option', { name: workflowRunId }).click();

  const detail = app.getByTestId('run-detail');
  const tree = detail.getByTestId('step-tree');
  for (const name of [
    'init',
    'reserve',
    'pick',
    'pack',
    'quote',
    'cool-down',
    'until',
    'approval',
    'announce',
    'child',
  ]) {
    await expect(
      tree.locator(`[data-step-key] .wf-step-name`, { hasText: new RegExp(`^${name}$`) }),
    ).toHaveCount(1);
  }
  await expect(tree.getByText('Parallel · 2 steps')).toBeVisible();

  // Selecting the Call step in the tree selects its timeline bar too (one row) and shows request + response.
  const quote = tree.locator('[data-step-key]', {
    has: app.locator('.wf-step-name', { hasText: /^quote$/ }),
  });
  await quote.locator('.wf-step-cell').click();
  await expect(quote).toHaveAttribute('aria-selected', 'true');
  const panel = detail.getByTestId('step-panel');
  await expect(panel.getByRole('heading', { name: /quote/ })).toBeVisible();
  await expect(panel.getByText(`${wf.url}/quote`)).toBeVisible();
  await expect(panel.getByText('Call response')).toBeVisible();
  await expect(panel.locator('.wf-call').getByText('200', { exact: true })).toBeVisible();
  // …and selecting on the timeline selects the tree row.
  const reserve = tree.locator('[data-step-key]', {
    has: app.locator('.wf-step-name', { hasText: /^reserve$/ }),
  });
  await reserve.locator('.wf-bar-cell').click();
  await expect(reserve).toHaveAttribute('aria-selected', 'true');
  await expect(panel.getByRole('heading', { name: /reserve/ })).toBeVisible();
  await expect(panel.getByLabel('reserve output', { exact: true })).toContainText('"sku": "A-1"');

  // The Wait step says it ended by timeout; the Invoke step links the child run.
  const approval = tree.locator('[data-step-key]', {
    has: app.locator('.wf-step-name', { hasText: /^approval$/ }),
  });
  await approval.locator('.wf-step-cell').click();
  await expect(panel.getByText('timeout', { exact: true })).toBeVisible();
  const child = tree.locator('[data-step-key]', {
    has: app.locator('.wf-step-name', { hasText: /^child$/ }),
  });
  await child.locator('.wf-step-cell').click();
  await panel.locator('dt', { hasText: 'Invoked run' }).locator('xpath=following-sibling::dd[1]//a').click();
  await expect(detail.getByText('Invoked by')).toBeVisible();

  // Closed, the run goes back to the run list's own address.
  await detail.getByRole('button', { name: 'Close run' }).click();
  await expect(app).toHaveURL(/#\/workflows\/runs$/);
  await expect(detail).toBeHidden();

  // A label chip narrows the list to the labelled run.
  await go(app, '#/workflows/runs');
  await app.getByRole('combobox', { name: 'Filter', exact: true }).selectOption('label');
  await app.getByRole('textbox', { name: 'Filter value' }).fill('e2e-order');
  await app.getByRole('button', { name: 'Add filter' }).click();
  await expect(app.getByRole('button', { name: 'Remove filter Label e2e-order' })).toBeVisible();
  await expect(list).toHaveAttribute('data-rows', '1');
  await expect(list.getByRole('option', { name: workflowRunId })).toBeVisible();
});

test('DLQ triage groups failures; a group is restarted in bulk with progress, summary and a journal entry; compare', async ({
  app,
  workflowApp: wf,
}) => {
  test.setTimeout(150_000);
  wf.setHealthy(false);
  const failed: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    failed.push(await wf.trigger('/checkout', { body: { i }, retries: 0 }));
  }
  const shipRun = await wf.trigger('/ship', { retries: 0 });
  for (const id of [...failed, shipRun]) await wf.waitForRun(id, 'RUN_FAILED');
  wf.setHealthy(true);
  const good = await wf.trigger('/checkout', { body: { i: 9 } });
  await wf.waitForRun(good, 'RUN_SUCCESS');

  await go(app, '#/workflows/dlq');
  const groups = app.getByTestId('failure-group');
  await expect(groups).toHaveCount(2);
  const charge = groups.filter({ hasText: 'charge' });
  await expect(charge).toContainText('3');
  await expect(charge).toContainText('payment gateway <n> for order <n>');
  await expect(groups.filter({ hasText: 'label' })).toContainText('carrier API timed out after <n> ms');

  // Restart the charge group: preview count, the restart/resume explanation, an override, then the job.
  await charge.getByRole('checkbox').check();
  await app.getByRole('button', { name: 'Restart / resume…' }).click();
  const dialog = app.getByRole('dialog');
  await expect(dialog.getByTestId('bulk-count')).toHaveText('3 runs');
  await dialog.getByRole('button', { name: 'Resume from the failed step' }).click();
  await expect(dialog.getByText(/Change the workflow code only after the failed step/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Restart from the beginning' }).click();
  await expect(dialog.getByText(/starts each run over from its first step/)).toBeVisible();
  await dialog.getByLabel('Labels').fill('replayed');
  await dialog.getByRole('button', { name: 'Restart 3 runs' }).click();
  const summary = dialog.getByTestId('bulk-summary');
  await expect(summary).toContainText('3 of 3 restarted');
  await expect(summary.getByRole('table', { name: 'New runs' }).locator('tbody tr')).toHaveCount(3);
  await expect(summary).toContainText('labels replayed');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The group is gone from the DLQ; the other stays.
  await expect(groups).toHaveCount(1);
  await expect(groups).toContainText('label');

  // The journal has the job, with its target and the runs it created.
  await go(app, '#/jobs');
  const job = app.getByTestId('job-row').first();
  await expect(job).toHaveAttribute('data-status', 'done');
  await expect(job).toContainText('restart');
  await expect(job).toContainText('3/3');
  await expect(job).toContainText('labels replayed');

  // Compare a failed run with a successful one of the same URL.
  await go(app, `#/workflows/compare/${failed[0]}/${good}`);
  await expect(app.getByTestId('compare-summary')).toContainText(/step(s)? differ/);
  const rows = app.getByRole('table', { name: 'Steps compared' }).locator('tbody tr');
  // load-cart did the same in both runs. Only its output is compared: its duration is the machine's (a step
  // that waited 0.5 s longer on a loaded machine counts as a structural difference).
  await expect(rows.filter({ hasText: 'load-cart' })).toHaveAttribute('data-output-differs', 'false');
  await expect(rows.filter({ hasText: 'charge' })).toHaveAttribute('data-differs', 'true');
});

test('"Messages in logs" opens the logs filtered to every message of the run and no other run’s', async ({
  app,
  workflowApp: wf,
}) => {
  test.setTimeout(120_000);
  const runIds: string[] = [];
  for (const order of [1, 2]) {
    runIds.push(await wf.trigger('/checkout', { body: { order } }));
  }
  const [mine, other] = await Promise.all(runIds.map((id) => wf.waitForRun(id, 'RUN_SUCCESS')));
  const messagesOf = (run: { steps: { steps: { messageId: string }[] }[] }): string[] => [
    ...new Set(run.steps.flatMap((group) => group.steps.map((step) => step.messageId))),
  ];
  const mineIds = messagesOf(mine as never);
  const otherIds = messagesOf(other as never);
  // A multi-step run: init, load-cart, charge — each step its own message.
  expect(mineIds.length).toBeGreaterThanOrEqual(3);
  expect(otherIds.filter((id) => mineIds.includes(id))).toEqual([]);

  await go(app, `#/workflows/runs/${runIds[0]}`);
  await app.getByTestId('run-detail').getByRole('button', { name: 'Messages in logs' }).click();
  await expect(app).toHaveURL(/#\/messages\/logs$/);
  const chipText = `Run ${runIds[0]}: ${mineIds.length} messages`;
  const removeChip = app.getByRole('button', { name: `Remove filter ${chipText}` });
  await expect(removeChip).toBeVisible();
  const list = app.getByTestId('log-list');
  await expect(list).toHaveAttribute('data-rows', String(mineIds.length));
  for (const id of mineIds) await expect(list.getByRole('listitem').filter({ hasText: id })).toBeVisible();
  for (const id of otherIds) await expect(list.getByRole('listitem').filter({ hasText: id })).toHaveCount(0);

  // The filter is removable: without it the other run's messages are listed too.
  await removeChip.click();
  await expect(removeChip).toHaveCount(0);
  for (const id of otherIds) await expect(list.getByRole('listitem').filter({ hasText: id })).toBeVisible();
});

test('a failed run resumed from its page goes on as a new run that keeps its completed steps; each page links the other', async ({
  app,
  workflowApp: wf,
}) => {
  test.setTimeout(120_000);
  const failed = await wf.failedCheckout();

  // The failed run's page offers the DLQ's restart / resume for this run, resume first.
  await go(app, `#/workflows/run/${failed}`);
  const page = app.getByTestId('run-page');
  await page.getByRole('button', { name: 'Restart / resume…' }).click();
  const dialog = app.getByRole('dialog');
  await expect(dialog.getByTestId('bulk-count')).toHaveText('1 run');
  await expect(dialog.getByText(/Resume starts a new run \(a new run id\)/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Resume 1 run' }).click();
  const summary = dialog.getByTestId('bulk-summary');
  await expect(summary).toContainText('1 of 1 resumed');
  const newRun = summary.getByRole('table', { name: 'New runs' }).locator('tbody tr a');
  await expect(newRun).toHaveCount(1);
  const resumed = (await newRun.textContent())!.trim();
  expect(resumed).not.toBe(failed);
  const done = await wf.waitForRun(resumed, 'RUN_SUCCESS');
  // The completed step came over from the failed run: load-cart is in the new run's log, run once.
  const stepNames = done.steps.flatMap((g: { steps: { stepName?: string }[] }) =>
    g.steps.map((s) => s.stepName),
  );
  expect(stepNames).toEqual(expect.arrayContaining(['load-cart', 'charge']));
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The failed run's page now names the run that resumed it, and no longer offers the DLQ's actions.
  await expect(page.getByText(`Resumed as ${resumed}`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Restart / resume…' })).toHaveCount(0);
  await page.getByRole('button', { name: /^History/ }).click();
  await expect(page.getByTestId('run-history').locator('.wf-history-title').last()).toContainText(
    `Resumed from the DLQ as ${resumed}`,
  );
  // The badge links to the new run, whose page names the run it resumes (and links back).
  const badges = page.locator('.wf-run-badges');
  await badges.getByRole('link', { name: resumed, exact: true }).click();
  await expect(page.getByText(`Resumed from ${failed}`)).toBeVisible();
  await expect(badges.getByRole('link', { name: failed, exact: true })).toBeVisible();

  // DLQ triage has nothing left to resume.
  await go(app, '#/workflows/dlq');
  await expect(app.getByTestId('failure-group')).toHaveCount(0);
});
