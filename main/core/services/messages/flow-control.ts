// Flow-control keys: the list with the global numbers, one key, its history and holds (local stack), and
// the changes — pause/resume, pin, unpin, resetRate — and the job that pauses, resumes or resets many keys
// (flow-control-job.ts). The service answers nothing to a change; the handlers read the key back so the UI
// shows what the service now holds.
import type { flowControlProcedures } from '../../../../shared/bridge/procedures/messages/flow-control';
import type { Handlers } from '../../bridge/router';
import type { JobHandlerDeps } from '../handler-deps';
import { clientsFor } from './client';
import { FlowControlClient } from './flow-control-client';
import { flowKeyJobPlan } from './flow-control-job';

type Names = keyof typeof flowControlProcedures;

export function flowControlHandlers({ profiles, jobs }: JobHandlerDeps): Pick<Handlers, Names> {
  const messages = clientsFor(profiles);
  const client = (profileId: string) => new FlowControlClient(messages(profileId).api);
  /** Runs a change, then answers the key as the service now has it. */
  const change = async (profileId: string, key: string, run: (flows: FlowControlClient) => Promise<void>) => {
    const flows = client(profileId);
    await run(flows);
    return flows.get(key);
  };
  return {
    'messages.flowControl.list': ({ profileId, search }) => client(profileId).overview(search),
    'messages.flowControl.get': ({ profileId, key }) => client(profileId).get(key),
    'messages.flowControl.history': ({ profileId, key }) => client(profileId).history(key),
    'messages.flowControl.hold': ({ profileId, key, messageId }) => client(profileId).hold(key, messageId),
    'messages.flowControl.setPaused': ({ profileId, key, paused }) =>
      change(profileId, key, (flows) => flows.setPaused(key, paused)),
    'messages.flowControl.pin': ({ profileId, key, parallelism, rate, period }) =>
      change(profileId, key, (flows) => flows.pin(key, { parallelism, rate, period })),
    'messages.flowControl.unpin': ({ profileId, key, parallelism, rate }) =>
      change(profileId, key, (flows) => flows.unpin(key, { parallelism, rate })),
    'messages.flowControl.resetRate': ({ profileId, key }) =>
      change(profileId, key, (flows) => flows.resetRate(key)),
    'messages.flowControl.job': jobs.handler('messages.flowControl.job', flowKeyJobPlan(client)),
  };
}
