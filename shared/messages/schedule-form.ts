// The schedule editor's model: a cron expression, its zone, an optional id, and the message it publishes as
// the composer's own model (shared/composer/model.ts) — so every publish option the composer has is a
// schedule option too, validated by the composer's rules. The request builder below is what main sends and
// the editor previews: `POST /v2/schedules/<destination>` with the composer's headers plus Upstash-Cron.
import { z } from 'zod';
import { HEADER } from '../headers';
import { composerSchema, emptyComposer, type ComposerModel, type HeaderRow } from '../composer/model';
import {
  type BuiltRequest,
  ComposerError,
  configHeaders,
  destinationOf,
  mergeHeaders,
} from '../composer/request';
import { validateComposer, type Validation } from '../composer/validate';
import { nextTicks, parseCron, type CronSpec } from './cron';
import { checkName } from './names';
import type { Schedule } from './schedules';

export const scheduleFormSchema = z.object({
  /** '' = the service generates one (a new schedule); set = create with this id, or update it in place. */
  scheduleId: z.string().max(200).default(''),
  /** The five fields, without a zone prefix. */
  cron: z.string().max(300).default('0 * * * *'),
  /** An IANA zone; '' = UTC. */
  timezone: z.string().max(100).default(''),
  message: composerSchema.default(() => composerSchema.parse({})),
});
export type ScheduleForm = z.output<typeof scheduleFormSchema>;

export function emptyScheduleForm(overrides: Partial<ScheduleForm> = {}): ScheduleForm {
  return { ...scheduleFormSchema.parse({}), ...overrides };
}

/** The `Upstash-Cron` value: `CRON_TZ=<zone> <fields>` in a zone, the fields alone in UTC. */
export function cronHeaderOf(form: Pick<ScheduleForm, 'cron' | 'timezone'>): string {
  const fields = form.cron.trim().split(/\s+/).join(' ');
  return form.timezone.trim() ? `CRON_TZ=${form.timezone.trim()} ${fields}` : fields;
}

/** The cron of a form as a spec (for previews), or the problem with it. */
export function cronOf(form: Pick<ScheduleForm, 'cron' | 'timezone'>): ReturnType<typeof parseCron> {
  if (/^\s*(CRON_TZ|TZ)=/.test(form.cron)) {
    return { ok: false, error: 'choose the zone in the zone field, not with CRON_TZ= in the expression' };
  }
  return parseCron(cronHeaderOf(form));
}

/** The next `count` fire times of a valid cron (empty for an invalid one). */
export function previewTicks(
  form: Pick<ScheduleForm, 'cron' | 'timezone'>,
  now: number,
  count = 5,
): number[] {
  const cron = cronOf(form);
  return cron.ok ? nextTicks(cron.value, now, count) : [];
}

/** The composer's checks for the message, plus the cron, the zone and the id; Not-Before does not apply. */
export function validateScheduleForm(form: ScheduleForm, now: number): Validation {
  const { errors, warnings } = validateComposer({ ...form.message, notBefore: null }, now);
  const cron = cronOf(form);
  if (!cron.ok) {
    if (/time zone/.test(cron.error)) errors.timezone = cron.error;
    else errors.cron = cron.error;
  }
  if (form.scheduleId.trim() !== '') {
    const problem = checkName('schedule id', form.scheduleId.trim());
    if (problem) errors.scheduleId = problem;
  }
  if (form.message.notBefore !== null) {
    errors.notBefore = 'a schedule’s messages are due at each tick: use a delay instead of an exact time';
  }
  return { errors, warnings };
}

/** `POST /v2/schedules/<destination>` for a valid form; throws ComposerError listing every problem. */
export function buildScheduleRequest(form: ScheduleForm, now: number): BuiltRequest {
  const { errors } = validateScheduleForm(form, now);
  if (Object.keys(errors).length > 0) throw new ComposerError(errors);
  const { message } = form;
  const headers = configHeaders({ ...message, notBefore: null });
  headers.push([HEADER.cron, cronHeaderOf(form)]);
  if (form.scheduleId.trim()) headers.push([HEADER.scheduleId, form.scheduleId.trim()]);
  if (message.destinationKind === 'queue') headers.push([HEADER.queueName, message.queue.trim()]);
  return {
    method: 'POST',
    path: `/v2/schedules/${destinationOf(message)}`,
    headers: mergeHeaders(headers),
    body: message.body,
  };
}

function seconds(value: number | undefined): string {
  return value === undefined ? '' : `${value}s`;
}

/**
 * A schedule as the editor's model, to edit it in place. The service's record has no callback settings
 * beyond the URLs, no Header-Forward flag and no redact fields: those come back empty (`lost` lists what the
 * editor should say it cannot show).
 */
export function scheduleToForm(schedule: Schedule): { form: ScheduleForm; lost: string[] } {
  const zone = /^(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(schedule.cron);
  const headerRows: HeaderRow[] = [];
  let contentType = '';
  for (const [name, values] of Object.entries(schedule.header ?? {})) {
    if (name.toLowerCase() === 'content-type') contentType = values[0] ?? '';
    else for (const value of values) headerRows.push({ name, value, enabled: true });
  }
  const isGroup = !/^https?:\/\//i.test(schedule.destination) && schedule.destination !== 'api/llm';
  const message: ComposerModel = emptyComposer({
    destinationKind:
      schedule.destination === 'api/llm'
        ? 'llm'
        : schedule.queueName !== undefined
          ? 'queue'
          : isGroup
            ? 'group'
            : 'url',
    url: isGroup ? '' : schedule.destination === 'api/llm' ? '' : schedule.destination,
    group: isGroup ? schedule.destination : '',
    queue: schedule.queueName ?? '',
    queueTarget: isGroup ? 'group' : 'url',
    method: (schedule.method as ComposerModel['method']) ?? 'POST',
    contentType,
    body: schedule.body ?? '',
    headers: headerRows,
    delay: seconds(schedule.delay),
    retries: String(schedule.retries),
    retryDelay: schedule.retryDelayExpression ?? '',
    timeout: seconds(schedule.timeout),
    labels: (schedule.labels ?? (schedule.label ? [schedule.label] : [])).join(', '),
    flowControlKey: schedule.flowControlKey ?? '',
    flowControlParallelism: schedule.parallelism !== undefined ? String(schedule.parallelism) : '',
    flowControlRate: schedule.rate !== undefined ? String(schedule.rate) : '',
    flowControlPeriod: seconds(schedule.period),
  });
  message.callback.url = schedule.callback ?? '';
  message.failureCallback.url = schedule.failureCallback ?? '';
  // The record never says whether the schedule was made with Header-Forward, so it is always named: saved
  // without it, headers that reached the destination unprefixed would stop arriving.
  const lost: string[] = ['whether it forwards the headers it was created with (Header-Forward)'];
  if (schedule.bodyBase64 !== undefined) lost.push('its binary body');
  if (schedule.callback !== undefined || schedule.failureCallback !== undefined)
    lost.push('callback settings other than the URLs');
  return {
    form: {
      scheduleId: schedule.scheduleId,
      cron: zone ? (zone[2] as string) : schedule.cron,
      timezone: zone ? (zone[1] as string) : '',
      message,
    },
    lost,
  };
}

/** The zone of a schedule's cron ('UTC' without a prefix). */
export function zoneOf(cron: string): string {
  return /^(?:CRON_TZ|TZ)=(\S+)\s/.exec(cron)?.[1] ?? 'UTC';
}

/** A schedule's cron without its zone prefix. */
export function fieldsOf(cron: string): string {
  return cron.replace(/^(?:CRON_TZ|TZ)=\S+\s+/, '');
}

export type { CronSpec };
