// Flow control in the console against the real local stack, with keys made by the vendor's own SDK: a key
// with waiting messages shows its numbers; pause, resume, pin and unpin made here are what the SDK's
// flowControl.get sees; a held message's "Why is this not delivered?" in the logs leads to its key; on a
// production profile a change to a key asks for the key to be typed.
import type { Client } from '@upstash/qstash';
import type { Page } from '@playwright/test';
import { confirm, expect, go, runJobDialog, test } from './fixtures';
import { createProfile } from './support/profiles';

// A stack start, SDK calls and many UI round trips per test: more than the default 60 s on a loaded machine.
test.describe.configure({ timeout: 90_000 });

/** Publishes `count` messages with the key through the SDK: rate 1 per hour lets one through, the rest wait. */
async function waitingKey(client: Client, destination: string, key: string, count: number) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { messageId } = await client.publish({
      url: `${destination}/${key}/${i}`,
      body: `message ${i}`,
      flowControl: { key, parallelism: 2, rate: 1, period: '1h' },
    });
    ids.push(messageId);
  }
  await expect.poll(async () => (await client.flowControl.get(key)).waitListSize).toBe(count - 1);
  return ids;
}

const row = (page: Page, key: string) => page.getByRole('option', { name: key });
const panel = (page: Page) => page.getByRole('complementary', { name: 'Flow-control key' });

test('an SDK-made key shows its numbers; pause, resume, pin and unpin here are what flowControl.get sees', async ({
  app,
  sdk: client,
  sink,
}) => {
  await waitingKey(client, sink.url, 'orders-eu', 4);
  await waitingKey(client, sink.url, 'quiet', 1);

  await go(app, '#/messages/flow-control');
  await expect(app.getByTestId('fc-summary')).toHaveText(/2 keys · 1 with waiting messages/);
  // Most waiting first; named by what the row shows, so a screen reader says the numbers with the key.
  await expect(
    app.getByRole('listbox', { name: 'Flow-control keys' }).getByRole('option').first(),
  ).toHaveAccessibleName('orders-eu 3 waiting In flight: 0 of 2 Rate used: 1 of 1 per 1 h');
  const orders = row(app, 'orders-eu');
  await expect(orders.locator('.fc-waiting')).toHaveText('3');
  await expect(orders.getByLabel('In flight: 0 of 2')).toBeVisible();
  await expect(orders.getByLabel('Rate used: 1 of 1 per 1 h')).toBeVisible();

  await orders.click();
  await expect(app).toHaveURL(/#\/messages\/flow-control\/orders-eu$/);
  await expect(panel(app).getByTestId('fc-explain')).toHaveText(
    /^The rate of 1 per 1 h is used up: the 3 messages waiting go on/,
  );
  await expect(
    panel(app).getByRole('img', { name: /^Waiting and delivered per 10 s: Waiting 3 now/ }),
  ).toBeVisible();
  await expect(panel(app).locator('canvas').first()).toBeVisible();

  await panel(app).getByRole('button', { name: 'Pause' }).click();
  await confirm(app, 'Pause orders-eu?', 'Pause key');
  await expect(panel(app).getByText('Paused', { exact: true }).first()).toBeVisible();
  await expect.poll(async () => (await client.flowControl.get('orders-eu')).isPaused).toBe(true);
  await expect(orders.getByText('Paused')).toBeVisible();

  await panel(app).getByRole('button', { name: 'Resume' }).click();
  await confirm(app, 'Resume orders-eu?', 'Resume key');
  await expect.poll(async () => (await client.flowControl.get('orders-eu')).isPaused).toBe(false);

  await panel(app).getByRole('button', { name: 'Pin…' }).click();
  const pin = app.getByRole('dialog', { name: 'Pin orders-eu' });
  await expect(pin.getByLabel('Parallelism')).toHaveValue('2');
  await pin.getByLabel('Parallelism').fill('0');
  await expect(pin.getByText(/parallelism must be a whole number from 1/)).toBeVisible();
  await expect(pin.getByRole('button', { name: 'Pin', exact: true })).toBeDisabled();
  await pin.getByLabel('Parallelism').fill('5');
  await pin.getByLabel('Rate').fill('2');
  await pin.getByRole('button', { name: 'Pin', exact: true }).click();
  await confirm(app, 'Pin orders-eu?', 'Pin');
  await expect(pin).toBeHidden();
  await expect
    .poll(async () => client.flowControl.get('orders-eu'))
    .toMatchObject({
      isPinnedParallelism: true,
      isPinnedRate: true,
      parallelismMax: 5,
      rateMax: 2,
      ratePeriod: 3600,
    });
  // The pin started a new period: two more of the waiting messages went out.
  await sink.waitFor('/orders-eu/2');
  await expect(orders.getByText('Pinned parallelism + rate')).toBeVisible();

  await panel(app).getByRole('button', { name: 'Unpin' }).click();
  await confirm(app, 'Unpin orders-eu?', 'Unpin');
  await expect.poll(async () => (await client.flowControl.get('orders-eu')).isPinnedRate).toBe(false);
  await expect(orders.getByText(/Pinned/)).toBeHidden();
});

test('a held message’s “Why is this not delivered?” opens its key; on production a change asks for the key', async ({
  app,
  stack,
  sdk: client,
  sink,
}) => {
  const ids = await waitingKey(client, sink.url, 'tenant-7', 3);
  const held = ids[2]!;

  await go(app, `#/messages/logs/${held}`);
  const detail = app.getByRole('complementary', { name: 'Message detail' });
  await expect(detail.getByRole('link', { name: 'tenant-7' })).toBeVisible();
  await detail.getByRole('link', { name: 'Why is this not delivered?' }).click();
  await expect(app).toHaveURL(new RegExp(`#/messages/flow-control/tenant-7/${held}$`));
  await expect(panel(app).getByTestId('fc-hold')).toHaveText(
    "Waiting for the key's limits: 1 message ahead of it.",
  );

  // A production profile on the same stack: pausing asks for the key itself to be typed.
  await go(app, '#/profiles');
  await createProfile(app, 'Prod stack', {
    env: 'Prod',
    messagesUrl: stack.api.url,
    messageToken: stack.api.token,
  });
  await app.getByRole('button', { name: 'Use this profile' }).click();
  await go(app, '#/messages/flow-control/tenant-7');
  await panel(app).getByRole('button', { name: 'Pause' }).click();
  const ask = app.getByRole('dialog', { name: 'Pause tenant-7?' });
  const pause = ask.getByRole('button', { name: 'Pause key' });
  await expect(pause).toBeDisabled();
  await ask.getByLabel(/Type tenant-7 to confirm/).fill('tenant');
  await expect(pause).toBeDisabled();
  await ask.getByLabel(/Type tenant-7 to confirm/).fill('tenant-7');
  await pause.click();
  await expect.poll(async () => (await client.flowControl.get('tenant-7')).isPaused).toBe(true);
});

test('pause every key shown, as a job: previewed, confirmed, run, listed on Jobs', async ({
  app,
  sdk: client,
  sink,
}) => {
  for (const key of ['tenant-a-1', 'tenant-a-2', 'tenant-b-1']) {
    await client.publish({ url: `${sink.url}/${key}`, body: key, flowControl: { key, parallelism: 1 } });
  }
  await go(app, '#/messages/flow-control');
  await expect(app.getByTestId('fc-summary')).toHaveText(/^3 keys/);
  // No search: the actions are over every key, and "all" is typed first.
  await app.getByRole('button', { name: 'Pause all…' }).click();
  const all = app.getByRole('dialog', { name: 'Pause flow-control keys' });
  await expect(all.getByTestId('bulk-count')).toHaveText('3 keys');
  await expect(all.getByRole('button', { name: 'Pause 3 keys' })).toBeDisabled();
  await all.getByRole('button', { name: 'Cancel', exact: true }).click();

  await app.getByLabel('Search keys').fill('tenant-a');
  await app.getByRole('button', { name: 'Pause shown…' }).click();
  const dialog = app.getByRole('dialog', { name: 'Pause flow-control keys' });
  await expect(dialog).toContainText('every key matching “tenant-a”');
  await runJobDialog(dialog, 'Pause', '2 keys', '2 of 2 paused.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  for (const key of ['tenant-a-1', 'tenant-a-2']) {
    await expect.poll(async () => (await client.flowControl.get(key)).isPaused).toBe(true);
  }
  expect((await client.flowControl.get('tenant-b-1')).isPaused).toBe(false);

  await go(app, '#/jobs');
  const job = app.getByTestId('job-row').first();
  await expect(job).toHaveAttribute('data-status', 'done');
  await expect(job).toContainText('every key matching “tenant-a”');
});
