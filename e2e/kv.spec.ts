// The KV workbench and key browser end to end: Chromium → browser host → main's KV client → the real local
// stack's KV REST service → redis-server.
import type { Locator, Page } from '@playwright/test';
import { confirm, expect, go, test } from './fixtures';
import { type KvApi, seedSampleKeys } from './support/kv-api';
import { localStack } from './support/local-stack';
import { useAsReadOnlyProduction } from './support/profiles';

async function openKv(app: Page, tab: 'workbench' | 'keys'): Promise<KvApi> {
  const { kv } = await localStack(app);
  await go(app, `#/kv/${tab}`);
  return kv;
}

/** Edits one row of the open collection in place: Edit, the value under `label`, Save. */
async function editRow(row: Locator, label: string, value: string): Promise<void> {
  await row.getByRole('button', { name: 'Edit' }).click();
  await row.getByLabel(label).fill(value);
  await row.getByRole('button', { name: 'Save' }).click();
}

/** Fills the new-row fields of the open key (label → value) and adds the row. */
async function addRow(detail: Locator, fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) await detail.getByLabel(label).fill(value);
  await detail.getByRole('button', { name: 'Add' }).click();
}

async function runCommand(app: Page, text: string): Promise<void> {
  const input = app.getByLabel('Command', { exact: true });
  await input.fill(text);
  await input.press('Enter');
  await expect(input).toHaveValue('');
}

test('workbench: commands in JSON, base64 and RESP2, timing, history kept by main', async ({ app }) => {
  test.setTimeout(180_000);
  const kv = await openKv(app, 'workbench');
  await kv.command('SET', 'greeting', 'héllo');
  await kv.command('HSET', 'h', 'f1', 'v1', 'f2', 'v2');

  await runCommand(app, 'GET greeting');
  const latest = app.getByTestId('kv-output').first();
  await expect(latest.getByTestId('kv-result')).toContainText('"héllo"');
  await expect(latest.getByTestId('kv-timing')).toHaveText(/^\d+\.\d ms$/);

  // A map reply as a two-column table; a command error with the server's text.
  await runCommand(app, 'HGETALL h\nLPUSH greeting x');
  await expect(app.getByTestId('kv-output').first().locator('[data-shape="map"] th')).toHaveText([
    'f1',
    'f2',
  ]);
  await expect(app.getByTestId('kv-output').first()).toContainText('(error) WRONGTYPE');

  // Base64: strings arrive as their bytes; binary shows as hex.
  await kv.command('SETRANGE', 'bin', 0, '\u0001\u0002');
  await app.getByRole('group', { name: 'Reply format' }).getByRole('button', { name: 'Base64' }).click();
  await runCommand(app, 'GET greeting');
  await expect(app.getByTestId('kv-output').first()).toContainText('"héllo"');
  await runCommand(app, 'GET bin');
  await expect(app.getByTestId('kv-output').first().locator('[data-shape="binary"]')).toHaveText('01 02');

  // RESP2: the protocol bytes as a hex dump beside the decoded value.
  await app.getByRole('group', { name: 'Reply format' }).getByRole('button', { name: 'RESP2' }).click();
  await runCommand(app, 'GET greeting');
  await expect(app.getByLabel('RESP2 bytes in hex').first()).toContainText('24 36 0d 0a 68 c3 a9 6c');
  await expect(app.getByLabel('Decoded RESP2').first()).toHaveText('"héllo"');

  // Autocomplete with inline docs; Tab completes.
  const input = app.getByLabel('Command', { exact: true });
  await input.fill('HGETA');
  await expect(app.getByRole('listbox', { name: 'Command suggestions' })).toContainText('HGETALL');
  await input.press('Tab');
  await expect(input).toHaveValue('HGETALL ');
  await expect(app.getByTestId('command-doc')).toContainText('HGETALL');

  // History is kept by main: it survives a reload, and ↑ brings back the last command.
  await app.reload();
  await go(app, '#/kv/workbench');
  await expect(app.getByRole('complementary', { name: 'History' })).toContainText('HGETALL h');
  await app.getByLabel('Command', { exact: true }).press('ArrowUp');
  await expect(app.getByLabel('Command', { exact: true })).toHaveValue('GET greeting');
});

test('pipeline and transaction: a failing row shows its error in place; a refused transaction runs nothing', async ({
  app,
}) => {
  const kv = await openKv(app, 'workbench');
  await kv.command('SET', 'word', 'abc');
  await app.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Transaction' }).click();
  await app.getByRole('button', { name: 'Paste a list' }).click();
  const paste = app.getByRole('dialog', { name: 'Paste a list of commands' });
  await paste.getByRole('textbox').fill('SET n 1\n# a comment\nINCR word\nINCR n\n');
  await paste.getByRole('button', { name: 'Use 3 rows' }).click();
  await app.getByRole('button', { name: 'Run transaction' }).click();
  const results = app.getByTestId('row-result');
  await expect(results.nth(0)).toContainText('"OK"');
  await expect(results.nth(1)).toContainText('(error) ERR value is not an integer');
  await expect(results.nth(2)).toContainText('(integer) 2');
  expect(await kv.command('GET', 'n')).toBe('2');

  await app.getByRole('textbox', { name: 'Row 2' }).fill('NOSUCHCOMMAND');
  await app.getByRole('textbox', { name: 'Row 3' }).fill('SET n 100');
  await app.getByRole('button', { name: 'Run transaction' }).click();
  await expect(app.getByText('The transaction was discarded; nothing ran.')).toBeVisible();
  expect(await kv.command('GET', 'n')).toBe('2');

  await app.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Pipeline' }).click();
  await app.getByRole('textbox', { name: 'Row 1' }).fill('GET word');
  await app.getByRole('textbox', { name: 'Row 2' }).fill('HGET word f');
  await app.getByRole('button', { name: 'Run pipeline' }).click();
  await expect(app.getByTestId('row-result').nth(0)).toContainText('"abc"');
  await expect(app.getByTestId('row-result').nth(1)).toContainText('(error) WRONGTYPE');
});

test('dangerous commands ask first; cancelling sends nothing', async ({ app }) => {
  const kv = await openKv(app, 'workbench');
  await kv.command('SET', 'precious', '1');
  const input = app.getByLabel('Command', { exact: true });
  await input.fill('FLUSHDB');
  await input.press('Enter');
  const dialog = app.getByRole('dialog', { name: 'Run a dangerous command?' });
  await expect(dialog).toContainText('FLUSHDB deletes every key of the database.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await kv.command('EXISTS', 'precious')).toBe(1);
  await input.press('Enter');
  await confirm(app, 'Run a dangerous command?', 'Run');
  await expect(app.getByTestId('kv-output').first()).toContainText('"OK"');
  expect(await kv.command('EXISTS', 'precious')).toBe(0);
});

test('key browser over 10,000 keys: progressive scan with a cap, tree with counts, filters', async ({
  app,
}) => {
  test.setTimeout(120_000);
  const kv = await openKv(app, 'workbench');
  const rows: (string | number)[][] = [];
  for (let i = 0; i < 10_000; i += 1) rows.push(['SET', `big:${i % 10}:item:${i}`, i]);
  await kv.pipeline(rows);
  await seedSampleKeys(kv);
  await go(app, '#/kv/keys');

  // The first walk stops at its cap; "continue" walks on to the end.
  const status = app.getByTestId('scan-status');
  await expect(status).toHaveAttribute('data-status', /capped|done/, { timeout: 30_000 });
  if ((await status.getAttribute('data-status')) === 'capped') {
    await app.getByRole('button', { name: 'Continue scanning' }).click();
  }
  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(app.getByTestId('scanned-count')).toHaveText('10,010 keys loaded');
  await expect(status).toContainText('10,010 keys in the database');

  // The tree: folder counts, built from every key that arrived.
  const big = app.locator('[data-path="big:"]');
  await expect(big.getByTestId('folder-count')).toHaveText('10,000');
  await big.click();
  await expect(app.locator('[data-path="big:3:"]').getByTestId('folder-count')).toHaveText('1,000');
  await app.locator('[data-path="big:3:"]').click();
  await app.locator('[data-path="big:3:item:"]').click();
  // Type and TTL arrive for the rows on screen.
  const row = app.getByTestId('key-row').first();
  await expect(row).toContainText('STR');
  await expect(row).toContainText('no expiry');

  // MATCH narrows the walk (a new stream; the old one is closed).
  await app.getByLabel('Match pattern').fill('big:7:*');
  await app.getByLabel('Match pattern').press('Enter');
  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(app.getByTestId('scanned-count')).toHaveText('1,000 keys loaded');

  // TYPE filter, flat list.
  await app.getByLabel('Match pattern').fill('');
  await app.getByLabel('Match pattern').press('Enter');
  await app.getByLabel('Type filter').selectOption('hash');
  await app.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(app.getByTestId('key-row')).toHaveText([/HASH\s*user:2:settings/]);

  // The flat list is in key order, not the order SCAN happened to return the keys in.
  await app.getByLabel('Type filter').selectOption('');
  await app.getByLabel('Match pattern').fill('big:7:item:?7');
  await app.getByLabel('Match pattern').press('Enter');
  await expect(status).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const shownKeys = () =>
    app.getByTestId('key-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')));
  await expect.poll(shownKeys).toEqual([17, 27, 37, 47, 57, 67, 77, 87, 97].map((i) => `big:7:item:${i}`));

  // Exact-key lookup.
  await app.getByLabel('Open exact key').fill('big:9:item:9999');
  await app.getByLabel('Open exact key').press('Enter');
  await expect(app.getByTestId('key-detail')).toContainText('big:9:item:9999');
  await expect(app.getByTestId('key-memory')).toContainText('bytes');
});

test('edits of every type, TTL, rename, duplicate and delete', async ({ app }) => {
  test.setTimeout(300_000);
  const kv = await openKv(app, 'keys');
  await seedSampleKeys(kv);
  const open = async (key: string) => {
    await app.getByLabel('Open exact key').fill(key);
    await app.getByLabel('Open exact key').press('Enter');
    await expect(app.getByTestId('key-detail')).toContainText(key);
  };
  const detail = app.getByTestId('key-detail');

  // String: text, JSON (validated), hex.
  await open('user:1:name');
  await detail.getByLabel('Value').fill('Ada King');
  await detail.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => kv.command('GET', 'user:1:name')).toBe('Ada King');
  await open('user:1:profile');
  await detail.getByLabel('Value').fill('{"broken": ');
  await detail.getByRole('button', { name: 'Save' }).click();
  await expect(detail).toContainText('Not valid JSON');
  await detail.getByLabel('Value').fill('{"id": 1, "name": "Ada"}');
  await detail.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => kv.command('GET', 'user:1:profile')).toBe('{"id": 1, "name": "Ada"}');
  // KEEPTTL: the edit kept the expiry.
  expect(Number(await kv.command('TTL', 'user:1:profile'))).toBeGreaterThan(3000);
  await detail.getByRole('group', { name: 'Show as' }).getByRole('button', { name: 'Hex' }).click();
  await detail.getByLabel('Value').fill('00 ff 41');
  await detail.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => kv.command('STRLEN', 'user:1:profile')).toBe(3);

  // Hash: edit a value, add a field, remove one.
  await open('user:2:settings');
  await editRow(detail.getByTestId('value-row').filter({ hasText: 'theme' }), 'Edit Value', 'light');
  await addRow(detail, { 'New Field': 'font', 'New Value': 'mono' });
  await detail.getByRole('button', { name: 'Remove lang' }).click();
  await expect(detail.getByTestId('value-row')).toHaveCount(3);
  expect(await kv.command('HGETALL', 'user:2:settings')).toEqual([
    'theme',
    'light',
    'tz',
    'Europe/Berlin',
    'font',
    'mono',
  ]);

  // List: set by index, push, remove by index.
  await open('queue:emails');
  const second = detail.getByTestId('value-row').nth(1);
  await second.getByRole('button', { name: 'Edit' }).click();
  await second.getByLabel('Edit Value').fill('reset:22');
  await second.getByLabel('Edit Value').press('Enter');
  await addRow(detail, { 'New Value (pushed to the tail)': 'bye:4' });
  await detail.getByRole('button', { name: 'Remove 0' }).click();
  await expect
    .poll(() => kv.command('LRANGE', 'queue:emails', 0, -1))
    .toEqual(['reset:22', 'digest:3', 'bye:4']);

  // Set: add and remove members.
  await open('tags:popular');
  await addRow(detail, { 'New Member': 'edge' });
  await detail.getByRole('button', { name: 'Remove http' }).click();
  await expect
    .poll(async () => ((await kv.command('SMEMBERS', 'tags:popular')) as string[]).sort())
    .toEqual(['edge', 'redis', 'serverless']);

  // Sorted set: change a score, add, remove.
  await open('leaderboard');
  await editRow(detail.getByTestId('value-row').filter({ hasText: 'ada' }), 'Edit Score', '500');
  await addRow(detail, { 'New Member': 'barbara', 'New Score': '1.5' });
  await detail.getByRole('button', { name: 'Remove grace' }).click();
  await expect
    .poll(() => kv.command('ZRANGE', 'leaderboard', 0, -1, 'WITHSCORES'))
    .toEqual(['barbara', '1.5', 'linus', '310', 'ada', '500']);

  // Stream: add an entry, delete one.
  await open('events:orders');
  await addRow(detail, { 'New Fields: field value [field value …]': 'order 1003 status "in transit"' });
  await expect(detail.getByTestId('value-row')).toHaveCount(3);
  await detail
    .getByTestId('value-row')
    .first()
    .getByRole('button', { name: /^Remove/ })
    .click();
  await expect(detail.getByTestId('value-row')).toHaveCount(2);
  const entries = (await kv.command('XRANGE', 'events:orders', '-', '+')) as [string, string[]][];
  expect(entries.map(([, fields]) => fields)).toEqual([
    ['order', '1002', 'status', 'shipped'],
    ['order', '1003', 'status', 'in transit'],
  ]);

  // TTL: set, then remove.
  await detail.getByTestId('key-ttl').getByRole('button', { name: 'Edit' }).click();
  const ttl = app.getByRole('dialog', { name: 'Time to live' });
  await ttl.getByLabel('Seconds from now').fill('120');
  await ttl.getByRole('button', { name: 'Set TTL' }).click();
  await expect(detail.getByTestId('key-ttl')).toContainText(/^(2 m 0 s|1 m 5\d s)/);
  await detail.getByTestId('key-ttl').getByRole('button', { name: 'Edit' }).click();
  await confirm(app, 'Time to live', 'Remove expiry');
  await expect(detail.getByTestId('key-ttl')).toContainText('no expiry');

  // Duplicate, rename (never over an existing key), delete with confirmation.
  await detail.getByRole('button', { name: 'Duplicate' }).click();
  await confirm(app, 'Duplicate events:orders', 'Duplicate');
  await expect.poll(() => kv.command('XLEN', 'events:orders:copy')).toBe(2);
  await detail.getByRole('button', { name: 'Rename' }).click();
  const rename = app.getByRole('dialog', { name: 'Rename events:orders' });
  await rename.getByLabel('New key name').fill('leaderboard');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toContainText('already exists');
  await rename.getByLabel('New key name').fill('events:archived');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(detail).toContainText('events:archived');
  expect(await kv.command('EXISTS', 'events:orders')).toBe(0);
  await detail.getByRole('button', { name: 'Delete' }).click();
  await confirm(app, 'Delete events:archived?', 'Delete key');
  await expect.poll(() => kv.command('EXISTS', 'events:archived')).toBe(0);
});

test('delete by pattern is a job: preview count, chunked delete with progress, summary, in the journal', async ({
  app,
}) => {
  const kv = await openKv(app, 'keys');
  const rows: (string | number)[][] = [];
  for (let i = 0; i < 1500; i += 1) rows.push(['SET', `tmp:${i}`, i]);
  await kv.pipeline(rows);
  await kv.command('SET', 'keep', 'me');
  await app.getByRole('button', { name: 'Delete by pattern…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Delete keys by pattern' });
  await dialog.getByLabel('MATCH pattern').fill('*');
  await expect(dialog).toContainText('matches every key is refused');
  await expect(dialog.getByRole('button', { name: 'Count matching keys' })).toBeDisabled();
  await dialog.getByLabel('MATCH pattern').fill('?*');
  await expect(dialog).toContainText('matches every key is refused');
  await dialog.getByLabel('MATCH pattern').fill('tmp:*');
  await dialog.getByRole('button', { name: 'Count matching keys' }).click();
  await expect(dialog.getByTestId('bulk-count')).toHaveText('1,500 keys');
  // The preview deleted nothing.
  expect(await kv.command('DBSIZE')).toBe(1501);
  await dialog.getByRole('button', { name: 'Delete 1,500 keys' }).click();
  await expect(dialog.getByTestId('bulk-summary')).toContainText('1,500 of 1,500 deleted.', {
    timeout: 30_000,
  });
  expect(await kv.command('DBSIZE')).toBe(1);
  expect(await kv.command('GET', 'keep')).toBe('me');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The console's Jobs screen lists it with every other service's jobs.
  await go(app, '#/jobs');
  const job = app.getByTestId('job-row').first();
  await expect(job).toHaveAttribute('data-status', 'done');
  await expect(job).toContainText('KV');
  await expect(job).toContainText('1,500/1,500');
});

test('read-only: a read-only production profile sends its read-only token; the server refuses writes and SCAN', async ({
  app,
}) => {
  const kv = await openKv(app, 'workbench');
  await kv.command('SET', 'visible', 'yes');
  // An editable copy of Local (same stack, same tokens), marked production and read-only.
  await app.keyboard.press('Alt+6');
  await app.getByRole('button', { name: 'Duplicate' }).click();
  await useAsReadOnlyProduction(app, 'Local copy');

  await go(app, '#/kv/workbench');
  await expect(app.getByText('read-only token')).toBeVisible();
  await runCommand(app, 'GET visible\nSET visible no');
  const output = app.getByTestId('kv-output').first();
  await expect(output.getByTestId('kv-result').nth(0)).toContainText('"yes"');
  await expect(output.getByTestId('kv-result').nth(1)).toContainText('(error) NOPERM');
  expect(await kv.command('GET', 'visible')).toBe('yes');

  // A dangerous command on production: type the profile's name; then the server still refuses it.
  const input = app.getByLabel('Command', { exact: true });
  await input.fill('FLUSHALL');
  await input.press('Enter');
  const dialog = app.getByRole('dialog', { name: 'Run a dangerous command?' });
  await expect(dialog.getByRole('button', { name: 'Run' })).toBeDisabled();
  await dialog.getByLabel(/Type Local copy to confirm/).fill('Local copy');
  await dialog.getByRole('button', { name: 'Run' }).click();
  await expect(app.getByTestId('kv-output').first()).toContainText('(error) NOPERM');
  expect(await kv.command('GET', 'visible')).toBe('yes');

  // The key browser falls back to exact-key lookup (SCAN is refused to a read-only token), read-only.
  await go(app, '#/kv/keys');
  await expect(app.getByText('which the server refuses SCAN to')).toBeVisible();
  await app.getByLabel('Open exact key').fill('visible');
  await app.getByLabel('Open exact key').press('Enter');
  await expect(app.getByTestId('key-detail')).toContainText('visible');
  await expect(app.getByTestId('key-detail').getByLabel('Value')).toHaveValue('yes');
  await expect(app.getByTestId('key-detail').getByRole('button', { name: 'Delete' })).toHaveCount(0);
});
