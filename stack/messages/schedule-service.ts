// Schedules: a peer of the message service (stack/stack.ts lists it in `peers`). Its routes join the message
// port, its scheduler publishes through the same planning and engine as a publish, its table is a group of
// the stack's store, and its write operations join the same group commits (stack/writes.ts).
import type { Logger } from 'pino';
import type { EnginePeer } from './service';
import { scheduleRoutes } from './schedule-routes';
import { Scheduler } from './schedule-scheduler';

export interface ScheduleService extends EnginePeer {
  /** The scheduler, once the message service has attached this peer. */
  scheduler(): Scheduler | undefined;
}

export function createScheduleService(logger: Logger): ScheduleService {
  let scheduler: Scheduler | undefined;
  return {
    name: 'schedules',
    attach(context, router) {
      const { writer } = context;
      const started = new Scheduler(context, writer, logger);
      scheduler = started;
      scheduleRoutes(router, context, writer, started);
      started.start();
      return started.hooks();
    },
    async close() {
      scheduler?.stop();
    },
    scheduler: () => scheduler,
  };
}
