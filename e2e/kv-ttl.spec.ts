// TTLs in the key browser count down live and an expired key leaves the view (issue 19 item 6): Chromium →
// browser host → main's KV client → the local stack's KV REST service → redis-server, whose own expiry
// decides when the key is gone.
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
