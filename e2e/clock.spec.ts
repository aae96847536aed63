// The local stack's clock and Run now, end to end: Chromium → browser host → main → the console's local stack
// (its production clock) → a real serve() app and a recording destination.
import { expect, go, goOnceStackRuns, test } from './fixtures';
import { DEV_TOKEN } from './support/stack-api';

const DAY = 86_400_000;

// Each test starts a console, its stack and a serve() app: on a loaded 2-core machine that alone can take most
// of the default minute.
test.describe.configure({ timeout: 120_000 });

test('advancing 7 days from the Local stack page completes a run sleeping a week; the status bar shows +7 d', async ({
  app,
  stack,
  workflowApp,
}) => {
  const { workflowRunId } = await workflowApp.client.trigger({ url: `${workflowApp.url}/week` });
  // The sleep waits for the clock (the stack says so), and nothing shows in the status bar yet.
  await expect
    .poll(async () => {
      const response = await stack.api.request('GET', `/local/workflows/runs/${workflowRunId}/due`);
      return ((await response.json()) as { items: unknown[] }).items.length;
    })
    .toBe(1);
  await go(app, '#/stack');
  const card = app.getByTestId('stack-clock-card');
  await expect(card).toContainText('in step with this computer');
  await expect(card).toContainText('KV TTLs live in redis-server');
  await expect(app.getByTestId('clock-pill')).toHaveCount(0);

  await card.getByRole('button', { name: 'Advance…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Advance the stack clock' });
  await expect(dialog).toContainText(`(workflow run ${workflowRunId.slice(0, 16)}`);
  await dialog.getByRole('button', { name: '7 d', exact: true }).click();
  await dialog.getByRole('button', { name: 'Advance 7 d' }).click();
  await expect(dialog).toHaveCount(0);

  await expect(app.getByTestId('clock-pill')).toContainText('+7 d');
  await expect(card).toContainText('+7 d ahead of this computer');
  const run = await workflowApp.waitForRun(workflowRunId, 'RUN_SUCCESS');
  expect(run.workflowRunCompletedAt - run.workflowRunCreatedAt).toBeGreaterThanOrEqual(7 * DAY);
  const clock = (await (await stack.api.request('GET', '/local/clock')).json()) as { offsetMs: number };
  expect(clock.offsetMs).toBe(7 * DAY);
});

test('Run now delivers a message delayed 2 h from its Logs trail, without moving the clock', async ({
  app,
  stack,
  sink,
  frames,
}) => {
  const { messageId } = (await stack.api.publish(`${sink.url}/later`, { 'Upstash-Delay': '2h' })) as {
    messageId: string;
  };
  await goOnceStackRuns(app, `#/messages/logs/${messageId}`);
  const detail = app.getByRole('complementary', { name: 'Message detail' });
  const runNow = detail.getByTestId('run-now');
  await expect(runNow).toBeEnabled();
  await expect(runNow).toHaveAttribute('title', /without moving the stack clock/);
  await runNow.click();
  await expect.poll(() => sink.receivedAt('/later').length).toBe(1);
  await expect(detail.getByTestId('run-now')).toHaveCount(0);
  const clock = (await (await stack.api.request('GET', '/local/clock')).json()) as { offsetMs: number };
  expect(clock.offsetMs).toBe(0);
  // The page asked main; main called the stack with a token the page never saw.
  expect(frames.sent.some((frame) => frame.includes('"stack.clock.runNow"'))).toBe(true);
  expect(frames.received.some((frame) => frame.includes(DEV_TOKEN))).toBe(false);
});

test('Run now wakes a sleeping step from the run page’s “why not done”', async ({ app, workflowApp }) => {
  const { workflowRunId } = await workflowApp.client.trigger({ url: `${workflowApp.url}/nap` });
  await goOnceStackRuns(app, `#/workflows/run/${workflowRunId}`);
  const why = app.getByTestId('why-not-done');
  await expect(why).toContainText('Sleeping until', { timeout: 20_000 });
  await why.getByTestId('run-now').click();
  await workflowApp.waitForRun(workflowRunId, 'RUN_SUCCESS');
  await expect(why).toHaveCount(0, { timeout: 20_000 });
});

test('“To the next due item” advances exactly as far as the next delayed message', async ({
  app,
  stack,
  sink,
}) => {
  await stack.api.publish(`${sink.url}/three-hours`, { 'Upstash-Delay': '3h' });
  await goOnceStackRuns(app, '#/stack');
  const card = app.getByTestId('stack-clock-card');
  // 3 h less the moments since the publish: `in 2 h 59 min` (or `in 3 h` within the same millisecond).
  await expect(card).toContainText(/in (2 h 59 min|3 h)/, { timeout: 30_000 });
  await card.getByRole('button', { name: 'Advance…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Advance the stack clock' });
  // With something due, the dialog offers it first.
  await expect(dialog.getByRole('button', { name: 'To the next due item' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await dialog.getByRole('button', { name: /^Advance (2 h 59 min|3 h)/ }).click();
  await expect.poll(() => sink.receivedAt('/three-hours').length).toBe(1);
  // Sent as whole seconds rounded up: up to 3 h.
  await expect(app.getByTestId('clock-pill')).toContainText(/\+(2 h 59 min|3 h)/);
  // A duration the stack refuses is refused as it is typed.
  await app.getByTestId('clock-pill').click();
  await dialog.getByRole('button', { name: 'Other…' }).click();
  await dialog.getByLabel('Duration').fill('-1h');
  await expect(dialog).toContainText('negative durations are not allowed');
  await expect(dialog.getByRole('button', { name: 'Advance', exact: true })).toBeDisabled();
});
