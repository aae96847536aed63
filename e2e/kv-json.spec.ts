// JSON documents in the key browser against the real local stack (JSON.* as its Lua script in
// redis-server): the type shows, the tree keeps key order and big numbers, every change previews the exact
// JSON.* command before it runs, and a failed change reads as the reason, leaving the document as it was.
import { expect, go, test } from './fixtures';

const DOC =
  '{"name":"Ada","10":"ten","age":36,"big":12345678901234567890,"tags":["math","engines"],"address":{"city":"London"}}';

test('key browser: a JSON document is viewed and edited by path with the command previewed', async ({
  app,
  stack: { kv },
}) => {
  // One long flow of a dozen round trips through the console: bounded, but generous for a loaded machine.
  test.setTimeout(180_000);
  await kv.command('JSON.SET', 'doc:user:1', '$', DOC);
  await go(app, '#/kv/keys');
  await app.getByLabel('Open exact key').fill('doc:user:1');
  await app.getByLabel('Open exact key').press('Enter');
  const detail = app.getByTestId('key-detail');
  await expect(detail.locator('.kv-type')).toHaveText('JSON');
  const editor = detail.getByTestId('json-editor');
  const row = (path: string) => editor.locator(`[data-testid="json-row"][data-path='${path}']`);
  // Key order as stored ("10" stays second) and the big number's digits as written.
  await expect(editor.getByTestId('json-row')).toHaveCount(10);
  await expect(editor.getByTestId('json-row').nth(2)).toHaveAttribute('data-path', '$["10"]');
  await expect(row('$.big')).toContainText('12345678901234567890');

  // Edit a value at a path: the dialog shows the command, and the tree shows the new value.
  await row('$.address.city').getByRole('button', { name: 'Edit' }).click();
  let dialog = app.getByRole('dialog', { name: 'Edit $.address.city' });
  await dialog.getByLabel('Value (JSON)').fill('"Paris"');
  await expect(dialog.getByTestId('json-command')).toHaveText(
    'JSON.SET doc:user:1 $.address.city "\\"Paris\\""',
  );
  await dialog.getByRole('button', { name: 'Run JSON.SET' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row('$.address.city')).toContainText('"Paris"');
  expect(await kv.command('JSON.GET', 'doc:user:1', '$.address.city')).toBe('["Paris"]');

  // Not JSON: said in the form, nothing can run.
  await row('$.age').getByRole('button', { name: 'Edit' }).click();
  dialog = app.getByRole('dialog', { name: 'Edit $.age' });
  await dialog.getByLabel('Value (JSON)').fill('{oops');
  await expect(dialog).toContainText('Not valid JSON');
  await expect(dialog.getByRole('button', { name: 'Run JSON.SET' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Add a member (NX, so it never overwrites) and an array item.
  await row('$').getByRole('button', { name: 'Add to $' }).click();
  dialog = app.getByRole('dialog', { name: 'Add a member to $' });
  await dialog.getByLabel('Member name').fill('name');
  await expect(dialog).toContainText('this member exists');
  await dialog.getByLabel('Member name').fill('email');
  await dialog.getByLabel('Value (JSON)').fill('"ada@example.com"');
  await expect(dialog.getByTestId('json-command')).toHaveText(
    'JSON.SET doc:user:1 $.email "\\"ada@example.com\\"" NX',
  );
  await dialog.getByRole('button', { name: 'Run JSON.SET' }).click();
  await expect(row('$.email')).toContainText('ada@example.com');

  await row('$.tags').getByRole('button', { name: 'Add to $.tags' }).click();
  dialog = app.getByRole('dialog', { name: 'Append an item to $.tags' });
  await dialog.getByLabel('Value (JSON)').fill('"poetry"');
  await dialog.getByRole('button', { name: 'Run JSON.ARRAPPEND' }).click();
  await expect(row('$.tags[2]')).toContainText('"poetry"');

  // Remove an item.
  await row('$.tags[0]').getByRole('button', { name: 'Remove $.tags[0]' }).click();
  dialog = app.getByRole('dialog', { name: 'Remove $.tags[0]' });
  await expect(dialog.getByTestId('json-command')).toHaveText('JSON.DEL doc:user:1 $.tags[0]');
  await dialog.getByRole('button', { name: 'Run JSON.DEL' }).click();
  await expect(row('$.tags[2]')).toHaveCount(0);

  // Everything landed in the stored document, in order, the big number untouched.
  expect(await kv.command('JSON.GET', 'doc:user:1')).toBe(
    '{"name":"Ada","10":"ten","age":36,"big":12345678901234567890,"tags":["engines","poetry"],"address":{"city":"Paris"},"email":"ada@example.com"}',
  );

  // A change that can no longer apply (another client removed its parent) says why and changes nothing.
  await row('$.address.city').getByRole('button', { name: 'Edit' }).click();
  dialog = app.getByRole('dialog', { name: 'Edit $.address.city' });
  await dialog.getByLabel('Value (JSON)').fill('"Rome"');
  expect(await kv.command('JSON.DEL', 'doc:user:1', '$.address')).toBe(1);
  await dialog.getByRole('button', { name: 'Run JSON.SET' }).click();
  await expect(dialog).toContainText('Nothing at $.address.city in doc:user:1');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await kv.command('JSON.GET', 'doc:user:1', '$.address')).toBe('[]');

  // The type filter finds JSON keys (SCAN … TYPE ReJSON-RL).
  await kv.command('SET', 'doc:plain', 'not json');
  await app.getByLabel('Type filter').selectOption('ReJSON-RL');
  await expect(app.getByTestId('scan-status')).toHaveAttribute('data-status', 'done');
  await app.getByRole('group', { name: 'View' }).getByRole('button', { name: 'List' }).click();
  await expect(app.locator('[data-key="doc:user:1"]')).toBeVisible();
  await expect(app.locator('[data-key="doc:plain"]')).toHaveCount(0);

  // The workbench completes JSON.* with their docs.
  await go(app, '#/kv/workbench');
  await app.getByLabel('Command', { exact: true }).fill('JSON.ARRA');
  const suggestions = app.getByRole('listbox', { name: 'Command suggestions' });
  await expect(suggestions).toContainText('JSON.ARRAPPEND');
  await expect(suggestions).toContainText('Appends JSON values to the arrays at a path');
});
