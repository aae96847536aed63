// TTLs in the key browser count down live and an expired key leaves the view (issue 19 item 6); a hash's
// fields show, set and remove TTLs of their own (Redis 7.4's hash-field expiry): Chromium → browser host →
// main's KV client → the local stack's KV REST service → redis-server, whose own expiry (and the bridge's,
// for fields) decides when a key or field is gone.
import type { Page } from '@playwright/test';
import { expect, go, test } from './fixtures';
import { localStack } from './support/local-stack';

/** The seconds a TTL text such as "21 s" or "1 m 3 s" stands for. */
function seconds(text: string): number {
  const m = /(?:(\d+) m )?(\d+) s/.exec(text);
  if (!m) throw new Error(`not a TTL in seconds: "${text}"`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]);
}

test('TTLs count down in the list and the detail; an expired key leaves the list', async ({ app }) => {
  test.setTimeout(180_000);
  const { kv } = await localStack(app);
  await kv.command('SET', 'countdown-kept', 'stays');
  await kv.command('SET', 'countdown-soon', 'goes', 'EX', '30');
  await go(app, '#/kv/keys');
  await app.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();

  const soon = app.locator('[data-testid="key-row"][data-key="countdown-soon"]');
  const kept = app.locator('[data-testid="key-row"][data-key="countdown-kept"]');
  await expect(kept).toContainText('no expiry', { timeout: 30_000 });
  await expect(soon.locator('.kv-ttl')).toHaveText(/\d+ s$/, { timeout: 30_000 });
  const first = seconds((await soon.locator('.kv-ttl').textContent()) ?? '');

  // The list counts down without being reloaded …
  await expect
    .poll(async () => seconds((await soon.locator('.kv-ttl').textContent()) ?? ''))
    .toBeLessThan(first);

  // … and so does the open key's detail.
  await soon.click();
  const ttl = app.getByTestId('key-ttl');
  await expect(ttl).toContainText(/\d+ s/);
  const detailFirst = seconds((await ttl.textContent()) ?? '');
  await expect.poll(async () => seconds((await ttl.textContent()) ?? '')).toBeLessThan(detailFirst);

  // Once redis-server expires it, the key leaves the list and the detail says it is gone; the other stays.
  await expect(soon).toHaveCount(0, { timeout: 60_000 });
  await expect(app.getByText('No key named “countdown-soon”.')).toBeVisible({ timeout: 30_000 });
  await expect(kept).toContainText('no expiry');
  expect(await kv.command('EXISTS', 'countdown-soon')).toBe(0);
});

/** The TTL of `field` as redis-server has it (HPTTL: ms left, -1 none, -2 no such field). */
async function fieldTtl(
  kv: { command(...args: (string | number)[]): Promise<unknown> },
  key: string,
  field: string,
) {
  const [ttl] = (await kv.command('HPTTL', key, 'FIELDS', 1, field)) as number[];
  return ttl!;
}

/** Opens `key` in the key browser by its exact name. */
async function openKey(app: Page, key: string): Promise<void> {
  await app.getByLabel('Open exact key').fill(key);
  await app.getByLabel('Open exact key').press('Enter');
  await expect(app.getByTestId('key-detail')).toContainText(key);
}

test('hash field TTLs: a TTL column that counts down; set and remove one per field; a field gone is said', async ({
  app,
}) => {
  test.setTimeout(180_000);
  const { kv } = await localStack(app);
  const key = 'session:field-ttl';
  await kv.command('HSET', key, 'token', 'abc123', 'locale', 'en-GB', 'nonce', 'n-42', 'draft', 'hello');
  expect(await kv.command('HPEXPIRE', key, 600_000, 'FIELDS', 1, 'token')).toEqual([1]);
  await go(app, '#/kv/keys');
  await openKey(app, key);
  const detail = app.getByTestId('key-detail');
  const table = detail.getByTestId('value-table');
  const row = (field: string) =>
    table.getByTestId('value-row').filter({ has: app.getByRole('cell', { name: field, exact: true }) });
  const ttlOf = (field: string) => row(field).locator('.kv-field-ttl');
  const ttlColumn = table.getByRole('columnheader', { name: 'TTL', exact: true });

  // The column: the field with a TTL counts down, the others show no expiry.
  await expect(ttlColumn).toBeVisible();
  await expect(ttlOf('token')).toHaveText(/^(10 m 0 s|9 m \d+ s)$/);
  await expect(ttlOf('locale')).toHaveText('—no expiry');
  const first = seconds((await ttlOf('token').textContent()) ?? '');
  await expect.poll(async () => seconds((await ttlOf('token').textContent()) ?? '')).toBeLessThan(first);

  // Set a TTL on a field without one, from its row.
  await row('locale').getByRole('button', { name: 'TTL of locale' }).click();
  const localeDialog = app.getByRole('dialog', { name: 'Time to live of locale' });
  await expect(localeDialog.getByLabel('Seconds from now')).toHaveValue('');
  await localeDialog.getByLabel('Seconds from now').fill('120');
  await localeDialog.getByRole('button', { name: 'Set TTL' }).click();
  await expect(localeDialog).toHaveCount(0);
  await expect(ttlOf('locale')).toHaveText(/^(2 m 0 s|1 m [1-5]\d s)$/);
  const localeTtl = await fieldTtl(kv, key, 'locale');
  expect(localeTtl).toBeGreaterThan(0);
  expect(localeTtl).toBeLessThanOrEqual(120_000);

  // Remove one (HPERSIST): the field stays, without a TTL.
  await row('token').getByRole('button', { name: 'TTL of token' }).click();
  const tokenDialog = app.getByRole('dialog', { name: 'Time to live of token' });
  await expect(tokenDialog.getByLabel('Seconds from now')).toHaveValue(/^(600|5\d\d)$/);
  await tokenDialog.getByRole('button', { name: 'Remove expiry' }).click();
  await expect(tokenDialog).toHaveCount(0);
  await expect(ttlOf('token')).toHaveText('—no expiry');
  expect(await fieldTtl(kv, key, 'token')).toBe(-1);
  expect(await kv.command('HGET', key, 'token')).toBe('abc123');

  // A short TTL counts out and the field leaves the table without a reload; the key's field count follows.
  await row('nonce').getByRole('button', { name: 'TTL of nonce' }).click();
  const nonceDialog = app.getByRole('dialog', { name: 'Time to live of nonce' });
  await nonceDialog.getByLabel('Seconds from now').fill('15');
  await nonceDialog.getByRole('button', { name: 'Set TTL' }).click();
  await expect(ttlOf('nonce')).toHaveText(/^\d+ s$/);
  await expect(row('nonce')).toHaveCount(0, { timeout: 60_000 });
  expect(await kv.command('HEXISTS', key, 'nonce')).toBe(0);
  await expect(detail.locator('.kv-facts div', { hasText: 'Fields' }).locator('dd')).toHaveText('3');

  // A field another client removed meanwhile: the dialog says so and nothing else changes.
  expect(await kv.command('HDEL', key, 'draft')).toBe(1);
  await row('draft').getByRole('button', { name: 'TTL of draft' }).click();
  const draftDialog = app.getByRole('dialog', { name: 'Time to live of draft' });
  await draftDialog.getByLabel('Seconds from now').fill('60');
  await draftDialog.getByRole('button', { name: 'Set TTL' }).click();
  await expect(draftDialog).toContainText(`The field "draft" of "${key}" does not exist (any more).`);
  await draftDialog.getByRole('button', { name: 'Cancel' }).click();
  // The refusal read the value again: the row of the field another client deleted is gone.
  await expect(row('draft')).toHaveCount(0);
  expect(await kv.command('EXISTS', key)).toBe(1);

  // The last TTL removed: the column goes.
  await row('locale').getByRole('button', { name: 'TTL of locale' }).click();
  await app
    .getByRole('dialog', { name: 'Time to live of locale' })
    .getByRole('button', { name: 'Remove expiry' })
    .click();
  await expect(ttlColumn).toHaveCount(0);
  expect(await fieldTtl(kv, key, 'locale')).toBe(-1);
  expect(await kv.command('HGETALL', key)).toEqual(['token', 'abc123', 'locale', 'en-GB']);
});
