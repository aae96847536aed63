// The local stack's own extension, under /local/ (never /v2/: nothing here exists in the cloud services): the
// stack clock and "run now". It is a peer of the message service (same port, same token, same group commits)
// and is composed in stack/stack.ts with the time sources of the other services (time-sources.ts).
import type { Logger } from 'pino';
import type { DueItem } from '../../shared/local-stack/clock';
import type { AdvanceableClock } from '../clock';
import type { EnginePeer } from '../messages/service';
import type { ServiceContext } from '../messages/service-context';
import type { StackWriter } from '../writes';
import { clockRoutes } from './routes-clock';
import { runNowRoutes } from './routes-run-now';
import type { TimeSource, TimeSourceFactory } from './time-sources';

export interface LocalContext {
  clock: AdvanceableClock;
  writer: StackWriter;
  logger: Logger;
  sources: TimeSource[];
  /** What the clock fires next, over every source. */
  nextDue(): DueItem | undefined;
}

export interface LocalServiceOptions {
  clock: AdvanceableClock;
  logger: Logger;
  /** Every kind of item that waits for the clock (messages, workflow runs, schedules). */
  sources: TimeSourceFactory[];
}

export function createLocalService(options: LocalServiceOptions): EnginePeer {
  return {
    name: 'local',
    attach(service: ServiceContext, router) {
      const sources = options.sources.map((source) => source(service));
      const local: LocalContext = {
        clock: options.clock,
        writer: service.writer,
        logger: options.logger,
        sources,
        nextDue() {
          let first: DueItem | undefined;
          for (const source of sources) {
            const next = source.next();
            if (next && (!first || next.dueAt < first.dueAt)) first = next;
          }
          return first;
        },
      };
      clockRoutes(router, local);
      runNowRoutes(router, local);
    },
  };
}
