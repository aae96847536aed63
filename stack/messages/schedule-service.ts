// Schedules: a peer of the message service (stack/stack.ts lists it in `peers`). Its routes join the message
// port, its scheduler publishes through the same planning and engine as a publish, its table is a group of
// the stack's store, and its write operations join the same group commits (stack/writes.ts).
import type { Logger } from 'pino';
import { workPeer, type WorkPeer } from './service';
import { scheduleRoutes } from './schedule-routes';
import { Scheduler } from './schedule-scheduler';

export type ScheduleService = WorkPeer<Scheduler>;

export function createScheduleService(logger: Logger): ScheduleService {
  return workPeer('schedules', (context, router) => {
    const scheduler = new Scheduler(context, context.writer, logger);
    scheduleRoutes(router, context, context.writer, scheduler);
    return scheduler;
  });
}
