// The composer, batch builder and webhook intake end to end: Chromium → browser host → main (undici) → the
// real local stack → a real recording sink. Needs Xvfb and xclip for the clipboard test
// (`sudo apt-get install xvfb xclip`).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, go, goOnceStackRuns, openWebhookIntake, test } from './fixtures';
import { expectSecretKeptFromPage } from './support/secrets';
import { DEV_TOKEN, type StackApi } from './support/stack-api';
/** Headers every HTTP delivery carries whatever the message says. */
const TRANSPORT = ['host', 'connection', 'content-length', 'content-type', 'user-agent', 'keep-alive'];

/** Adds forward header number `n` (from 1) in `scope`: a message form, the batch editor, the page. */
async function addForwardHeader(
  scope: Page | Locator,
  n: number,
  name: string,
  value: string,
): Promise<void> {
  await scope
    .getByRole('group', { name: 'Forward headers' })
    .getByRole('button', { name: 'Add header' })
    .click();
  await scope.getByLabel(`Forward headers: name ${n}`, { exact: true }).fill(name);
  await scope.getByLabel(`Forward headers: value ${n}`, { exact: true }).fill(value);
}

async function logStates(api: StackApi, messageId: string): Promise<string[]> {
  const response = await api.request('GET', `/v2/logs?messageId=${messageId}`);
  const body = (await response.json()) as { events: { state: string }[] };
  return body.events.map((event) => event.state);
}

test('compose with forwarded headers, a delay and a callback: delivered after the delay, callback received', async ({
  app,
  frames,
  sink,
  stack: { api },
}) => {
  await go(app, `#/messages/compose/url/${encodeURIComponent(`${sink.url}/orders?src=e2e`)}`);
  const form = app.getByRole('form', { name: 'Message' });
  await expect(form.getByLabel('Destination URL', { exact: true })).toHaveValue(`${sink.url}/orders?src=e2e`);

  await app.getByRole('textbox', { name: 'Body' }).fill('{"orderId":4711}');
  await addForwardHeader(form, 1, 'X-Trace', 'trace-1');
  await addForwardHeader(form, 2, 'X-Tenant', 'acme');
  await addForwardHeader(form, 3, 'X-Not-Sent', 'unticked');
  await form.getByLabel('Send header 3', { exact: true }).uncheck();
  await form.getByLabel('Delay', { exact: true }).fill('2s');
  await form.getByLabel('Retries', { exact: true }).fill('1');
  await expect(form.getByText('Up to 1 + 1 = 2 deliveries; then the message goes to the DLQ.')).toBeVisible();
  await form.getByText('Callback', { exact: true }).click();
  await form.getByLabel('Callback URL', { exact: true }).fill(`${sink.url}/callback`);

  // The preview is the request main sends: the forwarded headers prefixed, the token masked.
  const preview = app.getByTestId('preview-http');
  await expect(preview).toContainText('Upstash-Forward-X-Trace: trace-1');
  await expect(preview).toContainText('Upstash-Delay: 2s');
  await expect(preview).toContainText(`Upstash-Callback: ${sink.url}/callback`);
  await expect(preview).toContainText(`Authorization: Bearer ••••${DEV_TOKEN.slice(-4)}`);
  await expect(preview).not.toContainText('X-Not-Sent');

  const clickedAt = Date.now();
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const result = app.getByTestId('send-result');
  await expect(result).toContainText('Accepted.');
  const messageId = await result.getByTestId('message-id').innerText();
  expect(messageId).toMatch(/^msg_/);

  const [delivery] = await sink.waitFor('/orders');
  expect(delivery!.receivedAt - clickedAt).toBeGreaterThanOrEqual(2000);
  expect(delivery!.path).toBe('/orders?src=e2e');
  expect(delivery!.body).toBe('{"orderId":4711}');
  expect(delivery!.headers['upstash-message-id']).toBe(messageId);
  const forwarded = Object.keys(delivery!.headers)
    .filter((name) => !name.startsWith('upstash-') && !TRANSPORT.includes(name))
    .sort();
  expect(forwarded).toEqual(['x-tenant', 'x-trace']);
  expect(delivery!.headers['x-trace']).toBe('trace-1');
  expect(delivery!.headers['x-tenant']).toBe('acme');

  const [callback] = await sink.waitFor('/callback');
  const payload = JSON.parse(callback!.body) as { sourceMessageId: string; status: number; url: string };
  expect(payload).toMatchObject({
    sourceMessageId: messageId,
    status: 200,
    url: `${sink.url}/orders?src=e2e`,
  });

  await expect.poll(() => logStates(api, messageId), { timeout: 15_000 }).toContain('DELIVERED');
  // The result panel follows the message's states from the logs.
  await expect(result.getByTestId('delivery-trail')).toContainText('DELIVERED');
  await expect(result.getByTestId('delivery-trail')).toContainText('CREATED');

  // One click to the message's log trail.
  await result.getByRole('button', { name: 'Log trail →' }).click();
  await expect.poll(() => app.evaluate(() => window.location.hash)).toBe(`#/messages/logs/${messageId}`);

  // The history (kept by main) reopens the message; no frame ever carried the token.
  await go(app, '#/messages/compose');
  await app.getByRole('button', { name: 'New message' }).click();
  await expect(form.getByLabel('Destination URL', { exact: true })).toHaveValue('');
  await app.getByRole('button', { name: 'Sent', exact: true }).click();
  const sent = app.getByRole('list', { name: 'Sent messages' });
  await expect(sent.getByRole('listitem')).toHaveCount(1);
  await expect(sent).toContainText(`${sink.url}/orders?src=e2e`);
  await expect(sent).toContainText('1 message');
  // Reopening it fills the composer again.
  await sent.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(form.getByLabel('Destination URL', { exact: true })).toHaveValue(`${sink.url}/orders?src=e2e`);
  await expect(form.getByLabel('Delay', { exact: true })).toHaveValue('2s');
  await expectSecretKeptFromPage(app, frames.received, DEV_TOKEN);
});

test('publish to a URL group picked from the live list: one message per endpoint', async ({
  app,
  sink,
  stack: { api },
}) => {
  const created = await api.request('POST', '/v2/topics/e2e-fanout/endpoints', {
    endpoints: [
      { name: 'a', url: `${sink.url}/fan-a` },
      { name: 'b', url: `${sink.url}/fan-b` },
    ],
  });
  expect(created.status).toBe(200);

  await go(app, '#/messages/compose/group/e2e-fanout');
  const form = app.getByRole('form', { name: 'Message' });
  await expect(form.getByLabel('URL group', { exact: true })).toHaveValue('e2e-fanout');
  await expect(form.locator('.field-hint', { hasText: '2 endpoints' })).toBeVisible();
  await expect(form.locator('option[value="e2e-fanout"]')).toHaveText('2 endpoints');
  await expect(app.getByTestId('preview-http')).toContainText(`POST ${api.url}/v2/publish/e2e-fanout`);
  await app.getByRole('button', { name: 'Send', exact: true }).click();
  const result = app.getByTestId('send-result');
  await expect(result).toContainText('2 messages, one per endpoint of the group.');
  await expect(result).toContainText(`${sink.url}/fan-a`);
  await expect(result).toContainText(`${sink.url}/fan-b`);
  const ids = await result.getByTestId('message-id').allInnerTexts();
  expect(new Set(ids).size).toBe(2);
  const [a] = await sink.waitFor('/fan-a');
  const [b] = await sink.waitFor('/fan-b');
  expect(a!.headers['upstash-topic-name']).toBe('e2e-fanout');
  expect([a!.headers['upstash-message-id'], b!.headers['upstash-message-id']].sort()).toEqual(
    [...ids].sort(),
  );
});

test('the draft survives a reload, and the service’s own error text is shown', async ({ app }) => {
  await goOnceStackRuns(app, '#/messages/compose/group/no-such-group');
  const form = app.getByRole('form', { name: 'Message' });
  await expect(form.getByLabel('URL group', { exact: true })).toHaveValue('no-such-group');
  await app.getByRole('textbox', { name: 'Body' }).fill('{"kept":true}');
  // Validation as you type, from the shared parsers.
  await form.getByLabel('Retry delay expression', { exact: true }).fill('pow(2, tries)');
  await expect(form.getByText(/unknown name 'tries' at position 8/)).toBeVisible();
  await form.getByLabel('Retry delay expression', { exact: true }).fill('1000 * (1 + retried)');
  await expect(app.getByTestId('retry-preview')).toContainText('#1 1s');
  await expect(app.getByTestId('retry-preview')).toContainText('#3 3s');

  await app.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(app.getByTestId('send-result')).toContainText(
    "Not sent. HTTP 404: URL group 'no-such-group' not found",
  );

  await app.reload();
  await expect(
    app.getByRole('form', { name: 'Message' }).getByLabel('URL group', { exact: true }),
  ).toHaveValue('no-such-group');
  await expect(app.getByRole('textbox', { name: 'Body' })).toContainText('{"kept":true}');
});

test('batch: invalid items are held back, a refused item shows its error in place, the others are delivered', async ({
  app,
  sink,
}) => {
  await goOnceStackRuns(app, '#/messages/batch');
  const editor = app.locator('.batch-layout');
  const items = app.getByRole('list', { name: 'Batch items' });
  // An item of the list (not of the sent results inside it), by its button: "Item 2 POST https://…".
  const item = (n: number) =>
    items
      .getByRole('listitem')
      .filter({ has: app.getByRole('button', { name: new RegExp(`^Item ${n}(?!\\d)`) }) });
  await editor.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/batch-1`);
  await app.getByRole('button', { name: 'Add item' }).click();
  await editor.getByLabel('Destination URL', { exact: true }).fill('not a url');
  await app.getByRole('button', { name: 'Add item' }).click();
  await editor.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/batch-3`);
  await addForwardHeader(editor, 1, 'X-Item', 'three');

  // Nothing was sent yet, so there is no "0 of 3 items accepted".
  await expect(app.getByTestId('batch-summary')).toHaveCount(0);

  // Client-side validation: nothing leaves while an item is invalid.
  await app.getByRole('button', { name: 'Send batch (3)' }).click();
  await expect(app.getByText('Fix 1 item first: nothing is sent until all are valid.')).toBeVisible();
  await expect(item(2)).toContainText('destination URL must start with http:// or https://');
  expect(sink.receivedAt('/batch-1')).toHaveLength(0);

  // Item 2 becomes valid for the form but unknown to the service.
  await item(2)
    .getByRole('button', { name: /not a url/ })
    .click();
  await editor.getByRole('group', { name: 'Send to' }).getByRole('button', { name: 'URL group' }).click();
  await editor.getByLabel('URL group', { exact: true }).fill('missing-group');
  await app.getByRole('button', { name: 'Send batch (3)' }).click();

  await expect(app.getByTestId('batch-summary')).toContainText('2 of 3 items accepted');
  await expect(app.getByTestId('batch-result-1')).toContainText('msg_');
  await expect(app.getByTestId('batch-result-2')).toContainText(
    "Refused: URL group 'missing-group' not found",
  );
  await expect(app.getByTestId('batch-result-3')).toContainText('msg_');
  const [third] = await sink.waitFor('/batch-3');
  expect(third!.headers['x-item']).toBe('three');
  await sink.waitFor('/batch-1');

  // Reordering moves results with their items.
  await app.getByRole('button', { name: 'Move item 3 up' }).click();
  await expect(app.getByTestId('batch-result-2')).toContainText('msg_');
  await expect(app.getByTestId('batch-result-3')).toContainText('Refused');

  // A pasted curl command becomes a new item.
  await app.getByRole('button', { name: 'Import curl' }).click();
  await app
    .getByLabel('curl command', { exact: true })
    .fill(`curl -X PUT '${sink.url}/batch-4' -H 'x-imported: yes' --data-raw 'four'`);
  await app.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(item(4)).toContainText(`PUT${sink.url}/batch-4`);
  // An item added after the send has no outcome yet and is not counted.
  await expect(app.getByTestId('batch-summary')).toContainText('2 of 3 items accepted');
  await app.getByRole('button', { name: 'Send batch (4)' }).click();
  await expect(app.getByTestId('batch-result-4')).toContainText('msg_');
  const [fourth] = await sink.waitFor('/batch-4');
  expect(fourth).toMatchObject({ method: 'PUT', body: 'four' });
  expect(fourth!.headers['x-imported']).toBe('yes');
});

test.describe('webhook intake with a real X clipboard', () => {
  let xvfb: ChildProcess | undefined;
  let display = '';
  const previousDisplay = process.env.DISPLAY;

  test.beforeAll(async () => {
    for (const [command, pkg] of [
      ['Xvfb', 'xvfb'],
      ['xclip', 'xclip'],
    ]) {
      try {
        execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
      } catch {
        throw new Error(`${command} is missing: install it with "sudo apt-get install ${pkg}"`);
      }
    }
    for (let n = 140 + (process.pid % 300); ; n++) {
      if (!existsSync(`/tmp/.X11-unix/X${n}`) && !existsSync(`/tmp/.X${n}-lock`)) {
        display = `:${n}`;
        break;
      }
    }
    xvfb = spawn('Xvfb', [display, '-nolisten', 'tcp', '-screen', '0', '640x480x24'], { stdio: 'ignore' });
    await expect
      .poll(() => existsSync(`/tmp/.X11-unix/X${display.slice(1)}`), { timeout: 10_000 })
      .toBe(true);
    // The browser host started for the test below inherits it: its clipboard is this X server's.
    process.env.DISPLAY = display;
  });
  test.afterAll(() => {
    if (previousDisplay === undefined) delete process.env.DISPLAY;
    else process.env.DISPLAY = previousDisplay;
    xvfb?.kill('SIGTERM');
  });

  test('Copy URL puts the full URL on the OS clipboard; the page only ever sees it masked', async ({
    app,
    frames,
    sink,
  }) => {
    await openWebhookIntake(app, `${sink.url}/github`);
    await app.getByLabel('Retries', { exact: true }).fill('2');
    await addForwardHeader(app, 1, 'X-Source', 'github');
    const shown = app.getByTestId('webhook-url');
    await expect(shown).toContainText(`qstash_token=••••${DEV_TOKEN.slice(-4)}`);
    await expect(shown).toContainText('upstash-retries=2');

    await app.getByRole('button', { name: 'Copy URL' }).click();
    await expect(app.getByText('Copied to the clipboard.')).toBeVisible();
    const copied = execFileSync('xclip', ['-o', '-selection', 'clipboard'], {
      env: { ...process.env, DISPLAY: display },
      encoding: 'utf8',
    });
    expect(copied).toContain(`qstash_token=${encodeURIComponent(DEV_TOKEN)}`);
    expect(copied).toContain(`/v2/publish/${sink.url}/github?`);

    // The token reached the clipboard only.
    await expectSecretKeptFromPage(app, frames.received, DEV_TOKEN);
    expect(frames.sent.join('\n')).toContain('messages.composer.copyWebhookUrl');

    // The copied URL works on its own: a sender without any token gets its call delivered.
    const response = await fetch(copied, {
      method: 'POST',
      body: '{"action":"opened"}',
      headers: { 'content-type': 'application/json', 'x-github-event': 'issues' },
    });
    expect(response.status).toBe(200);
    const [delivery] = await sink.waitFor('/github');
    expect(delivery!.body).toBe('{"action":"opened"}');
    expect(delivery!.headers['x-source']).toBe('github');
    // Header-Forward (on by default here) passes the sender's own headers through.
    expect(delivery!.headers['x-github-event']).toBe('issues');
  });

  test('Copy curl with token: the command on the clipboard runs as it is; the page never sees the token', async ({
    app,
    frames,
    sink,
  }) => {
    await goOnceStackRuns(app, `#/messages/compose/url/${encodeURIComponent(`${sink.url}/from-curl`)}`);
    const form = app.getByRole('form', { name: 'Message' });
    await app.getByRole('textbox', { name: 'Body' }).fill(`{"note":"it's copied"}`);
    await addForwardHeader(form, 1, 'X-Copied', 'yes');
    await app.getByRole('button', { name: 'Copy curl with token' }).click();
    await expect(app.getByText('Copied with the token')).toBeVisible();
    const command = execFileSync('xclip', ['-o', '-selection', 'clipboard'], {
      env: { ...process.env, DISPLAY: display },
      encoding: 'utf8',
    });
    expect(command).toContain(`Authorization: Bearer ${DEV_TOKEN}`);
    execFileSync('sh', ['-c', `${command} --silent --fail`], { encoding: 'utf8' });
    const [delivery] = await sink.waitFor('/from-curl');
    expect(delivery!.body).toBe(`{"note":"it's copied"}`);
    expect(delivery!.headers['x-copied']).toBe('yes');
    await expectSecretKeptFromPage(app, frames.received, DEV_TOKEN);
  });
});
