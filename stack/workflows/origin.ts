// Who or what started a run, read from its trigger's headers: the SDK and this console say who they are in
// `Upstash-Telemetry-Sdk`; a request to the workflow endpoint itself reaches the stack through the app's
// serve(), which forwards every header it got (so a schedule's or a message's delivery is recognised by the
// `Upstash-Schedule-Id` / `Upstash-Message-Id` it carried); an invoke carries its parent.
import type { RunHistoryEvent } from '../../shared/workflows/types';
import { collectHeaders, type HeaderInput } from '../messages/publish-request';

export type RunOrigin = Extract<RunHistoryEvent, { kind: 'triggered' }>;

/** This console's telemetry name (main's workflow client sends it); anything starting with it is the console. */
export const CONSOLE_AGENT = 'switchyard-console';

const one = (headers: HeaderInput, name: string): string | undefined =>
  headers.get(name)?.[0]?.trim() || undefined;

/** The client a request names in its telemetry header (the first of a comma-joined list). */
export function agentOf(headers: HeaderInput): string | undefined {
  return one(headers, 'upstash-telemetry-sdk')?.split(',')[0]?.trim() || undefined;
}

export function triggerOrigin(
  headers: HeaderInput,
  time: number,
  callerIp: string | undefined,
  invoked: boolean,
): RunOrigin {
  const agent = agentOf(headers);
  const origin: RunOrigin = { kind: 'triggered', time, source: 'api' };
  if (agent) origin.agent = agent;
  if (callerIp) origin.callerIp = callerIp;
  const scheduleId = one(headers, 'upstash-forward-upstash-schedule-id');
  const messageId = one(headers, 'upstash-forward-upstash-message-id');
  if (invoked) origin.source = 'invoke';
  else if (scheduleId) {
    origin.source = 'schedule';
    origin.scheduleId = scheduleId;
  } else if (messageId) {
    origin.source = 'message';
    origin.messageId = messageId;
  } else if (agent?.startsWith(CONSOLE_AGENT)) origin.source = 'console';
  // serve() forwards the headers of the request it got, `Host` among them: the run began at the endpoint.
  else if (headers.has('upstash-forward-host')) origin.source = 'endpoint';
  else if (agent) origin.source = 'sdk';
  return origin;
}

/** What of a request tells who sent it. */
type Caller = { req: { rawHeaders: string[] }; remoteAddress: string };

/** The client (its telemetry) and address of a request. */
function callerOf(ctx: Caller): { agent?: string; callerIp?: string } {
  const agent = agentOf(collectHeaders(ctx.req.rawHeaders));
  return { ...(agent ? { agent } : {}), ...(ctx.remoteAddress ? { callerIp: ctx.remoteAddress } : {}) };
}

/** Who cancelled a run: `run` for the one-run endpoint (context.cancel), `bulk` for the bulk cancel. */
export function canceledEvent(ctx: Caller, via: 'run' | 'bulk', time: number): RunHistoryEvent {
  return { kind: 'canceled', time, via, ...callerOf(ctx) };
}

/** The failed run a restart or resume from the DLQ starts a new run from (and its DLQ entry). */
export type DlqFrom = NonNullable<RunOrigin['restartedFrom']>;

/** A restart or resume from the DLQ: the request's client, and the failed run the new run comes from. */
export function dlqOrigin(ctx: Caller, time: number, action: 'restart' | 'resume', from: DlqFrom): RunOrigin {
  return {
    kind: 'triggered',
    time,
    source: action,
    ...callerOf(ctx),
    ...(action === 'restart' ? { restartedFrom: from } : { resumedFrom: from }),
  };
}
