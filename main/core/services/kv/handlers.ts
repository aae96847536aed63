// Every `kv.*` handler except the live monitor and pub/sub: the workbench, the key browser and its
// delete-by-pattern job (run by the one job runner).
import { join } from 'node:path';
import type { Handlers } from '../../bridge/router';
import type { JobHandlerDeps, StoringHandlerDeps } from '../handler-deps';
import { KvClient } from './client';
import { kvDeleteJobPlan } from './delete-job';
import { KvHistoryStore } from './history-store';
import { kvKeyHandlers } from './key-browser';
import { kvWorkbenchHandlers } from './workbench';

export function kvHandlers({ profiles, dataDir, logError, warn, jobs }: StoringHandlerDeps & JobHandlerDeps) {
  const history = new KvHistoryStore(join(dataDir, 'kv-history.json'), Date.now, warn);
  return {
    ...kvWorkbenchHandlers({ profiles, history }),
    ...kvKeyHandlers({ profiles, logError }),
    'kv.keys.job': jobs.handler(
      'kv.keys.job',
      kvDeleteJobPlan((profileId) => new KvClient(profiles.resolve(profileId))),
    ),
  } satisfies Partial<Handlers>;
}
