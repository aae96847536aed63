// Binary members in the key browser: a hash whose field value and field name are not valid UTF-8 shows
// them as marked hex (never U+FFFD), keeps those rows read-only, and removing one deletes the exact bytes.
import { expect, go, test } from './fixtures';

test('key browser: binary hash members show as hex, read-only, removable by their exact bytes', async ({
  app,
  stack: { kv },
}) => {
  // JSON bodies cannot carry these bytes: a script builds them inside redis.
  await kv.command(
    'EVAL',
    "redis.call('HSET', KEYS[1], 'blob', string.char(255, 0, 254), string.char(255, 0, 254), 'binary name', 'plain', 'text'); return 1",
    1,
    'bin:hash',
  );
  await go(app, '#/kv/keys');
  await app.getByLabel('Open exact key').fill('bin:hash');
  await app.getByLabel('Open exact key').press('Enter');
  const detail = app.getByTestId('key-detail');
  await expect(detail.getByTestId('value-row')).toHaveCount(3);

  const blob = detail.getByTestId('value-row').filter({ hasText: 'blob' });
  await expect(blob.locator('.kv-cell-binary')).toHaveText('hex ff 00 fe');
  await expect(blob).not.toContainText('\uFFFD');
  await expect(blob.getByRole('button', { name: 'Edit' })).toHaveCount(0);
  await expect(blob).toContainText('read-only');
  await expect(detail).toContainText('Some values are binary (not valid UTF-8).');
  // Text rows stay text and editable.
  const plain = detail.getByTestId('value-row').filter({ hasText: 'plain' });
  await expect(plain.locator('.kv-cell-binary')).toHaveCount(0);
  await expect(plain.getByRole('button', { name: 'Edit' })).toBeVisible();

  await app.screenshot({ path: 'test-results/kv-binary-hash.png' });

  // The binary field name: removing it deletes exactly those bytes and nothing else.
  await detail.getByRole('button', { name: 'Remove hex:ff00fe' }).click();
  await expect(detail.getByTestId('value-row')).toHaveCount(2);
  await expect.poll(() => kv.command('HLEN', 'bin:hash')).toBe(2);
  expect(await kv.command('HGET', 'bin:hash', 'plain')).toBe('text');
  expect(await kv.command('HEXISTS', 'bin:hash', 'blob')).toBe(1);
});
