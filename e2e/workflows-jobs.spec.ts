// Jobs on workflow runs, end to end: cancel runs from the run list — the checked ones, then every active run
// the filters match — each previewed (the active runs main found) and confirmed, leaving other runs alone.
import { expect, go, runJobDialog, test } from './fixtures';

test('the run list cancels checked runs and every active run a filter matches, previewed and confirmed', async ({
  app,
  frames,
  workflowApp: wf,
}) => {
  test.setTimeout(120_000);
  // Runs that stay active: their first step is an hour away.
  const trigger = async (label: string) =>
    (await wf.client.trigger({ url: `${wf.url}/checkout`, label, delay: 3600 })).workflowRunId;
  const doomed = [await trigger('doomed'), await trigger('doomed'), await trigger('doomed')];
  const kept = await trigger('kept');
  for (const id of [...doomed, kept]) await wf.waitForRun(id, 'RUN_STARTED');

  await go(app, '#/workflows/runs');
  const list = app.getByRole('listbox', { name: 'Workflow runs' });
  await expect(list).toHaveAttribute('data-rows', '4');
  await expect(app.getByRole('button', { name: 'Cancel selected…' })).toBeDisabled();
  // A run's check is on its option (an option holds no checkbox): the box on it with the mouse, or Space
  // on the open run.
  const run = (id: string) => list.getByRole('option', { name: id });
  await run(doomed[0]!).getByTestId('row-check').click();
  await run(doomed[1]!).click();
  await app.keyboard.press('Space');
  for (const id of doomed.slice(0, 2)) await expect(run(id)).toHaveAttribute('aria-checked', 'true');
  await expect(run(kept)).toHaveAttribute('aria-checked', 'false');
  await app.getByRole('button', { name: 'Cancel selected…' }).click();
  let dialog = app.getByRole('dialog', { name: 'Cancel workflow runs' });
  await expect(dialog.getByTestId('bulk-count')).toHaveText('2 active runs');
  // The way back is not a second "Cancel".
  await expect(dialog.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cancel 2 active runs' }).click();
  await expect(dialog.getByTestId('bulk-summary')).toContainText('2 of 2 cancelled');
  await dialog.getByRole('button', { name: 'Done' }).click();
  for (const id of doomed.slice(0, 2)) await wf.waitForRun(id, 'RUN_CANCELED');

  // By filter: the one doomed run left is the only active match; "kept" is not touched.
  await app.getByRole('combobox', { name: 'Filter', exact: true }).selectOption('label');
  await app.getByRole('textbox', { name: 'Filter value' }).fill('doomed');
  await app.getByRole('button', { name: 'Add filter' }).click();
  await expect(list).toHaveAttribute('data-rows', '3');
  await app.getByRole('button', { name: 'Cancel matching…' }).click();
  dialog = app.getByRole('dialog', { name: 'Cancel workflow runs' });
  await expect(dialog).toContainText('every active run matching Label doomed');
  await runJobDialog(dialog, 'Cancel', '1 active run', '1 of 1 cancelled');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await wf.waitForRun(doomed[2]!, 'RUN_CANCELED');
  expect((await wf.waitForRun(kept, 'RUN_STARTED')).workflowState).toBe('RUN_STARTED');

  // The job went out by ids only: no filtered cancel request that the service could widen.
  const targets = frames.sent
    .filter((frame) => frame.includes('"workflows.runs.job"'))
    .map((frame) => JSON.parse(frame).input.target as { ids?: string[]; filters?: unknown });
  expect(targets).toHaveLength(2);
  expect(targets[0]!.ids!.sort()).toEqual(doomed.slice(0, 2).sort());
  expect(targets[1]).toEqual({ filters: { label: ['doomed'] } });
});
