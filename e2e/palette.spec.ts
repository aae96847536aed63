// The command palette's actions: new message, the tabs of every area, restarting the local stack, and the
// commands the screen on show offers while they apply (retry / delete the selected DLQ entries).
import type { Page } from '@playwright/test';
import { expect, go, goOnceStackRuns, test } from './fixtures';

async function runCommand(app: Page, query: string, expected: RegExp) {
  await app.keyboard.press('Control+k');
  const palette = app.getByRole('dialog', { name: 'Command palette' });
  await expect(palette.getByRole('combobox')).toBeFocused();
  await app.keyboard.type(query);
  await expect(palette.getByRole('option').first()).toHaveText(expected);
  await app.keyboard.press('Enter');
  await expect(palette).toBeHidden();
}

test('palette: new message, tabs of every area, and restart the local stack', async ({ app }) => {
  await goOnceStackRuns(app, '#/kv/keys');
  await runCommand(app, 'new message', /New message/);
  await expect(app).toHaveURL(/#\/messages\/compose$/);
  await expect(app.getByLabel('Destination URL', { exact: true })).toBeVisible();

  await runCommand(app, 'open messages logs', /Open Messages › Logs/);
  await expect(app).toHaveURL(/#\/messages\/logs$/);
  await runCommand(app, 'open queues', /Open Messages › Queues/);
  await expect(app).toHaveURL(/#\/messages\/queues$/);
  await runCommand(app, 'open workflows dlq triage', /Open Workflows › DLQ triage/);
  await expect(app).toHaveURL(/#\/workflows\/dlq$/);
  await runCommand(app, 'open kv monitor', /Open KV › Monitor/);
  await expect(app).toHaveURL(/#\/kv\/monitor$/);

  await runCommand(app, 'restart local stack', /Restart the local stack/);
  await expect(app).toHaveURL(/#\/stack$/);
  // The page shows what is about to restart, and asks first.
  await app
    .getByRole('dialog', { name: 'Restart the local stack?' })
    .getByRole('button', { name: 'Restart now' })
    .click();
  await expect(app.getByTestId('stack-page-state')).toHaveText('Running', { timeout: 30_000 });
});

test('palette: "Retry selected" exists while DLQ entries are selected and opens the retry for them', async ({
  app,
  sink,
  stack: { api },
}) => {
  sink.respond(() => ({ status: 500, body: 'down' }));
  for (const path of ['/a', '/b']) await api.publish(`${sink.url}${path}`, { 'Upstash-Retries': '0' });
  await go(app, '#/dlq');
  const table = app.getByRole('table', { name: 'DLQ entries' });
  await expect(async () => {
    await app.getByRole('button', { name: 'Refresh' }).click();
    await expect(table.getByRole('row')).toHaveCount(3, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // Nothing selected: the palette offers no retry of a selection.
  await app.keyboard.press('Control+k');
  await app.keyboard.type('retry selected');
  await expect(app.getByRole('option', { name: /selected DLQ/ })).toHaveCount(0);
  await app.keyboard.press('Escape');

  await table.getByRole('checkbox', { name: 'Select all loaded entries' }).check();
  await runCommand(app, 'retry selected', /Retry 2 selected DLQ entries…/);
  const dialog = app.getByRole('dialog', { name: 'Retry selected DLQ entries' });
  await expect(dialog.getByRole('button', { name: 'Retry 2 entries' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();

  // Leaving the screen takes its commands away.
  await go(app, '#/messages/compose');
  await app.keyboard.press('Control+k');
  await app.keyboard.type('retry selected');
  await expect(app.getByRole('option', { name: /selected DLQ/ })).toHaveCount(0);
  await app.keyboard.press('Escape');
});
