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
  await row.getByRole('button', { name: 'Resume' }).click();
  await expect(row).toContainText('Active');
  await expect.poll(async () => (await sdk.schedules.get(scheduleId)).isPaused).toBe(false);

  // Trigger now: one message with the schedule's id.
  await row.getByRole('button', { name: 'Trigger now' }).click();
  await confirm(app, `Publish ${scheduleId} now?`, 'Publish now');
  const [delivery] = await sink.waitFor('/nightly');
  expect(delivery?.headers['upstash-schedule-id']).toBe(scheduleId);
  const messageId = delivery?.headers['upstash-message-id'] as string;

  // Its messages in the Logs, and from the message back to its schedule.
  await row.getByRole('button', { name: 'Logs' }).click();
  await expect(app.getByRole('listitem', { name: `Message ${messageId}` })).toBeVisible({ timeout: 20_000 });
  await app.getByRole('listitem', { name: `Message ${messageId}` }).click();
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
