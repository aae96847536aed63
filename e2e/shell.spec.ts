import { expect, test, waitForStack } from './fixtures';

// What each area shows first on a fresh local stack: an empty state, or (KV) the command line.
const AREAS = [
  { nav: 'URL groups', heading: 'URL groups', first: { role: 'heading', name: 'No URL groups yet' } },
  { nav: 'Workflows', heading: 'Workflows', first: { role: 'heading', name: 'No runs' } },
  { nav: 'DLQ', heading: 'Dead-letter queue', first: { role: 'heading', name: 'The DLQ is empty' } },
  { nav: 'KV', heading: 'KV', first: { role: 'textbox', name: 'Command' } },
] as const;

test('every area opens from the sidebar and shows its purposeful empty state', async ({ app }) => {
  // URL groups and the DLQ show their (empty) lists from the running local stack.
  await waitForStack(app);
  const nav = app.getByRole('navigation', { name: 'Areas' });
  for (const area of AREAS) {
    await nav.getByRole('button', { name: area.nav, exact: true }).click();
    await expect(app.getByRole('heading', { level: 1 })).toHaveText(area.heading);
    await expect(app.getByRole(area.first.role, { name: area.first.name })).toBeVisible();
    await expect(nav.getByRole('button', { name: area.nav, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
  }
});

test('the app icon heads the sidebar and is the page icon, served under the CSP', async ({ app }) => {
  const mark = app.locator('.sidebar .brand-mark');
  // Loaded, not only present: a CSP refusal would leave a broken image with no natural size.
  await expect
    .poll(() => mark.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const href = await app.locator('link[rel="icon"]').getAttribute('href');
  const icon = await app.request.get(new URL(href!, app.url()).href);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toBe('image/svg+xml');
  expect(icon.headers()['content-security-policy']).toContain("img-src 'self' data:");
  expect(await icon.text()).toContain('<svg');
});

test('the Messages area has one tab per job, addressable by URL', async ({ app }) => {
  await app.getByRole('navigation', { name: 'Areas' }).getByRole('button', { name: 'Messages' }).click();
  const tabs = app.getByRole('tablist', { name: 'Messages' });
  await expect(tabs.getByRole('tab')).toHaveText([
    'Compose',
    'Batch',
    'Webhook intake',
    'Logs',
    'Schedules',
    'Queues',
    'Flow control',
    'Signing keys',
  ]);
  await expect(tabs.getByRole('tab', { name: 'Compose' })).toHaveAttribute('aria-selected', 'true');
  await tabs.getByRole('tab', { name: 'Queues' }).click();
  await expect(tabs.getByRole('tab', { name: 'Queues' })).toHaveAttribute('aria-selected', 'true');
  await app.reload();
  const queues = app.getByRole('tablist', { name: 'Messages' }).getByRole('tab', { name: 'Queues' });
  await expect(queues).toHaveAttribute('aria-selected', 'true');
});

test('the local stack starts with the Local profile and reports its URLs', async ({ app }) => {
  await waitForStack(app);
  await app.getByRole('button', { name: 'Local stack Running' }).click();
  await expect(app.getByTestId('stack-page-state')).toHaveText('Running');
  await expect(app.getByText(/^http:\/\/127\.0\.0\.1:\d+$/).first()).toBeVisible();
  // The ready line carries tokens; it must never show up in the log the page displays.
  await expect(app.getByLabel('Local stack log')).not.toContainText('"ready":true');
});

test('the local stack restarts on request', async ({ app }) => {
  await waitForStack(app);
  await app.keyboard.press('Alt+7');
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('Local stack');
  const pidBefore = await app.getByText(/^pid \d+$/).textContent();
  await app.getByRole('button', { name: 'Restart' }).click();
  // It asks first: a restart interrupts deliveries, steps and KV streams in flight.
  const ask = app.getByRole('dialog', { name: 'Restart the local stack?' });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(app.getByText(/^pid \d+$/)).toHaveText(pidBefore!);
  await app.getByRole('button', { name: 'Restart' }).click();
  await ask.getByRole('button', { name: 'Restart now' }).click();
  await expect(app.getByText(/^pid \d+$/)).not.toHaveText(pidBefore!, { timeout: 30_000 });
  await expect(app.getByTestId('stack-page-state')).toHaveText('Running', { timeout: 30_000 });
});

test('the command palette navigates and runs actions from the keyboard', async ({ app }) => {
  await app.keyboard.press('Control+k');
  const palette = app.getByRole('dialog', { name: 'Command palette' });
  await expect(palette).toBeVisible();
  await app.keyboard.type('dlq');
  await expect(palette.getByRole('option').first()).toHaveText(/Go to DLQ/);
  await app.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('Dead-letter queue');

  await app.keyboard.press('Control+k');
  await expect(palette.getByRole('combobox')).toBeFocused();
  await app.keyboard.type('theme dark');
  await expect(palette.getByRole('option').first()).toHaveText(/Theme: dark/);
  await app.keyboard.press('Enter');
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark');

  await app.keyboard.press('Control+k');
  await expect(palette.getByRole('combobox')).toBeFocused();
  await app.keyboard.type('new profile');
  await expect(palette.getByRole('option').first()).toHaveText(/New profile/);
  await app.keyboard.press('Enter');
  await expect(app.getByRole('form', { name: 'New profile' })).toBeVisible();

  await app.keyboard.press('Control+k');
  await app.keyboard.type('zzzzqqq');
  await expect(app.getByText('No command matches “zzzzqqq”.')).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(app.getByRole('dialog', { name: 'Command palette' })).toBeHidden();
});

test('areas are reachable by Alt+digit shortcuts and survive a reload', async ({ app }) => {
  await app.keyboard.press('Alt+5');
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('KV');
  await app.reload();
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('KV');
});

test('the theme follows the operating system', async ({ browser, consoleHost }) => {
  for (const colorScheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ colorScheme });
    await page.goto(consoleHost.url);
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await page.close();
  }
});

test('the page refuses to work without the launch secret and says why', async ({ page, consoleHost }) => {
  const bare = consoleHost.url.replace(/#.*$/, '');
  await page.goto(bare);
  await expect(page.getByRole('heading', { name: 'Open Switchyard from its link' })).toBeVisible();
});

test('the launch secret leaves the address bar', async ({ app }) => {
  expect(app.url()).not.toContain('secret=');
});
