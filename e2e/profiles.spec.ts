import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test, waitForStack } from './fixtures';
import { createProfile, E2E_KV_TOKEN, E2E_TOKEN, useAsReadOnlyProduction } from './support/profiles';

const TOKEN = E2E_TOKEN;
const KV_TOKEN = E2E_KV_TOKEN;

/** Everything the renderer can read: DOM (with input values), storage, IndexedDB. */
async function rendererVisibleText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const inputs = [...document.querySelectorAll('input, textarea')].map(
      (el) => (el as HTMLInputElement).value,
    );
    const storage = (s: Storage) => Object.keys(s).map((key) => `${key}=${s.getItem(key)}`);
    const databases = (await indexedDB.databases()).map((db) => db.name);
    return [
      document.documentElement.outerHTML,
      ...inputs,
      ...storage(localStorage),
      ...storage(sessionStorage),
      ...databases,
    ].join('\n');
  });
}

test('a token typed into a profile never comes back to the renderer', async ({ app, frames }) => {
  await app.keyboard.press('Alt+6');
  await createProfile(app, 'Staging EU');
  // Use it, test it, reload: every path that shows profile data.
  await app.getByRole('button', { name: 'Use this profile' }).click();
  await expect(app.getByRole('button', { name: /Active profile: Staging EU/ })).toBeVisible();
  await app.getByRole('button', { name: 'Test message API' }).click();
  await expect(app.getByTestId('test-result-messages')).toBeVisible({ timeout: 20_000 });
  await app.reload();
  await expect(app.getByRole('heading', { level: 2, name: 'Staging EU' })).toBeVisible();

  // The form shows that tokens are stored, with a masked hint only.
  await expect(app.getByLabel('Message token', { exact: true })).toHaveAttribute(
    'placeholder',
    '••••4c6d stored · type to replace',
  );
  await expect(app.getByLabel('Message token', { exact: true })).toHaveValue('');

  const visible = await rendererVisibleText(app);
  expect(visible).not.toContain(TOKEN);
  expect(visible).not.toContain(KV_TOKEN);
  for (const frame of frames.received) {
    expect(frame).not.toContain(TOKEN);
    expect(frame).not.toContain(KV_TOKEN);
  }
  expect(frames.received.length).toBeGreaterThan(5);
  // The only frame that ever carried it: the one save, renderer → main, when the user typed it.
  const carrying = frames.sent.filter((frame) => frame.includes(TOKEN));
  expect(carrying).toHaveLength(1);
  expect(JSON.parse(carrying[0]!)).toMatchObject({ type: 'call', name: 'profiles.create' });
});

test('the Local profile gets the stack’s tokens without typing, shown masked', async ({ app, frames }) => {
  await waitForStack(app);
  await app.keyboard.press('Alt+6');
  await expect(app.getByRole('heading', { name: 'Built-in: the local stack' })).toBeVisible();
  // The local stack's message token is the well-known dev token; even that stays in main.
  const devToken = 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=';
  await expect(app.getByText(`••••${devToken.slice(-4)}`)).toBeVisible();
  expect(await rendererVisibleText(app)).not.toContain(devToken);
  expect(frames.received.join('\n')).not.toContain(devToken);
  // And with them, both services answer.
  await app.getByRole('button', { name: 'Test message API' }).click();
  await expect(app.getByTestId('test-result-messages')).toContainText('Connected, token accepted');
  await app.getByRole('button', { name: 'Test KV REST' }).click();
  await expect(app.getByTestId('test-result-kv')).toContainText('Connected, token accepted');
});

test.describe('connection test against a service that rejects the token', () => {
  let server: Server;
  let url: string;
  test.beforeAll(async () => {
    server = createServer((_req, res) => {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"invalid token: signature mismatch"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => server.close());

  test('shows the service’s own error text', async ({ app }) => {
    await app.keyboard.press('Alt+6');
    await createProfile(app, 'Bad token', { messagesUrl: url });
    await app.getByRole('button', { name: 'Test message API' }).click();
    const result = app.getByTestId('test-result-messages');
    await expect(result).toContainText('Token rejected (HTTP 401): invalid token: signature mismatch');
  });
});

test('bad input gets a clear message and nothing is saved', async ({ app }) => {
  await app.keyboard.press('Alt+6');
  await app.getByRole('button', { name: 'New profile' }).click();
  const form = app.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Region').selectOption('custom');
  await form.getByLabel('Base URL').fill('qstash.example.com');
  await form.getByLabel('REST URL').fill('ftp://kv.example.com');
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(form.getByText('A profile needs a name.')).toBeVisible();
  await expect(form.getByText('Not a valid URL (e.g. https://example.upstash.io).')).toBeVisible();
  await expect(form.getByText('Use an http:// or https:// URL.')).toBeVisible();
  // A name clash is caught by main and shown in the form.
  await form.getByLabel('Name').fill('Dup');
  await form.getByLabel('Base URL').fill('https://qstash.example.com');
  await form.getByLabel('REST URL').fill('');
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(app.getByRole('heading', { level: 2, name: 'Dup' })).toBeVisible();
  await app.getByRole('button', { name: 'New profile' }).click();
  await app.getByRole('form', { name: 'New profile' }).getByLabel('Name').fill('dup');
  await app
    .getByRole('form', { name: 'New profile' })
    .getByRole('button', { name: 'Create profile' })
    .click();
  await expect(app.getByText('A profile named "dup" already exists.')).toBeVisible();
  await expect(app.getByRole('navigation', { name: 'Profiles' }).getByRole('button')).toHaveCount(2);
});

test('edit, mark as production, duplicate and delete with confirmation', async ({ app }) => {
  await app.keyboard.press('Alt+6');
  await createProfile(app, 'Payments');
  // Production is marked everywhere once active.
  await useAsReadOnlyProduction(app, 'Payments');
  await expect(app.getByRole('note')).toContainText('PRODUCTION — Payments');
  await app.keyboard.press('Alt+1');
  await expect(app.getByRole('note')).toContainText('PRODUCTION');
  await expect(app.locator('.app')).toHaveAttribute('data-env', 'prod');
  await app.keyboard.press('Alt+6');

  await app.getByRole('button', { name: 'Duplicate' }).click();
  await expect(app.getByRole('heading', { level: 2, name: 'Payments copy' })).toBeVisible();
  await app
    .getByRole('navigation', { name: 'Profiles' })
    .getByRole('button', { name: /^Payments Prod/ })
    .click();

  // Deleting a production profile requires typing its name.
  await app.getByRole('button', { name: 'Delete' }).click();
  const dialog = app.getByRole('dialog', { name: 'Delete profile “Payments”?' });
  const confirmButton = dialog.getByRole('button', { name: 'Delete profile' });
  await expect(confirmButton).toBeDisabled();
  await dialog.getByLabel(/Type Payments to confirm/).fill('Payment');
  await expect(confirmButton).toBeDisabled();
  await dialog.getByLabel(/Type Payments to confirm/).fill('Payments');
  await confirmButton.click();
  await expect(app.getByText('Profile deleted')).toBeVisible();
  await expect(
    app.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /^Payments Prod/ }),
  ).toHaveCount(0);
  // The active profile fell back to Local.
  await expect(app.getByRole('button', { name: /Active profile: Local/ })).toBeVisible();
});

test('profiles export without secrets and import back', async ({ app }) => {
  await app.keyboard.press('Alt+6');
  await createProfile(app, 'Exported');
  const downloadPromise = app.waitForEvent('download');
  await app.getByRole('button', { name: 'Export', exact: true }).click();
  const download = await downloadPromise;
  const file = await download.path();
  const text = readFileSync(file, 'utf8');
  expect(text).not.toContain(TOKEN);
  expect(JSON.parse(text)).toMatchObject({ format: 'switchyard.profiles', profiles: [{ name: 'Exported' }] });

  await app.getByTestId('import-file').setInputFiles(file);
  await expect(app.getByText('Imported 1 profile')).toBeVisible();
  await expect(
    app.getByRole('navigation', { name: 'Profiles' }).getByRole('button', { name: /^Exported 2/ }),
  ).toBeVisible();

  await app
    .getByTestId('import-file')
    .setInputFiles({ name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('{"nope":') });
  await expect(app.getByText('junk.json is not JSON.')).toBeVisible();
});

test('switching profiles from the sidebar', async ({ app }) => {
  await waitForStack(app);
  await app.keyboard.press('Alt+6');
  await createProfile(app, 'Second');
  await app.getByRole('button', { name: /Active profile: Local/ }).click();
  await app.getByRole('menuitemradio', { name: /Second/ }).click();
  await expect(app.getByRole('button', { name: /Active profile: Second/ })).toBeVisible();
});

test('a URL moved to another host needs its token typed again before the profile is saved', async ({
  app,
  frames,
}) => {
  await app.keyboard.press('Alt+6');
  await createProfile(app, 'Moving');
  const form = app.getByRole('form', { name: 'Edit profile Moving' });
  await form.getByLabel('Region').selectOption('custom');
  await form.getByLabel('Base URL').fill('http://127.0.0.1:9/qstash');
  const notice = form.getByText(
    'The Message token was saved for https://qstash.upstash.io. Type it again, or clear it, to use ' +
      'http://127.0.0.1:9: a stored token is only sent to the host it was saved for.',
  );
  await expect(notice).toBeVisible();
  // Saving now sends nothing: the token would otherwise go to the new host.
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(notice).toBeVisible();
  expect(frames.sent.filter((frame) => frame.includes('"profiles.update"'))).toHaveLength(0);

  await form.getByLabel('Message token', { exact: true }).fill('SY-E2E-TOKEN-for-the-new-host');
  await expect(notice).toHaveCount(0);
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(app.getByText('Profile saved')).toBeVisible();
  await expect(form.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:9/qstash');
  await expect(form.getByLabel('Message token', { exact: true })).toHaveAttribute(
    'placeholder',
    '••••host stored · type to replace',
  );
});
