// A profile whose tokens the services refuse (issue 19 item 7): every list screen shows the service's
// error alone — no "No keys match", no "0 keys loaded", no counts of 0 — with what to do: edit the profile
// or test the connection, which answers with the service's own status and text. A refused send and a refused
// subscription say the same.
import type { Page } from '@playwright/test';
import { expect, go, test } from './fixtures';

async function useWrongTokens(app: Page, api: string, kv: string): Promise<void> {
  await app.keyboard.press('Alt+6');
  await app.getByRole('button', { name: 'New profile' }).click();
  const form = app.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill('Wrong token');
  await form.getByLabel('Region').selectOption('custom');
  await form.getByLabel('Base URL').fill(api);
  await form.getByLabel('Message token', { exact: true }).fill('not-the-token');
  await form.getByLabel('REST URL').fill(kv);
  await form.getByLabel('KV standard token', { exact: true }).fill('not-the-kv-token');
  await form.getByRole('button', { name: 'Create profile' }).click();
  await app.getByRole('button', { name: 'Use this profile' }).click();
  await expect(app.getByRole('button', { name: /Wrong token/ }).first()).toBeVisible();
}

test('a refused token: the error alone on every list, with Edit profile and Test connection', async ({
  app,
  stack,
}) => {
  test.setTimeout(120_000);
  await useWrongTokens(app, stack.api.url, stack.kv.url);

  // KV keys: the scan's error, no empty state and no key counts beside it.
  await go(app, '#/kv/keys');
  const help = app.getByTestId('access-help');
  await expect(app.getByText('The scan failed.')).toBeVisible();
  await expect(help).toContainText('The service refused the KV token of profile “Wrong token”');
  await expect(app.getByText('No keys match')).toHaveCount(0);
  await expect(app.getByTestId('scanned-count')).toHaveText('Not loaded');
  await help.getByRole('button', { name: 'Test connection' }).click();
  await expect(app.getByTestId('access-test-result')).toHaveText(/^HTTP 401: .+/);

  // Workflow runs: no "Running 0 · Failed 0" counts beside the error.
  await go(app, '#/workflows/runs');
  await expect(app.getByText('Could not load runs.')).toBeVisible();
  await expect(help).toContainText('The service refused the message token of profile “Wrong token”');
  await expect(app.getByRole('main').getByText('Running', { exact: true })).toHaveCount(0);

  // Message logs and the DLQ: "Not loaded", not "Loading…" forever.
  for (const [route, title, summary] of [
    ['#/messages/logs', 'Could not load the logs.', 'logs-summary'],
    ['#/dlq', 'Could not load the DLQ.', 'dlq-summary'],
  ] as const) {
    await go(app, route);
    await expect(app.getByText(title)).toBeVisible();
    await expect(app.getByTestId(summary)).toHaveText('Not loaded');
    await expect(help).toBeVisible();
  }
  // The cancel lists its messages from the logs as well: with nothing loaded it is off, and says why.
  await go(app, '#/messages/logs');
  const cancelAll = app.getByRole('button', { name: 'Cancel all pending…' });
  await expect(cancelAll).toBeDisabled();
  await expect(cancelAll).toHaveAttribute('title', /The logs could not be loaded; refresh them first/);

  // A refused send says the same under "Not sent.", and the message stays to send again.
  await go(app, '#/messages/compose');
  await app.getByLabel('Destination URL', { exact: true }).fill('https://example.com/hook');
  await app.getByRole('button', { name: 'Send' }).click();
  const sent = app.getByTestId('send-result');
  await expect(sent).toContainText('Not sent. HTTP 401');
  await expect(sent.getByTestId('access-help')).toContainText(
    'refused the message token of profile “Wrong token”',
  );
  await expect(app.getByLabel('Destination URL', { exact: true })).toHaveValue('https://example.com/hook');

  // A refused subscription too; its channel then reads ended, not pending.
  await go(app, '#/kv/pubsub');
  await app.getByLabel('Channels').fill('orders');
  await app.getByRole('button', { name: 'Subscribe' }).click();
  await expect(help).toContainText('The service refused the KV token of profile “Wrong token”');
  await expect(app.getByTestId('pubsub-subscriptions')).toContainText('orders · ended');

  // Screens showing one query say the same (queues), and Edit profile opens this profile.
  await go(app, '#/messages/queues');
  await expect(app.getByText('Could not load queues.')).toBeVisible();
  await help.getByRole('link', { name: 'Edit profile' }).click();
  await expect(app.getByRole('form', { name: 'Edit profile Wrong token' })).toBeVisible();
});
