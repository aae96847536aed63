// Create a schedule or edit one in place: the cron with its zone (validated as you type, in words, with the
// next fire times in that zone), an optional id, and the message — the composer's own form, so every
// publish option the composer has is here too.
import { useMemo, useState } from 'react';
import { emptyComposer } from '../../../../../shared/composer/model';
import { cronInWords } from '../../../../../shared/messages/cron-words';
import {
  cronHeaderOf,
  emptyScheduleForm,
  previewTicks,
  scheduleToForm,
  validateScheduleForm,
  type ScheduleForm,
} from '../../../../../shared/messages/schedule-form';
import type { Schedule } from '../../../../../shared/messages/schedules';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeMutation } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { Field, TextField } from '../../../ui/fields';
import { FormDialog } from '../../../ui/FormDialog';
import { Callout } from '../../../ui/misc';
import { toast } from '../../../ui/toast';
import { ComposerForm } from '../composer/ComposerForm';
import { useNow } from '../../../ui/use-now';
import { formatInZone } from './schedule-list';
import { formatTime } from '../../../ui/format';

const PRESETS: { label: string; cron: string }[] = [
  { label: 'Every minute', cron: '* * * * *' },
  { label: 'Every 15 min', cron: '*/15 * * * *' },
  { label: 'Hourly', cron: '0 * * * *' },
  { label: 'Daily 03:00', cron: '0 3 * * *' },
  { label: 'Weekdays 09:00', cron: '0 9 * * 1-5' },
  { label: 'Monthly', cron: '0 0 1 * *' },
];

function zones(): string[] {
  try {
    return ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];
  } catch {
    return ['UTC'];
  }
}

export function ScheduleDialog({
  profile,
  schedule,
  onClose,
}: {
  profile: ProfileView;
  /** Edit this schedule in place; a new one otherwise. */
  schedule?: Schedule;
  onClose: () => void;
}) {
  const initial = useMemo(
    () =>
      schedule
        ? scheduleToForm(schedule)
        : {
            form: emptyScheduleForm({ message: emptyComposer({ contentType: 'application/json' }) }),
            lost: [],
          },
    [schedule],
  );
  const [form, setForm] = useState<ScheduleForm>(initial.form);
  // Edits copy the form with its keys in place, so the same values serialize the same: typing something
  // and taking it back again leaves the form clean.
  const dirty = useMemo(() => JSON.stringify(form) !== JSON.stringify(initial.form), [form, initial.form]);
  const [showAll, setShowAll] = useState(false);
  const now = useNow(30_000);
  const validation = useMemo(() => validateScheduleForm(form, now), [form, now]);
  const ticks = useMemo(() => previewTicks(form, now, 5), [form, now]);
  const zoneList = useMemo(() => zones(), []);
  const save = useBridgeMutation('messages.schedules.save', {
    onSuccess: (saved) => {
      toast.success(schedule ? `Updated ${saved.scheduleId}` : `Created ${saved.scheduleId}`);
      onClose();
    },
  });
  const set = (patch: Partial<ScheduleForm>) => setForm((current) => ({ ...current, ...patch }));
  const zone = form.timezone.trim() || 'UTC';
  const words = validation.errors.cron ? undefined : cronInWords(form.cron);
  const hasErrors = Object.keys(validation.errors).length > 0;
  const submit = () => {
    setShowAll(true);
    if (!hasErrors) save.mutate({ profileId: profile.id, form });
  };
  return (
    <FormDialog
      onClose={onClose}
      title={schedule ? `Edit schedule ${schedule.scheduleId}` : 'New schedule'}
      submitLabel={schedule ? 'Save schedule' : 'Create schedule'}
      disabled={profile.readOnly || (showAll && hasErrors)}
      busy={save.isPending}
      dirty={dirty}
      onSubmit={submit}
      className="dialog-wide schedule-dialog"
      note={
        <span className="muted dialog-footer-note mono" title="Upstash-Cron">
          {cronHeaderOf(form)}
        </span>
      }
    >
      <section className="schedule-when" aria-label="When">
        <div className="form-grid">
          <TextField
            label="Cron (minute hour day month weekday)"
            mono
            autoFocus
            value={form.cron}
            spellCheck={false}
            error={validation.errors.cron}
            hint={words ?? 'Five fields, e.g. */5 * * * * or 0 9 * * 1-5'}
            onChange={(event) => set({ cron: event.target.value })}
          />
          <Field
            label="Time zone"
            error={validation.errors.timezone}
            hint="The cron runs in this zone (DST included)."
          >
            {({ control }) => (
              <>
                <input
                  {...control}
                  className="input"
                  list="schedule-zones"
                  placeholder="UTC"
                  value={form.timezone}
                  onChange={(event) => set({ timezone: event.target.value })}
                />
                <datalist id="schedule-zones">
                  {zoneList.map((name) => (
                    <option key={name} value={name} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        </div>
        <div className="row row-wrap schedule-presets" role="group" aria-label="Presets">
          {PRESETS.map((preset) => (
            <Button key={preset.cron} size="sm" variant="ghost" onClick={() => set({ cron: preset.cron })}>
              {preset.label}
            </Button>
          ))}
        </div>
        <div className="schedule-preview" data-testid="schedule-preview" aria-live="polite">
          {ticks.length > 0 ? (
            <>
              <span className="muted">Next fire times ({zone}):</span>
              <ol>
                {ticks.map((tick) => (
                  <li key={tick} title={`${formatTime(tick)} your time`}>
                    {formatInZone(tick, zone)}
                  </li>
                ))}
              </ol>
            </>
          ) : (
            <span className="muted">No fire times until the cron and zone are valid.</span>
          )}
        </div>
        <TextField
          label="Schedule id"
          mono
          value={form.scheduleId}
          disabled={Boolean(schedule)}
          placeholder="generated (scd_…)"
          error={validation.errors.scheduleId}
          hint={
            schedule
              ? 'Saving updates this schedule in place.'
              : 'Optional. An existing id updates that schedule in place (Upstash-Schedule-Id).'
          }
          onChange={(event) => set({ scheduleId: event.target.value })}
        />
      </section>
      {initial.lost.length > 0 ? (
        <Callout tone="info" title="Not shown by the service">
          The service’s record of a schedule does not include {initial.lost.join(' or ')}: set them again
          here, or they are cleared when you save.
        </Callout>
      ) : null}
      {schedule ? (
        // Neither can the record say whether the schedule redacts what its messages log, and this form has no
        // redaction setting: saving would quietly start logging bodies and headers in clear.
        <Callout tone="warning" title="Redaction is not kept">
          If this schedule was created with Upstash-Redact-Fields (the SDK’s <code>redact</code>), saving here
          drops it, and its messages’ bodies and headers show in the logs again. Change such a schedule with
          the SDK instead.
        </Callout>
      ) : null}
      <ComposerForm
        model={form.message}
        onChange={(message) => set({ message })}
        validation={validation}
        showAll={showAll}
        profileId={profile.id}
        variant="schedule"
      />
      <ErrorCallout error={save.error} title="The service refused the schedule." />
    </FormDialog>
  );
}
