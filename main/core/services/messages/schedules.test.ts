import { describe, expect, it } from 'vitest';
import { emptyComposer } from '../../../../shared/composer/model';
import { emptyScheduleForm } from '../../../../shared/messages/schedule-form';
import type { Schedule } from '../../../../shared/messages/schedules';
import { eventually, useStackWithDestination } from '../test-stack/real-stack';
import { profileCaller, routerWith } from '../test-stack/router';
import { runJob, testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { scheduleHandlers } from './schedules';

describe('schedule handlers against the local stack', () => {
  const env = useStackWithDestination();
  const jobs = testJobRunner(useSuiteTempDir());

  const router = (readOnly = new Set<string>()) =>
    routerWith(
      scheduleHandlers({
        profiles: env.profiles,
        jobs,
      }),
      readOnly,
    );
  const call = profileCaller(() => router());

  it('lists a schedule the SDK made, and the SDK sees a pause made here', async () => {
    const { scheduleId } = await env.sdk.schedules.create({
      destination: `${env.sink.url}/sdk`,
      cron: 'CRON_TZ=Europe/Berlin 17 3 * * *',
      body: 'from the sdk',
    });
    const listed = await call<Schedule[]>('messages.schedules.list', {});
    expect(listed.find((s) => s.scheduleId === scheduleId)).toMatchObject({
      cron: 'CRON_TZ=Europe/Berlin 17 3 * * *',
      body: 'from the sdk',
      isPaused: false,
    });
    const paused = await call<Schedule>('messages.schedules.setPaused', { scheduleId, paused: true });
    expect(paused.isPaused).toBe(true);
    expect((await env.sdk.schedules.get(scheduleId)).isPaused).toBe(true);
    await call('messages.schedules.setPaused', { scheduleId, paused: false });
    expect((await env.sdk.schedules.get(scheduleId)).isPaused).toBe(false);
    expect(await call('messages.schedules.delete', { scheduleId })).toEqual({ deleted: scheduleId });
    await expect(env.sdk.schedules.get(scheduleId)).rejects.toThrow('not found');
  });

  it('saves the editor’s form (create, then update in place) and refuses a bad one field by field', async () => {
    const form = emptyScheduleForm({
      scheduleId: 'nightly-report',
      cron: '0 4 * * *',
      timezone: 'America/New_York',
      message: emptyComposer({ url: `${env.sink.url}/report`, retries: '1', labels: 'reports' }),
    });
    const created = await call<Schedule>('messages.schedules.save', { form });
    expect(created).toMatchObject({
      scheduleId: 'nightly-report',
      cron: 'CRON_TZ=America/New_York 0 4 * * *',
      retries: 1,
      labels: ['reports'],
    });
    const updated = await call<Schedule>('messages.schedules.save', {
      form: { ...form, cron: '30 5 * * 1-5' },
    });
    expect(updated).toMatchObject({ scheduleId: 'nightly-report', createdAt: created.createdAt });
    expect(updated.cron).toBe('CRON_TZ=America/New_York 30 5 * * 1-5');

    const bad = await router().call('messages.schedules.save', {
      profileId: 'p',
      form: { ...form, cron: '61 * * * *', timezone: 'Mars/Base' },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('INVALID_INPUT');
      expect(bad.error.fields?.timezone).toContain("unknown time zone 'Mars/Base'");
    }
    const refused = await router(new Set(['ro'])).call('messages.schedules.save', { profileId: 'ro', form });
    expect(refused.ok).toBe(false);
    await call('messages.schedules.delete', { scheduleId: 'nightly-report' });
  });

  it('triggers now: through the local stack’s trigger on the Local profile, as a publish elsewhere', async () => {
    const { scheduleId } = await env.sdk.schedules.create({
      destination: `${env.sink.url}/now`,
      cron: '0 0 1 1 *',
      body: 'now',
      retries: 0,
    });
    const local = await call<{ messageIds: string[]; via: string }>(
      'messages.schedules.trigger',
      { scheduleId },
      'local',
    );
    expect(local.via).toBe('local');
    const viaPublish = await call<{ messageIds: string[]; via: string }>('messages.schedules.trigger', {
      scheduleId,
    });
    expect(viaPublish.via).toBe('publish');
    const arrived = await eventually(async () => {
      const now = env.sink.received.filter((r) => r.url === '/now');
      return now.length === 2 ? now : undefined;
    });
    const tagged = arrived.map((r) => r.headers['upstash-schedule-id']);
    expect(tagged.sort()).toEqual([scheduleId, undefined].sort());
    expect(arrived.every((r) => r.body === 'now')).toBe(true);
    expect((await env.sdk.schedules.get(scheduleId)).lastScheduleStates).toHaveProperty(
      local.messageIds[0] as string,
    );
  });

  it('pauses, resumes and deletes many as a job: the selected ones, or the ones a filter matches', async () => {
    const ids: string[] = [];
    for (const [i, cron] of ['0 1 * * *', '0 2 * * *', '0 3 * * *', '*/5 * * * *'].entries()) {
      const { scheduleId } = await env.sdk.schedules.create({
        scheduleId: `many-${i}`,
        destination: `${env.sink.url}/many`,
        cron,
        label: i < 3 ? 'nightly' : 'often',
      });
      ids.push(scheduleId);
    }
    const paused = await runJob(router(), 'messages.schedules.job', {
      profileId: 'p',
      action: 'pause',
      target: { filters: { search: 'nightly' } },
    });
    expect(paused.found).toBe(3);
    expect(paused.summary).toMatchObject({ succeeded: 3, failed: 0 });
    const states = await Promise.all(ids.map(async (id) => (await env.sdk.schedules.get(id)).isPaused));
    expect(states).toEqual([true, true, true, false]);

    const resumed = await runJob(router(), 'messages.schedules.job', {
      profileId: 'p',
      action: 'resume',
      target: { filters: { state: 'paused' } },
    });
    expect(resumed.summary).toMatchObject({ succeeded: 3 });
    expect((await env.sdk.schedules.get('many-0')).isPaused).toBe(false);

    await env.sdk.schedules.delete('many-1');
    const deleted = await runJob(router(), 'messages.schedules.job', {
      profileId: 'p',
      action: 'delete',
      target: { ids: ['many-0', 'many-1', 'many-3'] },
    });
    expect(deleted.summary).toMatchObject({ succeeded: 2, skipped: 1, failed: 0 });
    expect(
      (await env.sdk.schedules.list()).map((s) => s.scheduleId).filter((id) => id.startsWith('many-')),
    ).toEqual(['many-2']);
    await expect(
      runJob(router(), 'messages.schedules.job', {
        profileId: 'p',
        action: 'delete',
        target: { filters: {} },
      }),
    ).rejects.toThrow('empty filter');
  });
});
