// The KV Monitor and Pub/Sub screens in both themes, with real traffic from @upstash/redis against the
// local stack's KV service: no console errors, one screenshot each — to test-results/screenshots, or to
// docs/screenshots with SCREENSHOTS=1.
import { expect, go } from './fixtures';
import { saveScreenshot, themedConsoleTest } from './support/screenshots';

themedConsoleTest(
  'KV live screens render cleanly',
  { timeout: 180_000 },
  async ({ page, theme, errors, kv, shoot }) => {
    const redis = kv.redis();

    await go(page, '#/kv/monitor');
    await expect(page.getByTestId('monitor-state')).toHaveText('Live');
    for (let i = 0; i < 40; i++) {
      await redis.set(`user:${1000 + i}:name`, `Ada ${i}`);
      await redis.hset(`cart:${i}`, { sku: `A-${i}`, qty: i % 4 });
      if (i % 5 === 0) await redis.publish('orders', JSON.stringify({ id: i, total: 12.5 * i }));
      await redis.get(`session:${i}`);
    }
    await expect(page.getByTestId('monitor-list').getByText('session:39')).toBeVisible();
    await page.getByRole('button', { name: 'Pause' }).click();
    await shoot('kv-monitor');

    await page.getByLabel('Filter by command').fill('set hset');
    await page.getByLabel('Filter by key pattern').fill('user:10[0-1]*');
    await expect(page.getByTestId('monitor-shown')).toHaveText('20');
    await saveScreenshot(page, 'kv-monitor-filtered', theme);

    await go(page, '#/kv/pubsub');
    await page.getByLabel('Channels').fill('orders');
    await page.getByLabel('Patterns').fill('user:*');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByTestId('pubsub-subscriptions').getByText('orders · active')).toBeVisible();
    await expect(page.getByTestId('pubsub-subscriptions').getByText('pattern user:* · active')).toBeVisible();
    for (let i = 0; i < 6; i++) {
      await redis.publish(
        'orders',
        JSON.stringify({ id: 4200 + i, items: [{ sku: 'A-1', qty: 2 }], total: 31.5 }),
      );
      await redis.publish(`user:${i}`, `signed in from 10.0.0.${i}`);
    }
    const messages = page.getByTestId('pubsub-messages');
    await messages.getByRole('option', { name: /4205/ }).click();
    await page.getByLabel('Channel', { exact: true }).fill('orders');
    await page.getByLabel('Message', { exact: true }).fill('{"id": 4300, "total": 9.99}');
    await shoot('kv-pubsub');
    expect(errors).toEqual([]);
  },
);
