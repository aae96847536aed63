// The schedules API as @upstash/qstash 2.12 calls it: `POST /v2/schedules/{destination}` (create, or update in
// place with Upstash-Schedule-Id), `GET /v2/schedules`, `GET|DELETE /v2/schedules/{id}`, and
// `…/{id}/pause|resume` (the vendor's API reference says POST, the SDK sends PATCH: both are accepted).
// Beyond the vendor: `POST /local/schedules/{id}/trigger` publishes one message from the schedule now.
import type { ScheduleCreated, ScheduleTriggered } from '../../shared/messages/schedules';
import { nextTick, storedCronSpec } from '../../shared/messages/cron';
import { HttpError, type Reply, type RequestContext, type Router } from '../http/server';
import { scheduleStoreOf } from '../store/schedules';
import { collectHeaders, destinationQuery, PublishError } from './publish-request';
import { parseScheduleRequest, scheduleView } from './schedule-request';
import type { Scheduler } from './schedule-scheduler';
import type { ScheduleWrite, ScheduleWrites, ScheduleWriter } from './schedule-write-ops';
import type { WriteResult } from '../store/writer';
import type { ServiceContext } from './service-context';

const OK: Reply = { status: 200, raw: '' };

function notFound(id: string): HttpError {
  return new HttpError(404, `schedule '${id}' not found`);
}

function asHttpError(error: unknown): unknown {
  return error instanceof PublishError ? new HttpError(error.status, error.message) : error;
}

export function scheduleRoutes(
  router: Router,
  service: ServiceContext,
  writer: ScheduleWriter,
  scheduler: Scheduler,
): void {
  const table = scheduleStoreOf(service.store);

  /**
   * Commits a change to one schedule (update, pause, delete). A tick of the schedule that was committed ahead
   * and is not due yet is taken back in the same transaction, first: the change leaves it out.
   */
  const commitChange = async <C extends ScheduleWrite>(
    id: string,
    change: C,
  ): Promise<WriteResult<ScheduleWrites, C>> => {
    const withdrawal = await scheduler.withdrawal(id);
    const results = await writer.commitAll(withdrawal ? [withdrawal, change] : [change]);
    return results[results.length - 1] as WriteResult<ScheduleWrites, C>;
  };

  router.add('GET', '/v2/schedules', () => ({ status: 200, body: table.list().map(scheduleView) }));

  router.add('GET', '/v2/schedules/:id', (ctx) => {
    const schedule = table.get(ctx.params.id as string);
    if (!schedule) throw notFound(ctx.params.id as string);
    return { status: 200, body: scheduleView(schedule) };
  });

  router.add('DELETE', '/v2/schedules/:id', async (ctx) => {
    const id = ctx.params.id as string;
    if (!(await commitChange(id, ['deleteSchedule', id]))) throw notFound(id);
    scheduler.remove(id);
    return OK;
  });

  const setPaused = async (ctx: RequestContext, pause: boolean): Promise<Reply> => {
    const id = ctx.params.id as string;
    const current = table.get(id);
    if (!current) throw notFound(id);
    const now = service.clock.now();
    // Resuming waits for the first tick after now: the ticks missed while paused never fire.
    const next = pause ? null : (nextTick(storedCronSpec(current.cron), now) ?? null);
    const updated = await commitChange(id, ['setSchedulePaused', id, next, now]);
    if (!updated) throw notFound(id);
    scheduler.apply(updated);
    return OK;
  };
  for (const method of ['PATCH', 'POST']) {
    router.add(method, '/v2/schedules/:id/pause', (ctx) => setPaused(ctx, true));
    router.add(method, '/v2/schedules/:id/resume', (ctx) => setPaused(ctx, false));
  }

  router.add('POST', '/v2/schedules/*', async (ctx) => {
    // The destination is raw in the path, as for a publish (a URL keeps its own query string).
    const query = destinationQuery(ctx.rawQuery);
    const destination = ctx.rest + (query && /^[a-z][a-z0-9+.-]*(:|%3a)/i.test(ctx.rest) ? `?${query}` : '');
    let input;
    try {
      input = parseScheduleRequest(service, {
        destination,
        headers: collectHeaders(ctx.req.rawHeaders, ctx.query),
        body: await ctx.body(),
        callerIp: ctx.remoteAddress,
        token: ctx.token,
      });
    } catch (error) {
      throw asHttpError(error);
    }
    const stored = await commitChange(input.id, ['upsertSchedule', input, service.clock.now()]);
    scheduler.apply(stored);
    const body: ScheduleCreated = { scheduleId: stored.id };
    return { status: 200, body };
  });

  router.add('POST', '/local/schedules/:id/trigger', async (ctx) => {
    const id = ctx.params.id as string;
    let messageIds: string[] | undefined;
    try {
      messageIds = await scheduler.trigger(id);
    } catch (error) {
      throw asHttpError(error);
    }
    if (!messageIds) throw notFound(id);
    const body: ScheduleTriggered = { messageIds };
    return { status: 200, body };
  });
}
