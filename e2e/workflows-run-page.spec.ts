// A run's own page end to end: a real serve() app on the console's local stack, a run that waits for its
// approval event. The page says why the run is not done (the event id, since when, when it times out), the
// Notify dialog opens with that event id, sending it finishes the run, and the history lists what happened
// in order. The run list says the same sentence; a text search finds the run by its payload.
import { expect, go, test } from './fixtures';

test('a waiting run’s page says why, Notify is prefilled, the history is in order', async ({
  app,
  workflowApp: wf,
}) => {
  test.setTimeout(120_000);
  const workflowRunId = await wf.trigger('/approval', { body: { order: 'kiwi-4242' } });
  const eventId = `approve-${workflowRunId}`;
  await expect.poll(async () => (await wf.client.getWaiters({ eventId })).length).toBe(1);
  // The delivery that registered the wait has ended too: the run waits for nothing else.
  await expect
    .poll(async () => {
      const run = await wf.waitForRun(workflowRunId, 'RUN_STARTED');
      return (run.deliveries as { state: string }[]).every((delivery) => delivery.state === 'delivered');
    })
    .toBe(true);

  // The run list says why it is not done, in the plain colour of a normal wait.
  await go(app, '#/workflows/runs');
  const row = app.getByTestId('run-list').getByRole('option', { name: workflowRunId });
  await expect(row).toContainText(`Waiting for event ${eventId} since`);
  await expect(row.locator('.run-row-detail')).toHaveClass(/tone-info/);

  // Search by the payload finds it (the stack's text index).
  await app.getByRole('textbox', { name: 'Search runs' }).fill('kiwi');
  await app.getByRole('textbox', { name: 'Search runs' }).press('Enter');
  await expect(app.getByTestId('search-scope')).toContainText('text index');
  await expect(app.getByTestId('run-list')).toHaveAttribute('data-rows', '1');
  await expect(row).toBeVisible();

  // The page: deep-linkable, full width.
  await go(app, `#/workflows/run/${workflowRunId}`);
  const page = app.getByTestId('run-page');
  const why = page.getByTestId('why-not-done');
  await expect(why).toContainText(`Waiting for event ${eventId} since`);
  await expect(why).toContainText('(times out');
  await expect(why.locator('code', { hasText: eventId })).toBeVisible();

  await why.getByRole('button', { name: 'Notify…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Notify a waiting run' });
  await expect(dialog.getByLabel('Event id')).toHaveValue(eventId);
  await dialog.getByLabel('Event data').fill('{"approved":true}');
  await dialog.getByRole('button', { name: 'Send event' }).click();
  await expect(page.getByText('Succeeded').first()).toBeVisible({ timeout: 30_000 });
  await expect(why).toHaveCount(0);

  await page.getByRole('button', { name: /^History/ }).click();
  const history = page.getByTestId('run-history');
  const titles = history.locator('.wf-history-title');
  await expect(titles.first()).toContainText('Triggered by the SDK');
  const texts = await titles.allTextContents();
  const at = (pattern: RegExp) => texts.findIndex((text) => pattern.test(text));
  const order = [
    /^Triggered by the SDK/,
    /^Step load-order \(Run\) finished/,
    new RegExp(`^Waiting for event ${eventId}`),
    new RegExp(`^Event ${eventId} notified`),
    /^Wait approval for event .* ended: the event arrived/,
    /^Completed/,
  ].map(at);
  expect(order, texts.join('\n')).toEqual([...order].sort((a, b) => a - b));
  expect(
    order.every((index) => index >= 0),
    texts.join('\n'),
  ).toBe(true);
  // The notify was sent by the console: the history says so.
  await expect(history.getByText('this console')).toBeVisible();
});
