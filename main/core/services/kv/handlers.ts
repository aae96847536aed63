// Every `kv.*` handler except the live monitor and pub/sub: the workbench and the key browser.
import { join } from 'node:path';
import type { Handlers } from '../../bridge/router';
import type { StoringHandlerDeps } from '../handler-deps';
import { KvHistoryStore } from './history-store';
import { kvKeyHandlers } from './keys';
import { kvWorkbenchHandlers } from './workbench';

export function kvHandlers({ profiles, dataDir, logError, warn }: StoringHandlerDeps) {
  const history = new KvHistoryStore(join(dataDir, 'kv-history.json'), Date.now, warn);
  return {
    ...kvWorkbenchHandlers({ profiles, history }),
    ...kvKeyHandlers({ profiles, logError }),
  } satisfies Partial<Handlers>;
}
