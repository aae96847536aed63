// What a schedule is made of, and what it becomes: the create request (`POST /v2/schedules/{destination}`)
// turned into a stored schedule, a stored schedule turned into the messages of one tick (through the same
// planning as a publish, so every publish header means the same here), and the record the API answers.
import { canonicalHeaderName, H, HOP_BY_HOP, SERVICE_PREFIX } from '../../shared/headers';
import { nextTick, parseCron } from '../../shared/messages/cron';
import { checkName } from '../../shared/messages/names';
import { SCHEDULE_ID_PREFIX, type Schedule } from '../../shared/messages/schedules';
import type { HeaderMap } from '../../shared/messages/types';
import type { ScheduleInput, ScheduleRecord } from '../store/schedules';
import { base58 } from './ids';
import {
  deliveredHeaders,
  parseConfig,
  parseDestination,
  type HeaderInput,
  type PlannedMessage,
  PublishError,
  setting,
} from './publish-request';
import { plan } from './routes-publish';
import type { ServiceContext } from './service-context';

export function newScheduleId(): string {
  return `${SCHEDULE_ID_PREFIX}${base58(28)}`;
}

// Headers of the create request that configure the schedule itself or the SDK's telemetry, not its messages.
const SCHEDULE_ONLY: ReadonlySet<string> = new Set([H.cron, H.scheduleId]);

/**
 * The headers a schedule keeps to publish with: configuration (`upstash-*`) and Content-Type; every other
 * header only when the request asked for Upstash-Header-Forward (never the one carrying the token).
 */
function keptHeaders(headers: HeaderInput, token: string | undefined): HeaderMap {
  const forwardAll = setting(headers, H.headerForward)?.toLowerCase() === 'true';
  const kept: HeaderMap = {};
  for (const [name, values] of headers) {
    if (SCHEDULE_ONLY.has(name) || name.startsWith(H.telemetryPrefix) || HOP_BY_HOP.has(name)) continue;
    if (name.startsWith(SERVICE_PREFIX) || name === 'content-type') kept[name] = values;
    else if (forwardAll) {
      if (name === 'authorization' && token !== undefined && values.some((v) => v.trim().endsWith(token)))
        continue;
      kept[name] = values;
    }
  }
  return kept;
}

export function headerInput(headers: HeaderMap): HeaderInput {
  return new Map(Object.entries(headers));
}

/**
 * Checks a create request and returns what to store. The messages of one tick are planned once here, so
 * that anything a publish would refuse (a bad header, an unknown URL group, a bad callback) is refused now,
 * with the publish's own words, rather than at every tick.
 */
export function parseScheduleRequest(
  service: ServiceContext,
  request: { destination: string; headers: HeaderInput; body: Buffer; callerIp?: string; token?: string },
): ScheduleInput {
  const cronText = setting(request.headers, H.cron);
  if (cronText === undefined) {
    throw new PublishError(
      400,
      'missing Upstash-Cron: a schedule needs a cron expression such as "*/5 * * * *" (optionally prefixed with CRON_TZ=<zone>)',
    );
  }
  const cron = parseCron(cronText);
  if (!cron.ok) throw new PublishError(400, `invalid Upstash-Cron: ${cron.error}`);
  const givenId = setting(request.headers, H.scheduleId);
  if (givenId !== undefined) {
    const problem = checkName('schedule id', givenId);
    if (problem) throw new PublishError(400, `invalid Upstash-Schedule-Id: ${problem}`);
  }
  if (setting(request.headers, H.notBefore) !== undefined) {
    throw new PublishError(
      400,
      'Upstash-Not-Before does not apply to a schedule: each message is due at its tick (use Upstash-Delay to publish later than the tick)',
    );
  }
  const destination = parseDestination(request.destination);
  const input: ScheduleInput = {
    id: givenId ?? newScheduleId(),
    cron: cron.value.text,
    destination:
      destination.kind === 'llm'
        ? 'api/llm'
        : destination.kind === 'url'
          ? destination.url
          : destination.name,
    headers: keptHeaders(request.headers, request.token),
    body: request.body,
  };
  if (request.callerIp) input.callerIp = request.callerIp;
  const now = service.clock.now();
  planTick(service, { ...input, createdAt: now, updatedAt: now, paused: false });
  if (nextTick(cron.value, now) === undefined) {
    throw new PublishError(400, `invalid Upstash-Cron: '${cronText}' never fires again`);
  }
  return input;
}

/**
 * The messages one tick of `schedule` publishes at `at` (default now): one per endpoint for a URL group, due
 * at `at` + Delay.
 */
export function planTick(
  service: ServiceContext,
  schedule: ScheduleRecord,
  at = service.clock.now(),
): PlannedMessage[] {
  const headers = headerInput(schedule.headers);
  const planned = plan(service, parseDestination(schedule.destination), headers, schedule.body, {
    callerIp: schedule.callerIp,
    queueName: setting(headers, H.queueName),
    now: at,
  });
  for (const item of planned) item.spec.scheduleId = schedule.id;
  return planned;
}

function isUtf8(body: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
}

/** The record `GET /v2/schedules[/{id}]` answers, in the fields @upstash/qstash's `Schedule` declares. */
export function scheduleView(schedule: ScheduleRecord): Schedule {
  const headers = headerInput(schedule.headers);
  // Stored headers were checked when the schedule was created; the clock value only matters for Not-Before,
  // which a schedule never has.
  const config = parseConfig(headers, schedule.createdAt);
  const view: Schedule = {
    scheduleId: schedule.id,
    cron: schedule.cron,
    createdAt: schedule.createdAt,
    destination: schedule.destination,
    method: config.method ?? 'POST',
    retries: config.retries ?? 3,
    isPaused: schedule.paused,
  };
  const header = deliveredHeaders(headers, config, undefined);
  if (Object.keys(header).length > 0) {
    view.header = Object.fromEntries(
      Object.entries(header).map(([name, values]) => [canonicalHeaderName(name), values]),
    );
  }
  if (schedule.body.length > 0) {
    if (isUtf8(schedule.body)) view.body = schedule.body.toString('utf8');
    else view.bodyBase64 = schedule.body.toString('base64');
  }
  if (config.delayMs !== undefined) view.delay = Math.round(config.delayMs / 1_000);
  if (config.timeoutMs !== undefined) view.timeout = Math.round(config.timeoutMs / 1_000);
  if (config.callback !== undefined) view.callback = config.callback;
  if (config.failureCallback !== undefined) view.failureCallback = config.failureCallback;
  const queueName = setting(headers, H.queueName);
  if (queueName !== undefined) view.queueName = queueName;
  if (config.flowControl) {
    view.flowControlKey = config.flowControl.key;
    if (config.flowControl.parallelism !== undefined) view.parallelism = config.flowControl.parallelism;
    if (config.flowControl.rate !== undefined) view.rate = config.flowControl.rate;
    view.period = config.flowControl.period;
  }
  if (config.retryDelay !== undefined) view.retryDelayExpression = config.retryDelay;
  if (config.labels && config.labels.length > 0) {
    view.label = config.labels[0];
    view.labels = config.labels;
  }
  if (schedule.lastTick !== undefined) view.lastScheduleTime = schedule.lastTick;
  if (schedule.nextTick !== undefined && !schedule.paused) view.nextScheduleTime = schedule.nextTick;
  if (schedule.lastStates) view.lastScheduleStates = schedule.lastStates;
  if (schedule.callerIp !== undefined) {
    view.callerIp = schedule.callerIp;
    view.callerIP = schedule.callerIp;
  }
  if (schedule.error !== undefined) view.error = schedule.error;
  return view;
}
