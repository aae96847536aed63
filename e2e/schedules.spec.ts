// Schedules end to end: Chromium → browser host → main → the real local stack, with the vendor's own client
// (@upstash/qstash) on the app's side and a real HTTP sink as the destination.
import { confirm, expect, go, test } from './fixtures';

test('an SDK-made schedule shows, a pause in the console is seen by the SDK, trigger now → Logs → back', async ({
  app,
  sink,
  sdk,
}) => {
  const { scheduleId } = await sdk.schedules.create({
    destination: `${sink.url}/nightly`,
    cron: 'CRON_TZ=Europe/Berlin 17 3 * * *',
    body: '{"report":"daily"}',
    label: 'reports',
  });

  await go(app, '#/messages/schedules');
  const row = app.getByTestId(`schedule-${scheduleId}`);
  await expect(row).toContainText('Every day at 03:17, Europe/Berlin');
  await expect(row).toContainText('Active');
  await expect(
    row.getByRole('list', { name: `Next fire times of ${scheduleId}` }).getByRole('listitem'),
  ).toHaveCount(5);

  // Pause in the console (the Local profile asks first), seen by the SDK.
  await row.getByRole('button', { name: 'Pause' }).click();
  await confirm(app, `Pause ${scheduleId}?`, 'Pause schedule');
  await expect(row).toContainText('Paused');
  await expect.poll(async () => (await sdk.schedules.get(scheduleId)).isPaused).toBe(true);
  // Resume asks too (with the normal button: it destroys nothing).
  await row.getByRole('button', { name: 'Resume' }).click();
  await confirm(app, `Resume ${scheduleId}?`, 'Resume schedule');
  await expect(row).toContainText('Active');
  await expect.poll(async () => (await sdk.schedules.get(scheduleId)).isPaused).toBe(false);

  // Edit says what the service's record cannot show, so that a save does not drop it unseen.
  await row.getByRole('button', { name: 'Edit' }).click();
  const editor = app.getByRole('dialog', { name: `Edit schedule ${scheduleId}` });
  await expect(editor.getByText('Redaction is not kept')).toBeVisible();
  await expect(editor).toContainText('whether it forwards the headers it was created with (Header-Forward)');
  await app.keyboard.press('Escape');
  await expect(editor).toBeHidden();

  // Trigger now: one message with the schedule's id.
  await row.getByRole('button', { name: 'Trigger now' }).click();
  await confirm(app, `Publish ${scheduleId} now?`, 'Publish now');
  const [delivery] = await sink.waitFor('/nightly');
  expect(delivery?.headers['upstash-schedule-id']).toBe(scheduleId);
  const messageId = delivery?.headers['upstash-message-id'] as string;

  // Its messages in the Logs, and from the message back to its schedule.
  await row.getByRole('button', { name: 'Logs' }).click();
  await expect(app.getByRole('listitem').filter({ hasText: messageId })).toBeVisible({ timeout: 20_000 });
  await app.getByRole('listitem').filter({ hasText: messageId }).click();
  const detail = app.getByRole('complementary', { name: 'Message detail' });
  await detail.getByRole('link', { name: scheduleId }).click();
  await expect(app.getByLabel('Search schedules')).toHaveValue(scheduleId);
  await expect(app.getByTestId(`schedule-${scheduleId}`)).toContainText('1 delivered', { timeout: 20_000 });
});

test('create with a bad cron: refused as you type, previewed once fixed, saved and listed', async ({
  app,
  sink,
  stack: { api },
}) => {
  void api;
  await go(app, '#/messages/schedules');
  await app.getByRole('button', { name: 'New schedule' }).click();
  const dialog = app.getByRole('dialog', { name: 'New schedule' });
  const cron = dialog.getByLabel('Cron (minute hour day month weekday)');
  await cron.fill('61 * * * *');
  await expect(dialog.getByRole('alert').first()).toContainText('Invalid value for minute: 61');
  await expect(dialog.getByTestId('schedule-preview')).toContainText('No fire times');
  await cron.fill('30 9 * * 1-5');
  await dialog.getByLabel('Time zone').fill('America/New_York');
  await expect(dialog.getByTestId('schedule-preview').getByRole('listitem')).toHaveCount(5);
  await expect(dialog.getByTestId('schedule-preview')).toContainText('09:30');
  await expect(cron).toHaveAccessibleDescription('At 09:30, Monday through Friday');
  await dialog.getByLabel('Schedule id').fill('standup');
  await dialog.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/standup`);
  await dialog.getByRole('button', { name: 'Create schedule' }).click();
  await expect(dialog).toHaveCount(0);
  const row = app.getByTestId('schedule-standup');
  await expect(row).toContainText('At 09:30, Monday through Friday, America/New_York');
  await expect(row).toContainText(`${sink.url}/standup`);
});

test('the schedule editor asks before Escape throws a filled form away; a clean form closes at once', async ({
  app,
  sink,
}) => {
  await go(app, '#/messages/schedules');
  const editor = app.getByRole('dialog', { name: 'New schedule' });
  const discard = app.getByRole('dialog', { name: 'Discard changes?' });
  const cron = editor.getByLabel('Cron (minute hour day month weekday)');
  const zone = editor.getByLabel('Time zone');
  const destination = editor.getByLabel('Destination URL', { exact: true });

  // Clean: Escape closes it at once, nothing asked.
  await app.getByRole('button', { name: 'New schedule' }).click();
  await expect(cron).toBeFocused();
  await app.keyboard.press('Escape');
  await expect(editor).toHaveCount(0);
  await expect(discard).toHaveCount(0);

  // Filled in: Escape asks, and Keep editing keeps every value.
  await app.getByRole('button', { name: 'New schedule' }).click();
  await cron.fill('0 9 * * MON');
  await zone.fill('Europe/Paris');
  await destination.fill(`${sink.url}/weekly`);
  await app.keyboard.press('Escape');
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(discard).toHaveCount(0);
  await expect(editor).toBeVisible();
  await expect(cron).toHaveValue('0 9 * * MON');
  await expect(zone).toHaveValue('Europe/Paris');
  await expect(destination).toHaveValue(`${sink.url}/weekly`);

  // Escape on the question is Keep editing too, and a second Escape straight after still asks (it never
  // closes the editor behind the question).
  await app.keyboard.press('Escape');
  await expect(discard).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(discard).toHaveCount(0);
  await expect(editor).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(discard).toBeVisible();
  await expect(editor).toBeVisible();

  // Discard closes the editor; opened again it starts blank.
  await discard.getByRole('button', { name: 'Discard' }).click();
  await expect(discard).toHaveCount(0);
  await expect(editor).toHaveCount(0);
  await app.getByRole('button', { name: 'New schedule' }).click();
  await expect(cron).toHaveValue('0 * * * *');
  await expect(destination).toHaveValue('');
});

test('with a search that matches no schedule, the bulk actions are off', async ({ app, sink, sdk }) => {
  const { scheduleId } = await sdk.schedules.create({ destination: `${sink.url}/hourly`, cron: '0 * * * *' });
  await go(app, '#/messages/schedules');
  await expect(app.getByTestId(`schedule-${scheduleId}`)).toBeVisible();
  const bulk = app.getByLabel('Act on many');

  await app.getByLabel('Search schedules').fill(scheduleId);
  await expect(bulk).toContainText(`Acts on schedules matching “${scheduleId}”`);
  for (const name of ['Pause shown…', 'Resume shown…', 'Delete shown…']) {
    await expect(bulk.getByRole('button', { name })).toBeEnabled();
  }

  await app.getByLabel('Search schedules').fill('nothing-matches-this');
  await expect(app.getByText('No schedule matches. 1 in all.')).toBeVisible();
  await expect(bulk).toContainText('No schedules matching “nothing-matches-this” to act on');
  for (const name of ['Pause shown…', 'Resume shown…', 'Delete shown…']) {
    await expect(bulk.getByRole('button', { name })).toBeDisabled();
  }
});
