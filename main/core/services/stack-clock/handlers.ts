// The `stack.clock.*` procedures: the local stack's clock (read, advance) and run now, for the Local profile
// only (client.ts refuses any other).
import type { clockProcedures } from '../../../../shared/bridge/procedures/clock';
import type { Handlers } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { stackClockClient } from './client';

type Names = keyof typeof clockProcedures;

export function stackClockHandlers({ profiles }: HandlerDeps): Pick<Handlers, Names> {
  const client = (profileId: string) => stackClockClient(profiles, profileId);
  return {
    'stack.clock.get': ({ profileId }) => client(profileId).clock(),
    'stack.clock.advance': ({ profileId, by }) => client(profileId).advance(by),
    'stack.clock.due': ({ profileId, item }) => client(profileId).due(item),
    'stack.clock.runNow': ({ profileId, item }) => client(profileId).runNow(item),
  };
}
