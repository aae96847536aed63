// Every KV screen in both themes, with no console errors: the workbench (results by shape, RESP2 hex view,
// pipeline with a failing row, autocomplete), the key browser (tree, flat list, each type's viewer, TTL
// dialog, a hash's field TTLs and a field's TTL dialog, a JSON document and its edit dialog, delete by
// pattern) — looked at, and with SCREENSHOTS=1 written to docs/screenshots for the README.
import { expect, go, test } from './fixtures';
import { seedSampleKeys } from './support/kv-api';
import { localStack } from './support/local-stack';
import { saveScreenshot, type Theme, themedPage } from './support/screenshots';

for (const theme of ['light', 'dark'] as Theme[]) {
  test(`KV screens (${theme})`, async ({ browser, consoleHost }) => {
    test.setTimeout(300_000);
    const { page, errors } = await themedPage(browser, theme, { width: 1440, height: 900 });
    await page.goto(consoleHost.url);
    const { kv } = await localStack(page);
    await seedSampleKeys(kv);

    // Workbench: a script, results rendered by shape.
    await go(page, '#/kv/workbench');
    const input = page.getByLabel('Command', { exact: true });
    await input.fill(
      'GET user:1:profile\nHGETALL user:2:settings\nLRANGE queue:emails 0 -1\nINCR user:1:name',
    );
    await input.press('Enter');
    await expect(page.getByTestId('kv-result')).toHaveCount(4);
    await input.fill('ZRAN');
    await expect(page.getByRole('listbox', { name: 'Command suggestions' })).toBeVisible();
    await saveScreenshot(page, 'kv-workbench', theme);

    // RESP2 with the hex view.
    await input.fill('');
    await page.getByRole('group', { name: 'Reply format' }).getByRole('button', { name: 'RESP2' }).click();
    await input.fill('ZRANGE leaderboard 0 -1 WITHSCORES');
    await input.press('Enter');
    await expect(page.getByLabel('RESP2 bytes in hex').first()).toBeVisible();
    await saveScreenshot(page, 'kv-workbench-resp2', theme);

    // Pipeline with a failing row.
    await page.getByRole('group', { name: 'Reply format' }).getByRole('button', { name: 'JSON' }).click();
    await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Pipeline' }).click();
    await page.getByRole('textbox', { name: 'Row 1' }).fill('INCR counter:visits');
    await page.getByRole('textbox', { name: 'Row 2' }).fill('INCR user:1:name');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByRole('textbox', { name: 'Row 3' }).fill('SMEMBERS tags:popular');
    await page.getByRole('button', { name: 'Run pipeline' }).click();
    await expect(page.getByTestId('row-result').nth(1)).toContainText('ERR');
    await saveScreenshot(page, 'kv-pipeline', theme);

    // Key browser: tree with counts, a JSON string.
    await go(page, '#/kv/keys');
    await expect(page.getByTestId('scan-status')).toHaveAttribute('data-status', 'done');
    await page.getByTestId('folder-row').filter({ hasText: 'user' }).click();
    await page.locator('[data-path="user:1:"]').click();
    await page.locator('[data-key="user:1:profile"]').click();
    await expect(page.getByTestId('key-detail')).toContainText('"roles"');
    await saveScreenshot(page, 'kv-keys-tree', theme);

    // Flat list and a hash.
    await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
    await page.locator('[data-key="user:2:settings"]').click();
    await expect(page.getByTestId('value-row')).toHaveCount(3);
    await saveScreenshot(page, 'kv-keys-hash', theme);

    for (const [key, name] of [
      ['leaderboard', 'kv-keys-zset'],
      ['events:orders', 'kv-keys-stream'],
      ['queue:emails', 'kv-keys-list'],
    ] as const) {
      await page.locator(`[data-key="${key}"]`).click();
      await expect(page.getByTestId('value-row').first()).toBeVisible();
      await saveScreenshot(page, name, theme);
    }

    // TTL dialog.
    await page.getByTestId('key-ttl').getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByRole('dialog', { name: 'Time to live' })).toBeVisible();
    await saveScreenshot(page, 'kv-keys-ttl', theme);
    await page.getByRole('dialog', { name: 'Time to live' }).getByRole('button', { name: 'Cancel' }).click();

    // A hash with binary members: marked hex, read-only rows.
    await kv.command(
      'EVAL',
      "redis.call('HSET', KEYS[1], 'avatar', string.char(137, 80, 78, 71, 13, 10, 26, 10, 255, 0), 'name', 'Ada'); return 1",
      1,
      'files:avatar',
    );
    await page.getByLabel('Open exact key').fill('files:avatar');
    await page.getByLabel('Open exact key').press('Enter');
    await expect(page.locator('.kv-cell-binary')).toHaveText('hex 89 50 4e 47 0d 0a 1a 0a ff 00');
    await saveScreenshot(page, 'kv-keys-binary', theme);

    // A hash whose fields have TTLs of their own (Redis 7.4): the TTL column, and a field's TTL dialog.
    await kv.pipeline([
      ['HSET', 'session:7f3a', 'user', 'ada', 'csrf', 'q8Zr2LmX', 'refresh', 'rt_5b1c9e', 'theme', 'dark'],
      ['HEXPIRE', 'session:7f3a', 1800, 'FIELDS', 1, 'csrf'],
      ['HEXPIRE', 'session:7f3a', 86_400 * 2, 'FIELDS', 1, 'refresh'],
    ]);
    await page.getByLabel('Open exact key').fill('session:7f3a');
    await page.getByLabel('Open exact key').press('Enter');
    const fieldTtl = (field: string) =>
      page.getByTestId('value-row').filter({ hasText: field }).locator('.kv-field-ttl');
    await expect(fieldTtl('csrf')).toHaveText(/^(30 m 0 s|29 m \d+ s)$/);
    await expect(fieldTtl('refresh')).toHaveText(/^(2 d 0 h|47 h 59 m)$/);
    await expect(fieldTtl('theme')).toHaveText('—no expiry');
    await saveScreenshot(page, 'kv-keys-hash-ttl', theme);
    await page.getByRole('button', { name: 'TTL of csrf' }).click();
    const ttlDialog = page.getByRole('dialog', { name: 'Time to live of csrf' });
    await expect(ttlDialog.getByLabel('Seconds from now')).toHaveValue(/^(1800|179\d)$/);
    await saveScreenshot(page, 'kv-keys-hash-ttl-edit', theme);
    await ttlDialog.getByRole('button', { name: 'Cancel' }).click();

    // A JSON document (JSON.* of the stack): the tree, and an edit with its command previewed.
    await kv.command(
      'JSON.SET',
      'orders:1001',
      '$',
      '{"id":1001,"status":"paid","total":129.90,"customer":{"name":"Ada Lovelace","email":"ada@example.com"},"items":[{"sku":"ENG-1","qty":1},{"sku":"PUNCH-CARDS","qty":200}],"gift":false,"note":null}',
    );
    await page.getByLabel('Open exact key').fill('orders:1001');
    await page.getByLabel('Open exact key').press('Enter');
    const jsonEditor = page.getByTestId('json-editor');
    await jsonEditor.getByRole('button', { name: 'Expand all' }).click();
    await expect(jsonEditor.locator('[data-path="$.items[1].qty"]')).toContainText('200');
    // The chevrons turn in a 0.1 s transition: the picture waits until the last one has turned.
    await expect(
      jsonEditor.getByRole('button', { name: 'Collapse $.items[1]' }).locator('.kv-chevron'),
    ).toHaveCSS('transform', 'none');
    await saveScreenshot(page, 'kv-keys-json', theme);
    await jsonEditor.locator('[data-path="$.status"]').getByRole('button', { name: 'Edit' }).click();
    const jsonDialog = page.getByRole('dialog', { name: 'Edit $.status' });
    await jsonDialog.getByLabel('Value (JSON)').fill('"shipped"');
    await expect(jsonDialog.getByTestId('json-command')).toContainText('JSON.SET orders:1001 $.status');
    await saveScreenshot(page, 'kv-keys-json-edit', theme);
    await jsonDialog.getByRole('button', { name: 'Cancel' }).click();

    // Delete by pattern: the job's preview.
    await page.getByRole('button', { name: 'Delete by pattern…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete keys by pattern' });
    await dialog.getByLabel('MATCH pattern').fill('user:*');
    await dialog.getByRole('button', { name: 'Count matching keys' }).click();
    await expect(dialog.getByRole('button', { name: 'Delete 4 keys' })).toBeVisible();
    await saveScreenshot(page, 'kv-bulk-delete', theme);

    expect(errors).toEqual([]);
    await page.close();
  });
}
