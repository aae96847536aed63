// A profile whose tokens the services refuse (issue 19 item 7): every list screen shows the service's
// error alone — no "No keys match", no "0 keys loaded", no counts of 0 — with what to do: edit the profile
// or test the connection, which answers with the service's own status and text. A refused send, a refused
// subscription, a refused KV pipeline and a key whose reads are refused say the same.
import type { Page } from '@playwright/test';
import { expect, go, test } from './fixtures';
import { kvApi, LOCAL_KV_TOKEN } from './support/kv-api';
import { startScriptedService } from './support/scripted-service';
import { DEV_TOKEN } from './support/stack-api';

/** Creates a profile with these URLs and tokens and makes it the active one. */
async function useProfile(
  app: Page,
  name: string,
  { api, messageToken, kv, kvToken }: { api: string; messageToken: string; kv: string; kvToken: string },
): Promise<void> {
  await app.keyboard.press('Alt+6');
  await app.getByRole('button', { name: 'New profile' }).click();
  const form = app.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Region').selectOption('custom');
  await form.getByLabel('Base URL').fill(api);
  await form.getByLabel('Message token', { exact: true }).fill(messageToken);
  await form.getByLabel('REST URL').fill(kv);
  await form.getByLabel('KV standard token', { exact: true }).fill(kvToken);
  await form.getByRole('button', { name: 'Create profile' }).click();
  await app.getByRole('button', { name: 'Use this profile' }).click();
  await expect(app.getByRole('button', { name: new RegExp(name) }).first()).toBeVisible();
}

function useWrongTokens(app: Page, api: string, kv: string): Promise<void> {
  return useProfile(app, 'Wrong token', {
    api,
    messageToken: 'not-the-token',
    kv,
    kvToken: 'not-the-kv-token',
  });
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

test('KV: a refused pipeline and a key whose reads are refused say what to do, as the workbench does', async ({
  app,
  stack,
}) => {
  await kvApi(stack.kv.url).command('SET', 'orders', '1');
  // The KV service takes the profile's token for single commands (the scan, the workbench) and refuses it
  // for pipelines (a key's details are read with one, as is the pipeline editor's request).
  const service = await startScriptedService(
    ({ path }) => (path === '/pipeline' ? { status: 401, json: { error: 'Unauthorized' } } : 'forward'),
    stack.kv.url,
  );
  try {
    await useProfile(app, 'Half refused', {
      api: stack.api.url,
      messageToken: DEV_TOKEN,
      kv: service.url,
      kvToken: LOCAL_KV_TOKEN,
    });

    // The key browser lists the key; its panel says why it cannot read it, and what to do.
    await go(app, '#/kv/keys');
    await app.getByText('orders', { exact: true }).click();
    const keyFailure = app.getByRole('alert').filter({ hasText: 'Could not read the key.' });
    await expect(keyFailure).toContainText('Unauthorized');
    await expect(keyFailure.getByTestId('access-help')).toContainText(
      'The service refused the KV token of profile “Half refused”',
    );
    await expect(keyFailure.getByRole('button', { name: 'Test connection' })).toBeVisible();

    // The pipeline editor: the same help under its own title, the rows kept to run again.
    await go(app, '#/kv/workbench');
    await app.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Pipeline' }).click();
    await app.getByRole('textbox', { name: 'Row 1' }).fill('GET orders');
    await app.getByRole('button', { name: 'Run pipeline' }).click();
    const pipelineFailure = app.getByRole('alert').filter({ hasText: 'The pipeline failed.' });
    await expect(pipelineFailure.getByTestId('access-help')).toContainText(
      'The service refused the KV token of profile “Half refused”',
    );
    await expect(app.getByRole('textbox', { name: 'Row 1' })).toHaveValue('GET orders');
  } finally {
    await service.close();
  }
});
