import { describe, expect, it } from 'vitest';
import { emptyComposer } from '../composer/model';
import {
  buildScheduleRequest,
  cronHeaderOf,
  emptyScheduleForm,
  previewTicks,
  scheduleToForm,
  validateScheduleForm,
} from './schedule-form';
import type { Schedule } from './schedules';

const NOW = Date.UTC(2026, 0, 5, 12, 0, 30);

describe('the schedule form', () => {
  it('builds POST /v2/schedules/<destination> with the composer’s headers and the cron', () => {
    const form = emptyScheduleForm({
      cron: ' 17  3 * * * ',
      timezone: 'Europe/Berlin',
      scheduleId: 'nightly',
      message: emptyComposer({
        destinationKind: 'queue',
        queue: 'jobs',
        url: 'https://example.com/hook',
        body: '{"a":1}',
        retries: '2',
        delay: '30s',
        headers: [{ name: 'X-Key', value: 'v', enabled: true }],
      }),
    });
    const request = buildScheduleRequest(form, NOW);
    expect(request.path).toBe('/v2/schedules/https://example.com/hook');
    expect(request.body).toBe('{"a":1}');
    expect(request.headers).toEqual(
      expect.arrayContaining([
        ['Upstash-Cron', 'CRON_TZ=Europe/Berlin 17 3 * * *'],
        ['Upstash-Schedule-Id', 'nightly'],
        ['Upstash-Queue-Name', 'jobs'],
        ['Upstash-Retries', '2'],
        ['Upstash-Delay', '30s'],
        ['Upstash-Forward-X-Key', 'v'],
      ]),
    );
  });

  it('validates the cron, the zone, the id and the message as you type', () => {
    const bad = emptyScheduleForm({
      cron: '61 * * * *',
      scheduleId: 'a b',
      message: emptyComposer({ url: 'ftp://x', notBefore: 1 }),
    });
    const { errors } = validateScheduleForm(bad, NOW);
    expect(errors.cron).toContain('minute: 61');
    expect(errors.scheduleId).toContain("invalid schedule id 'a b'");
    expect(errors.url).toContain('http://');
    expect(errors.notBefore).toContain('delay');
    expect(validateScheduleForm(emptyScheduleForm({ timezone: 'Mars/Base' }), NOW).errors.timezone).toContain(
      "unknown time zone 'Mars/Base'",
    );
    expect(
      validateScheduleForm(emptyScheduleForm({ cron: 'CRON_TZ=UTC * * * * *' }), NOW).errors.cron,
    ).toContain('zone field');
    expect(() => buildScheduleRequest(bad, NOW)).toThrow(/cron/);
  });

  it('previews the next fire times in the chosen zone', () => {
    expect(previewTicks({ cron: '0 4 * * *', timezone: 'America/New_York' }, NOW, 2)).toEqual([
      Date.UTC(2026, 0, 6, 9),
      Date.UTC(2026, 0, 7, 9),
    ]);
    expect(previewTicks({ cron: 'nope', timezone: '' }, NOW)).toEqual([]);
    expect(cronHeaderOf({ cron: '* * * * *', timezone: '' })).toBe('* * * * *');
  });

  it('turns a schedule record back into the form, saying what the record cannot carry', () => {
    const schedule: Schedule = {
      scheduleId: 'nightly',
      cron: 'CRON_TZ=Europe/Berlin 17 3 * * *',
      createdAt: NOW,
      destination: 'my-group',
      method: 'PUT',
      header: { 'Content-Type': ['text/plain'], 'X-Key': ['v'] },
      body: 'hi',
      retries: 2,
      delay: 30,
      callback: 'https://example.com/cb',
      isPaused: false,
      queueName: 'jobs',
      labels: ['a', 'b'],
      flowControlKey: 'k',
      rate: 5,
      period: 60,
    };
    const { form, lost } = scheduleToForm(schedule);
    expect(form).toMatchObject({ scheduleId: 'nightly', cron: '17 3 * * *', timezone: 'Europe/Berlin' });
    expect(form.message).toMatchObject({
      destinationKind: 'queue',
      queue: 'jobs',
      queueTarget: 'group',
      group: 'my-group',
      method: 'PUT',
      contentType: 'text/plain',
      headers: [{ name: 'X-Key', value: 'v', enabled: true }],
      body: 'hi',
      retries: '2',
      delay: '30s',
      labels: 'a, b',
      flowControlKey: 'k',
      flowControlRate: '5',
      flowControlPeriod: '60s',
    });
    expect(form.message.callback.url).toBe('https://example.com/cb');
    expect(lost).toEqual([
      'whether it forwards the headers it was created with (Header-Forward)',
      'callback settings other than the URLs',
    ]);
    // Round trip: the same request as the record was made with.
    const request = buildScheduleRequest(form, NOW);
    expect(request.path).toBe('/v2/schedules/my-group');
    expect(request.headers).toEqual(
      expect.arrayContaining([['Upstash-Cron', 'CRON_TZ=Europe/Berlin 17 3 * * *']]),
    );
  });
});
