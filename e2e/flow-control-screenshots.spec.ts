// The Flow control tab in both themes, with keys as apps make them: the list, a key with ten minutes of
// history in its chart (the stack's clock moved on 10 s at a time, so the rate lets a few through in each
// bucket) and its tooltip, and a held message's "why" on a paused key. No console errors; one screenshot
// each — to test-results/screenshots, or to docs/screenshots with SCREENSHOTS=1.
import { expect, go, test } from './fixtures';
import { localStack } from './support/local-stack';
import { saveScreenshot, themedPage } from './support/screenshots';

for (const theme of ['light', 'dark'] as const) {
  test(`the Flow control tab renders cleanly in the ${theme} theme`, async ({
    browser,
    consoleHost,
    sink,
  }) => {
    test.setTimeout(150_000);
    const { page, errors } = await themedPage(browser, theme);
    try {
      await page.goto(consoleHost.url);
      const { api } = await localStack(page);
      const flow = (key: string, value: string) => ({
        'Upstash-Flow-Control-Key': key,
        'Upstash-Flow-Control-Value': value,
      });
      const publishMany = async (key: string, value: string, count: number) => {
        for (let i = 0; i < count; i++)
          await api.publish(`${sink.url}/${key}/${i}`, flow(key, value), `{"n":${i}}`);
      };
      const advance = (by: string) => api.request('POST', '/local/clock/advance', { by });

      // A key whose rate lets 3 through per 10 s: advancing the clock drains it bucket by bucket.
      await publishMany('orders-eu', 'parallelism=4, rate=3, period=10s', 36);
      for (let step = 0; step < 7; step++) {
        await advance('10s');
        if (step === 3) await publishMany('orders-eu', 'parallelism=4, rate=3, period=10s', 6);
      }
      await api.request('POST', '/v2/flowControl/orders-eu/pin?parallelism=4');
      // A paused key holding what came after the pause.
      await publishMany('tenant-42', 'parallelism=2', 1);
      await sink.waitFor('/tenant-42/0');
      await api.request('POST', '/v2/flowControl/tenant-42/pause');
      for (let i = 1; i <= 8; i++)
        await api.publish(`${sink.url}/tenant-42/${i}`, flow('tenant-42', 'parallelism=2'));
      // Keys that keep up, and one at its rate.
      await publishMany('emails', 'parallelism=5, rate=100, period=1m', 12);
      await publishMany('webhooks-slack', 'rate=2, period=1m', 5);
      for (const tenant of ['tenant-1', 'tenant-2', 'tenant-3', 'tenant-9'])
        await publishMany(tenant, 'parallelism=1', 1);

      await go(page, '#/messages/flow-control');
      await expect(page.getByTestId('fc-summary')).toHaveText(/^8 keys · 3 with waiting messages/);
      await expect(page.getByRole('option', { name: 'tenant-42' }).locator('.fc-waiting')).toHaveText('8');
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'flow-control', theme);

      await page.getByRole('option', { name: 'orders-eu' }).click();
      const detail = page.getByRole('complementary', { name: 'Flow-control key' });
      await expect(detail.getByTestId('fc-explain')).toHaveText(/^The rate of 3 per 10 s is used up/);
      const chart = detail.locator('.fc-chart');
      await expect(chart.locator('canvas')).toBeVisible();
      const box = (await chart.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2);
      await expect(chart.locator('.chart-tooltip')).toBeVisible();
      await saveScreenshot(page, 'flow-control-key', theme);

      const logs = (await (
        await api.request('GET', '/v2/logs?flowControlKey=tenant-42&state=CREATED&count=1')
      ).json()) as { events: { messageId: string }[] };
      await go(page, `#/messages/flow-control/tenant-42/${logs.events[0]!.messageId}`);
      await expect(detail.getByTestId('fc-hold')).toHaveText(
        'Held: the key is paused (7 messages ahead of it once it is resumed).',
      );
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'flow-control-held', theme);

      // Pausing every key the search shows, as a job: the preview before the start.
      await go(page, '#/messages/flow-control');
      await page.getByLabel('Search keys').fill('tenant-');
      await page.getByRole('button', { name: 'Pause shown…' }).click();
      await expect(page.getByRole('dialog').getByTestId('bulk-count')).toHaveText('5 keys');
      await page.mouse.move(0, 0);
      await saveScreenshot(page, 'flow-control-pause-many', theme);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();

      expect(errors.filter((text) => !/net::ERR_/.test(text))).toEqual([]);
    } finally {
      await page.close();
    }
  });
}
