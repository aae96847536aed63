// Wire types of schedules (`/v2/schedules`): a recurring publish, fired at each tick of its cron expression
// (shared/messages/cron.ts). The record is the one @upstash/qstash 2.12 declares (`Schedule`), plus the
// fields the service sends that the SDK's type leaves out (`callerIP`, `timeout`, `error`).
import type { HeaderMap } from './types';

/** The state of a message a schedule's last tick published. */
export type ScheduleRunState = 'IN_PROGRESS' | 'SUCCESS' | 'FAIL';

export interface Schedule {
  scheduleId: string;
  /** As given, whitespace collapsed; a `CRON_TZ=<zone> ` prefix when the schedule runs in a zone. */
  cron: string;
  createdAt: number;
  /** A URL or a URL group name. */
  destination: string;
  method: string;
  /** Headers delivered with every message (forwarded headers and Content-Type). */
  header?: HeaderMap;
  /** The message body when it is UTF-8 text; `bodyBase64` otherwise. */
  body?: string;
  bodyBase64?: string;
  retries: number;
  /** Seconds each message waits after its tick. */
  delay?: number;
  /** Seconds; the delivery timeout. */
  timeout?: number;
  callback?: string;
  failureCallback?: string;
  isPaused: boolean;
  queueName?: string;
  flowControlKey?: string;
  parallelism?: number;
  rate?: number;
  /** Seconds. */
  period?: number;
  retryDelayExpression?: string;
  /** The first label (deprecated in the SDK); `labels` has all of them. */
  label?: string;
  labels?: string[];
  /** When the last tick fired (unix ms). */
  lastScheduleTime?: number;
  /** When the next tick fires (unix ms); absent while paused. */
  nextScheduleTime?: number;
  /** The messages of the last tick and how each is doing. */
  lastScheduleStates?: Record<string, ScheduleRunState>;
  /** The SDK's spelling; the service's records also say `callerIP`. */
  callerIp?: string;
  callerIP?: string;
  /** Why the last tick published nothing (e.g. its URL group was deleted). */
  error?: string;
}

/** `POST /v2/schedules/{destination}` answers the id of the created (or updated) schedule. */
export interface ScheduleCreated {
  scheduleId: string;
}

/** Local stack extension: `POST /local/schedules/{id}/trigger` publishes one message now. */
export interface ScheduleTriggered {
  messageIds: string[];
}

/** A generated schedule id looks like the real service's: `scd_` + 28 base58 characters. */
export const SCHEDULE_ID_PREFIX = 'scd_';
