// The Schedules screen in both themes, with real schedules in the local stack (some run, one paused, one
// failing): the list, and the editor refusing a bad cron. No console errors. Pictures go to
// test-results/screenshots, or to docs/screenshots with SCREENSHOTS=1.
import { expect, go } from './fixtures';
import { saveScreenshot, themedConsoleTest } from './support/screenshots';

themedConsoleTest(
  'the schedules screen renders cleanly',
  { timeout: 120_000 },
  async ({ page, theme, errors, api, sink, shoot }) => {
    sink.respond((request) =>
      request.path.startsWith('/fail') ? { status: 503, body: 'down' } : { status: 200, body: 'ok' },
    );
    const create = async (destination: string, headers: Record<string, string>, body = '{"job":1}') => {
      const response = await api.request('POST', `/v2/schedules/${destination}`, body, headers);
      if (!response.ok) throw new Error(`create failed: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { scheduleId: string }).scheduleId;
    };
    await api.request('POST', '/v2/topics/reports/endpoints', {
      endpoints: [{ url: `${sink.url}/finance` }, { url: `${sink.url}/ops` }],
    });
    await create(`${sink.url}/cleanup`, {
      'Upstash-Cron': '*/15 * * * *',
      'Upstash-Schedule-Id': 'cleanup',
    });
    await create('reports', {
      'Upstash-Cron': 'CRON_TZ=Europe/Berlin 17 3 * * *',
      'Upstash-Schedule-Id': 'nightly-report',
      'Upstash-Label': 'reports',
    });
    await create(`${sink.url}/standup`, {
      'Upstash-Cron': 'CRON_TZ=America/New_York 30 9 * * 1-5',
      'Upstash-Schedule-Id': 'standup-reminder',
      'Upstash-Queue-Name': 'reminders',
    });
    await create(`${sink.url}/fail/sync`, {
      'Upstash-Cron': '0 * * * *',
      'Upstash-Schedule-Id': 'crm-sync',
      'Upstash-Retries': '0',
    });
    await create(`${sink.url}/invoices`, {
      'Upstash-Cron': '0 0 1 * *',
      'Upstash-Schedule-Id': 'monthly-invoices',
    });
    await api.request('PATCH', '/v2/schedules/monthly-invoices/pause');
    // Runs, as the stack's trigger makes them: delivered, failed, fanned out to a group.
    for (const id of ['cleanup', 'nightly-report', 'crm-sync'])
      await api.request('POST', `/local/schedules/${id}/trigger`);
    await sink.waitFor('/fail/sync');
    await sink.waitFor('/ops');

    await go(page, '#/messages/schedules');
    const table = page.getByRole('table', { name: 'Schedules' });
    await expect(table.getByRole('row')).toHaveCount(6);
    await expect(page.getByTestId('schedule-crm-sync')).toContainText('1 failed', { timeout: 20_000 });
    await expect(page.getByTestId('schedule-nightly-report')).toContainText('2 delivered', {
      timeout: 20_000,
    });
    await shoot('schedules');

    // Pause many: two selected rows, as a job (listed, confirmed, run, summarised).
    await page.getByRole('checkbox', { name: 'Select cleanup' }).check();
    await page.getByRole('checkbox', { name: 'Select crm-sync' }).check();
    await page.getByRole('button', { name: 'Pause selected…' }).click();
    const job = page.getByRole('dialog', { name: 'Pause selected schedules' });
    await expect(job.getByTestId('bulk-count')).toHaveText('2 schedules');
    await shoot('schedules-pause-many');
    await job.getByRole('button', { name: 'Pause 2 schedules' }).click();
    await expect(job.getByTestId('bulk-summary')).toContainText('2 of 2 paused');
    await saveScreenshot(page, 'schedules-pause-many-done', theme);
    await job.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('schedule-cleanup')).toContainText('Paused');
    await expect(page.getByTestId('schedule-crm-sync')).toContainText('Paused');

    await page.getByRole('button', { name: 'New schedule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    await dialog.getByLabel('Cron (minute hour day month weekday)').fill('61 9 * * 1-5');
    await dialog.getByLabel('Time zone').fill('Europe/Berlin');
    await dialog.getByLabel('Destination URL', { exact: true }).fill(`${sink.url}/digest`);
    await expect(dialog.getByRole('alert').first()).toContainText('Invalid value for minute: 61');
    await shoot('schedule-create-bad-cron');
    await dialog.getByLabel('Cron (minute hour day month weekday)').fill('0 9 * * 1-5');
    await expect(dialog.getByTestId('schedule-preview').getByRole('listitem')).toHaveCount(5);
    await saveScreenshot(page, 'schedule-create', theme);

    expect(errors).toEqual([]);
  },
);
