// Every `kv.*` handler, composed here and nowhere else: the workbench (workbench.ts, with its history in
// history-store.ts), the key browser (key-browser.ts) and its delete-by-pattern job (delete-job.ts, run by
// the one job runner), the live monitor (monitor.ts) and pub/sub (pubsub.ts), and the Search tab (search.ts,
// its recent indexes in search-store.ts). console-core.ts spreads this into its handler table.
import { join } from 'node:path';
import type { Handlers } from '../../bridge/router';
import type { FileSaver } from '../../saving/file-saver';
import type { JobHandlerDeps, StoringHandlerDeps } from '../handler-deps';
import { KvClient } from './client';
import { kvDeleteJobPlan } from './delete-job';
import { KvHistoryStore } from './history-store';
import { kvKeyHandlers } from './key-browser';
import { monitorHandlers } from './monitor';
import { pubsubHandlers } from './pubsub';
import { kvSearchHandlers } from './search';
import { KvSearchStore } from './search-store';
import { kvWorkbenchHandlers } from './workbench';

export function kvHandlers({
  profiles,
  dataDir,
  logError,
  warn,
  jobs,
  saver,
}: StoringHandlerDeps &
  JobHandlerDeps & {
    /** Where the monitor's and the Search tab's exports go (the front door decides; the page never names the place). */
    saver: FileSaver;
  }) {
  const history = new KvHistoryStore(join(dataDir, 'kv-history.json'), Date.now, warn);
  return {
    ...kvWorkbenchHandlers({ profiles, history }),
    ...kvKeyHandlers({ profiles, logError }),
    'kv.keys.job': jobs.handler(
      'kv.keys.job',
      kvDeleteJobPlan((profileId) => new KvClient(profiles.resolve(profileId))),
    ),
    ...monitorHandlers({ profiles, saver }),
    ...pubsubHandlers({ profiles }),
    ...kvSearchHandlers({
      profiles,
      saver,
      store: new KvSearchStore(join(dataDir, 'kv-search.json'), Date.now, warn),
    }),
  } satisfies Partial<Handlers>;
}
