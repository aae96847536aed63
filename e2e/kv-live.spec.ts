// The KV Monitor and Pub/Sub screens against the real local stack's KV service (redis-server behind the
// REST bridge), with traffic from the vendor's own client (@upstash/redis) running in the test.
import { AxeBuilder } from '@axe-core/playwright';
import type { Redis } from '@upstash/redis';
import type { Page, WebSocketRoute } from '@playwright/test';
import { expect, go, test } from './fixtures';
import { useKvProfile } from './support/profiles';
import { startScriptedService } from './support/scripted-service';

/** Commands from another client, one after another, until stopped. */
function runTraffic(redis: Redis): { stop(): Promise<number> } {
  let running = true;
  let sent = 0;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      await redis.set(`e2e:user:${i}`, `name ${i}`);
      await redis.get(`e2e:order:${i}`);
      sent += 2;
      // A steady trickle is enough here (throughput is the bench's job) and keeps a loaded machine usable.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return sent;
    },
  };
}

const commandsShown = (page: Page) =>
  page.getByTestId('monitor-list').locator('.kv-live-command').allTextContents();
const number = async (page: Page, id: string): Promise<number> =>
  Number((await page.getByTestId(id).textContent())!.replace(/[^\d]/g, ''));

test('monitor: filters while traffic runs, own traffic hidden by default, pause and resume, stop', async ({
  app,
  context,
  stack: { kv },
  consoleHost,
}) => {
  test.setTimeout(300_000);
  await go(app, '#/kv/monitor');
  await expect(app.getByTestId('monitor-state')).toHaveText('Live');
  const redis = kv.redis();
  const traffic = runTraffic(redis);
  try {
    const list = app.getByTestId('monitor-list');
    await expect(list.getByText(/e2e:user:\d+/).first()).toBeVisible();

    // By command: only GETs.
    await app.getByLabel('Filter by command').fill('get');
    await expect(list.getByText(/e2e:order:\d+/).first()).toBeVisible();
    await expect.poll(async () => new Set(await commandsShown(app))).toEqual(new Set(['GET']));

    // By key pattern (any argument): only the user keys, which only SET touches.
    await app.getByLabel('Filter by command').fill('');
    await app.getByLabel('Filter by key pattern').fill('e2e:user:*');
    await expect.poll(async () => new Set(await commandsShown(app))).toEqual(new Set(['SET']));
    // By client: the stack names each REST caller by its IP and the token's user; the SDK here uses the
    // standard token, nothing uses the read-only one.
    await app.getByLabel('Filter by client').fill('127.0.0.1 default');
    await expect(list.getByText(/e2e:user:\d+/).first()).toBeVisible();
    await expect(list.locator('.kv-live-client-cell').first()).toHaveText('127.0.0.1 default');
    await app.getByLabel('Filter by client').fill('read-only');
    await expect(app.getByTestId('monitor-shown')).toHaveText('0');
    await app.getByLabel('Filter by client').fill('');
    await app.getByLabel('Filter by key pattern').fill('');

    // The console's own traffic: a publish from this console (another window) is tagged and hidden.
    const other = await context.newPage();
    await other.goto(consoleHost.url);
    await expect(other.getByRole('navigation', { name: 'Areas' })).toBeVisible();
    await go(other, '#/kv/pubsub');
    await other.getByLabel('Channel', { exact: true }).fill('e2e-own');
    await other.getByLabel('Message', { exact: true }).fill('from the console');
    await other.getByRole('button', { name: 'Publish to e2e-own' }).click();
    await expect(other.getByTestId('publish-result')).toHaveText('Delivered to 0 subscribers');
    await redis.publish('e2e-foreign', 'from the sdk');
    await app.getByLabel('Filter by command').fill('publish');
    await expect(list.getByText('e2e-foreign')).toBeVisible();
    await expect(list.getByText('e2e-own')).toHaveCount(0);
    // force: the row of filters re-renders with every batch of lines, so it never counts as "stable".
    const showOwn = app.getByRole('switch', { name: /Show this console's commands/ });
    await showOwn.click({ force: true });
    await expect(showOwn).toBeChecked();
    const own = list.locator('.kv-live-row', { hasText: 'e2e-own' });
    await expect(own).toBeVisible();
    await expect(own.getByText('console', { exact: true })).toBeVisible();
    await expect(
      list.locator('.kv-live-row', { hasText: 'e2e-foreign' }).getByText('console', { exact: true }),
    ).toHaveCount(0);
    await other.close();
    await app.getByLabel('Filter by command').fill('');

    // Pause freezes the view while lines are still kept; resume shows them.
    await app.getByRole('button', { name: 'Pause' }).click();
    await expect(app.getByTestId('monitor-state')).toHaveText('Paused — still recording');
    const frozen = await number(app, 'monitor-kept');
    await expect.poll(() => number(app, 'monitor-kept-now')).toBeGreaterThan(frozen);
    expect(await number(app, 'monitor-kept')).toBe(frozen);
    await app.getByRole('button', { name: 'Resume' }).click();
    await expect(app.getByTestId('monitor-state')).toHaveText('Live');
    await expect.poll(() => number(app, 'monitor-kept')).toBeGreaterThan(frozen);

    // Export writes what is kept to a file main chooses and names it.
    await app.getByRole('button', { name: /^Export .* kept lines$/ }).click();
    await expect(app.getByTestId('export-result')).toHaveText(/^Saved [\d,]+ lines to .*kv-monitor-.*\.log$/);

    // Stop closes the stream: no more lines arrive.
    await app.getByRole('button', { name: 'Stop monitor' }).click();
    await expect(app.getByTestId('monitor-state')).toHaveText('Stopped');
    const stopped = await number(app, 'monitor-kept');
    await redis.set('e2e:after-stop', '1');
    await app.getByLabel('Filter by key pattern').fill('e2e:after-*');
    await app.getByRole('button', { name: 'Start monitor' }).click();
    await expect(app.getByTestId('monitor-state')).toHaveText('Live');
    await redis.set('e2e:after-restart', '1');
    await expect(list.getByText('e2e:after-restart')).toBeVisible();
    await expect(list.getByText('e2e:after-stop')).toHaveCount(0);
    expect(await number(app, 'monitor-kept')).toBeGreaterThan(stopped);
  } finally {
    await traffic.stop();
  }
});

test('pub/sub: subscribe to a channel and a pattern, JSON view, publish round trip', async ({
  app,
  stack: { kv },
}) => {
  test.setTimeout(90_000);
  await go(app, '#/kv/pubsub');
  await expect(app.getByText('Not subscribed.', { exact: false })).toBeVisible();
  await expect(app.getByRole('button', { name: 'Subscribe' })).toBeDisabled();
  await app.getByLabel('Channels').fill('e2e-news');
  await app.getByLabel('Patterns').fill('e2e-orders:*');
  await app.getByRole('button', { name: 'Subscribe' }).click();
  const subs = app.getByTestId('pubsub-subscriptions');
  await expect(subs.getByText('e2e-news · active')).toBeVisible();
  await expect(subs.getByText('pattern e2e-orders:* · active')).toBeVisible();

  // From another client: a JSON message on the channel.
  expect(await kv.redis().publish('e2e-news', '{"id":42,"items":["a","b"]}')).toBe(2 - 1);
  const messages = app.getByTestId('pubsub-messages');
  await messages.getByRole('option', { name: /e2e-news/ }).click();
  await expect(app.getByTestId('pubsub-detail').getByText('JSON')).toBeVisible();
  await expect(app.getByLabel('Message payload')).toHaveText(
    JSON.stringify({ id: 42, items: ['a', 'b'] }, null, 2),
  );

  // From the console: a publish that the pattern subscription receives.
  await app.getByLabel('Channel', { exact: true }).fill('e2e-orders:7');
  await app.getByLabel('Message', { exact: true }).fill('shipped');
  await app.getByRole('button', { name: 'Publish to e2e-orders:7' }).click();
  await expect(app.getByTestId('publish-result')).toHaveText('Delivered to 1 subscriber');
  await expect(messages.getByRole('option', { name: /e2e-orders:7.*shipped/ })).toBeVisible();

  // Unsubscribe closes the streams at the service: nobody receives any more.
  await app.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(app.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  await expect.poll(() => kv.redis().publish('e2e-news', 'late')).toBe(0);
});

test('read-only profile: publish refused in main, monitor and subscribe refused by the service', async ({
  app,
  stack: { kv },
}) => {
  test.setTimeout(90_000);
  await useKvProfile(app, 'KV RO', kv.url, { readOnly: true });

  await go(app, '#/kv/monitor');
  await expect(app.getByText('The monitor stopped')).toBeVisible();
  await expect(app.getByText(/NOPERM/)).toBeVisible();
  await expect(app.getByTestId('monitor-state')).toHaveText('Stopped');

  await go(app, '#/kv/pubsub');
  await app.getByLabel('Channel', { exact: true }).fill('e2e-ro');
  await app.getByLabel('Message', { exact: true }).fill('x');
  await app.getByRole('button', { name: 'Publish to e2e-ro' }).click();
  await expect(app.getByText('Not published')).toBeVisible();
  await expect(app.getByText(/This profile is read-only/)).toBeVisible();
  await app.getByLabel('Channels').fill('e2e-ro');
  await app.getByRole('button', { name: 'Subscribe' }).click();
  await expect(app.getByText('Subscription ended')).toBeVisible();
  await expect(app.getByText(/NOPERM/)).toBeVisible();
});

test('pub/sub: a dropped subscription comes back by itself while the others stream; a refused one stays refused', async ({
  app,
  stack: { kv },
}) => {
  test.setTimeout(120_000);
  // In front of the stack's KV service: subscriptions streamed through (and cut when the test says), one
  // channel refused, and e2e-news's connections reset while it is "down".
  let newsDown = false;
  const service = await startScriptedService(({ path }) => {
    if (path === '/subscribe/e2e-secret') return { status: 401, json: { error: 'Unauthorized' } };
    if (path === '/subscribe/e2e-news' && newsDown) return 'reset';
    return path.startsWith('/subscribe/') || path.startsWith('/psubscribe/') ? 'stream' : 'forward';
  }, kv.url);
  const asked = (path: string) => service.requests.filter((request) => request.path === path).length;
  try {
    await useKvProfile(app, 'KV via proxy', service.url);

    await go(app, '#/kv/pubsub');
    await app.getByLabel('Channels').fill('e2e-orders e2e-news e2e-secret');
    await app.getByRole('button', { name: 'Subscribe' }).click();
    const subs = app.getByTestId('pubsub-subscriptions');
    await expect(subs.getByText('e2e-orders · active')).toBeVisible();
    await expect(subs.getByText('e2e-news · active')).toBeVisible();
    await expect(subs.getByText('e2e-secret · failed')).toBeVisible();
    await expect(
      app.getByRole('alert').filter({ hasText: 'Could not subscribe to e2e-secret' }),
    ).toContainText('Unauthorized');

    // e2e-news's connection drops mid-stream and its service stays away: it counts down to each try.
    newsDown = true;
    expect(service.cut('/subscribe/e2e-news')).toBe(1);
    await expect(subs.getByText(/^e2e-news · reconnecting in \d+ s \(attempt 1\)$/)).toBeVisible();
    await expect(
      app.getByText(/^Lost the connection of e2e-news at \d\d:\d\d:\d\d; subscribing again…$/),
    ).toBeVisible();
    await expect(subs.getByText(/^e2e-news · reconnecting in \d+ s \(attempt 3\)$/)).toBeVisible({
      timeout: 30_000,
    });
    // Meanwhile the others stay open and deliver.
    await expect(subs.getByText('e2e-orders · active')).toBeVisible();
    expect(await kv.redis().publish('e2e-orders', 'while news is down')).toBe(1);
    const messages = app.getByTestId('pubsub-messages');
    await expect(messages.getByRole('option', { name: /e2e-orders.*while news is down/ })).toBeVisible();
    await app.screenshot({ path: test.info().outputPath('pubsub-reconnecting.png') });
    // The reconnecting badge and note pass axe in both themes (accessibility.spec.ts sees only steady states).
    for (const theme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: theme });
      await expect(app.locator('html')).toHaveAttribute('data-theme', theme);
      const { violations } = await new AxeBuilder({ page: app })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
        .setLegacyMode()
        .analyze();
      expect(
        violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    }
    await app.emulateMedia({ colorScheme: 'light' });

    // Its service is back: subscribed again by itself, saying messages in between were not received.
    newsDown = false;
    await expect(subs.getByText('e2e-news · active')).toBeVisible({ timeout: 30_000 });
    await expect(app.getByTestId('pubsub-reconnected')).toHaveText(
      /^e2e-news reconnected at \d\d:\d\d:\d\d\. Messages published in between were not received \(pub\/sub keeps no history\)\.$/,
    );
    await expect(app.getByText('Lost the connection of e2e-news', { exact: false })).toBeHidden();
    await expect.poll(() => kv.redis().publish('e2e-news', 'after')).toBe(1);
    await expect(messages.getByRole('option', { name: /e2e-news.*after/ })).toBeVisible();
    await app.screenshot({ path: test.info().outputPath('pubsub-reconnected.png') });
    // The open one was never asked again, nor the refused one.
    expect(asked('/subscribe/e2e-orders')).toBe(1);
    expect(asked('/subscribe/e2e-secret')).toBe(1);
    expect(asked('/subscribe/e2e-news')).toBeGreaterThanOrEqual(4);

    await app.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(subs.getByText('e2e-secret · failed')).toBeVisible();
    await expect(subs.getByText('e2e-news · ended')).toBeVisible();
  } finally {
    await service.close();
  }
});

/**
 * Routes the page's bridge socket (the browser host's WebSocket to main) through the test, reloading the
 * page so that it opens one: `drop` closes both ends of the open socket, as a host restart or a lost network
 * would, and refuses new ones until `restore`.
 */
async function droppableBridge(page: Page) {
  const sockets: { page: WebSocketRoute; main: WebSocketRoute }[] = [];
  let down = false;
  let refused = 0;
  await page.routeWebSocket(/\/bridge(\?|$)/, (socket) => {
    if (down) {
      refused++;
      void socket.close({ code: 1011, reason: 'down' });
      return;
    }
    sockets.push({ page: socket, main: socket.connectToServer() });
  });
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Areas' })).toBeVisible();
  return {
    drop: async () => {
      down = true;
      for (const { page: side, main } of sockets.splice(0)) {
        await main.close();
        await side.close({ code: 1011, reason: 'lost' });
      }
    },
    restore: () => {
      down = false;
    },
    refused: () => refused,
    opened: () => sockets.length,
  };
}

test('the bridge to main is lost under the monitor and pub/sub: each says so, opens again by itself once it is back, and streams again', async ({
  app,
  stack: { kv },
}) => {
  test.setTimeout(120_000);
  const bridge = await droppableBridge(app);
  const banner = app
    .getByRole('status')
    .filter({ hasText: 'Connection to the back end lost. Reconnecting…' });

  // The monitor: live, then the bridge goes. It says it lost the connection and is reconnecting, and keeps
  // its lines; the page keeps trying the bridge, which stays down for a few tries.
  await go(app, '#/kv/monitor');
  await expect(app.getByTestId('monitor-state')).toHaveText('Live');
  await kv.command('SET', 'before-bridge-loss', '1');
  await expect(app.getByText('before-bridge-loss')).toBeVisible();
  await bridge.drop();
  const monitorLost = app.locator('.callout', { hasText: 'Lost the connection; reconnecting the monitor…' });
  await expect(monitorLost).toContainText(
    "The page's connection to Switchyard's back end dropped. It opens again by itself once the back end answers.",
  );
  await expect(app.getByTestId('monitor-state')).toHaveText('Reconnecting…');
  await expect.poll(() => bridge.refused(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await expect(banner).toBeVisible();
  await expect(app.getByText('before-bridge-loss')).toBeVisible();
  await app.screenshot({ path: test.info().outputPath('monitor-bridge-lost.png') });

  // Back: the page reconnects the bridge, the monitor opens again by itself and new lines arrive.
  bridge.restore();
  await expect(app.getByTestId('monitor-state')).toHaveText('Live', { timeout: 30_000 });
  await expect(monitorLost).toBeHidden();
  await expect(banner).toBeHidden();
  await kv.command('SET', 'after-bridge-loss', '1');
  await expect(app.getByText('after-bridge-loss')).toBeVisible();
  await expect(app.getByText('before-bridge-loss')).toBeVisible();

  // Pub/sub: subscribed, then the bridge goes; every subscription waits for it, then is subscribed again.
  await go(app, '#/kv/pubsub');
  await app.getByLabel('Channels').fill('e2e-bridge');
  await app.getByRole('button', { name: 'Subscribe' }).click();
  const subs = app.getByTestId('pubsub-subscriptions');
  await expect(subs.getByText('e2e-bridge · active')).toBeVisible();
  await expect.poll(() => kv.redis().publish('e2e-bridge', 'before')).toBe(1);
  const messages = app.getByTestId('pubsub-messages');
  await expect(messages.getByRole('option', { name: /e2e-bridge.*before/ })).toBeVisible();
  const refusedBefore = bridge.refused();
  await bridge.drop();
  await expect(
    app.locator('.callout', { hasText: 'Lost the connection; reconnecting the subscriptions…' }),
  ).toContainText("The page's connection to Switchyard's back end dropped.");
  // Its badge says it is reconnecting (it was subscribed: not pending), as a warning; the page's callout
  // says why, so no note of its own.
  const bridgeBadge = subs.getByText('e2e-bridge · reconnecting', { exact: true });
  await expect(bridgeBadge).toBeVisible();
  await expect(bridgeBadge).toHaveClass(/tone-warning/);
  await expect(app.getByText('Lost the connection of e2e-bridge', { exact: false })).toBeHidden();
  await expect.poll(() => bridge.refused(), { timeout: 30_000 }).toBeGreaterThan(refusedBefore + 1);
  await app.screenshot({ path: test.info().outputPath('pubsub-bridge-lost.png') });

  bridge.restore();
  await expect(subs.getByText('e2e-bridge · active')).toBeVisible({ timeout: 30_000 });
  await expect(app.getByTestId('pubsub-reconnected')).toHaveText(
    /^e2e-bridge reconnected at \d\d:\d\d:\d\d\. Messages published in between were not received/,
  );
  await expect.poll(() => kv.redis().publish('e2e-bridge', 'after')).toBe(1);
  await expect(messages.getByRole('option', { name: /e2e-bridge.*after/ })).toBeVisible();
  await expect(messages.getByRole('option', { name: /e2e-bridge.*before/ })).toBeVisible();
  await app.screenshot({ path: test.info().outputPath('pubsub-bridge-back.png') });
});
