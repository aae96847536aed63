// The message-operations screens (URL groups, logs, queues, signing keys, DLQ) in both themes, with real
// data in the local stack: no console errors, one screenshot each — to test-results/screenshots, or to
// docs/screenshots with SCREENSHOTS=1 (`npm run screenshots` runs only e2e/screenshots.spec.ts; run this
// spec the same way to refresh these pictures).
import { expect, go } from './fixtures';
import { themedConsoleTest } from './support/screenshots';

themedConsoleTest(
  'message operation screens render cleanly',
  { timeout: 120_000 },
  async ({ page, errors, api, sink, shoot: save }) => {
    sink.respond((request) =>
      request.path.startsWith('/fail')
        ? {
            status: 503,
            body: '{"error":"upstream database unavailable","retryable":true}',
            headers: { 'content-type': 'application/json' },
          }
        : { status: 200, body: 'ok' },
    );
    const shoot = async (name: string, check: () => Promise<void>) => {
      await check();
      await save(name);
    };

    // Data, as apps would create it.
    await api.request('POST', '/v2/topics/orders/endpoints', {
      endpoints: [
        { name: 'billing', url: `${sink.url}/billing` },
        { name: 'warehouse', url: `${sink.url}/warehouse` },
        { url: `${sink.url}/audit` },
      ],
    });
    await api.request('PATCH', '/v2/topics/orders', {
      headers: { 'Upstash-Forward-X-Team': ['payments'], 'Upstash-Retries': ['2'] },
    });
    await api.request('POST', '/v2/topics/signups/endpoints', {
      endpoints: [{ name: 'crm', url: `${sink.url}/crm` }],
    });
    await api.request('POST', '/v2/queues', { queueName: 'emails', parallelism: 2, paused: true });
    await api.request('POST', '/v2/queues', { queueName: 'invoices', parallelism: 1, paused: false });
    for (let i = 0; i < 3; i += 1)
      await api.request('POST', `/v2/enqueue/emails/${sink.url}/mail`, `mail ${i}`);
    await api.publish('orders', { 'Upstash-Label': 'checkout' }, '{"order":1042,"total":99.5}');
    for (let i = 0; i < 4; i += 1) {
      await api.publish(`${sink.url}/webhooks/${i}`, { 'Upstash-Forward-X-Trace': `trace-${i}` });
    }
    await api.publish(`${sink.url}/later`, { 'Upstash-Delay': '2h', 'Upstash-Label': 'reminders' });
    await api.publish(`${sink.url}/fail/payments`, {
      'Upstash-Retries': '2',
      'Upstash-Retry-Delay': '100',
    });
    await api.publish(`${sink.url}/fail/slow`, { 'Upstash-Retries': '3', 'Upstash-Retry-Delay': '60000' });
    const failing = [];
    for (let i = 0; i < 12; i += 1) {
      failing.push({
        destination: `${sink.url}/fail/orders`,
        headers: {
          'Upstash-Retries': '0',
          'Upstash-Label': i % 3 ? 'nightly' : 'billing',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ order: 2000 + i }),
      });
    }
    await api.request('POST', '/v2/batch', failing);
    await sink.waitFor('/fail/payments', 3);

    await shoot('url-groups', async () => {
      await go(page, '#/url-groups');
      await expect(page.getByRole('table', { name: 'URL groups' }).getByRole('row')).toHaveCount(3);
    });
    await shoot('url-group', async () => {
      await page.getByRole('link', { name: 'orders' }).click();
      await expect(page.getByRole('region', { name: 'Endpoints' }).getByRole('row')).toHaveCount(4);
    });
    await shoot('url-group-paste', async () => {
      await page.getByRole('button', { name: 'Add endpoints' }).click();
      await page
        .getByLabel('Endpoints, one per line')
        .fill(
          `shipping ${sink.url}/shipping\nftp://legacy.example.com/in\nbilling ${sink.url}/billing\nhttps://analytics.example.com/ingest`,
        );
      await expect(page.getByRole('dialog').getByText('Invalid', { exact: true })).toBeVisible();
    });
    await page.keyboard.press('Escape');
    await shoot('url-group-headers-diff', async () => {
      await page
        .getByRole('region', { name: 'Default headers' })
        .getByRole('button', { name: 'Edit' })
        .click();
      await page.getByLabel('Header 2 value').fill('5');
      await page.getByRole('button', { name: 'Add header' }).click();
      await page.getByLabel('Header 3 name').fill('Upstash-Timeout');
      await page.getByLabel('Header 3 value').fill('30s');
      await page.getByRole('button', { name: /^Review/ }).click();
      await expect(page.getByRole('table', { name: 'Header changes' })).toBeVisible();
    });
    await page.keyboard.press('Escape');

    await shoot('logs', async () => {
      await go(page, '#/messages/logs');
      await expect(page.getByRole('list', { name: 'Messages' }).getByText('FAILED').first()).toBeVisible();
    });
    await shoot('log-detail', async () => {
      await page.getByRole('listitem').filter({ hasText: '/fail/payments' }).first().click();
      const trail = page.getByRole('list', { name: 'Attempt trail' });
      await expect(trail).toContainText('FAILED');
      await trail.getByText('Response').first().click();
    });
    await shoot('logs-cancel-preview', async () => {
      await go(page, '#/messages/logs');
      await page.getByRole('button', { name: 'Cancel all pending…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel messages' });
      await expect(dialog.getByTestId('bulk-count')).toHaveText(/^\d+ pending messages?$/);
      await expect(dialog.getByRole('textbox', { name: /type all to confirm/i })).toBeVisible();
    });
    await page.getByRole('button', { name: 'Go back' }).click();

    await shoot('queues', async () => {
      await go(page, '#/messages/queues');
      await expect(page.getByTestId('queue-emails')).toContainText('Paused');
      await expect(page.getByTestId('queue-emails').getByLabel('Lag')).toHaveText('3');
    });
    await shoot('signing-keys', async () => {
      await go(page, '#/messages/keys');
      await expect(page.getByTestId('key-current')).toHaveText(/^••••/);
    });
    await shoot('signing-keys-rotate', async () => {
      await page.getByRole('button', { name: 'Rotate keys…' }).click();
      await expect(page.getByRole('dialog', { name: 'Rotate the signing keys?' })).toBeVisible();
    });
    await page.keyboard.press('Escape');

    await shoot('dlq', async () => {
      await go(page, '#/dlq');
      await expect(page.getByTestId('dlq-summary')).toHaveText('13 entries');
    });
    await shoot('dlq-detail', async () => {
      await page
        .getByRole('table', { name: 'DLQ entries' })
        .getByRole('row')
        .filter({ hasText: '/fail/payments' })
        .click();
      await expect(
        page.getByRole('complementary', { name: 'DLQ entry' }).getByLabel('Response body'),
      ).toContainText('upstream database unavailable');
    });
    await shoot('dlq-bulk-preview', async () => {
      await page.getByRole('form', { name: 'DLQ filters' }).getByLabel('Label').fill('nightly');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page.getByTestId('dlq-summary')).toHaveText('8 entries');
      await page.getByRole('button', { name: 'Retry all matching…' }).click();
      await expect(page.getByTestId('bulk-count')).toHaveText('8 entries');
      await page.getByRole('dialog').getByLabel('Retries').fill('0');
      await page.getByRole('dialog').getByLabel('Headers for the destination').fill('X-Replay: yes');
    });
    await shoot('dlq-bulk-summary', async () => {
      await page.getByRole('button', { name: 'Retry 8 entries' }).click();
      await expect(page.getByTestId('bulk-summary')).toContainText('8 of 8 retried');
    });

    expect(errors.filter((text) => !/net::ERR_/.test(text))).toEqual([]);
  },
);
