// The local stack's own extension, under /local/ (never /v2/: nothing here exists in the cloud services): the
// stack clock. It is a peer of the message service (same port, same token, same group commits) and is
// composed in stack/stack.ts.
import type { Logger } from 'pino';
import type { AdvanceableClock } from '../clock';
import type { EnginePeer } from '../messages/service';
import type { ServiceContext } from '../messages/service-context';
import type { StackWriter } from '../writes';
import { clockRoutes } from './routes-clock';

export interface LocalContext {
  clock: AdvanceableClock;
  writer: StackWriter;
  logger: Logger;
  service: ServiceContext;
}

export function createLocalService(options: { clock: AdvanceableClock; logger: Logger }): EnginePeer {
  return {
    name: 'local',
    attach(service, router) {
      const local: LocalContext = {
        clock: options.clock,
        writer: service.writer as unknown as StackWriter,
        logger: options.logger,
        service,
      };
      clockRoutes(router, local);
    },
  };
}
