// Every handler of the message service (`messages.*`), composed here and nowhere else: one module per
// feature, all over one client (client.ts). console-core.ts spreads this into its handler table, as it does
// workflows/index.ts and kv/index.ts.
import type { JobRunner } from '../../jobs/runner';
import type { ProfilesService } from '../../profiles/profiles-service';
import type { Clipboard } from '../../clipboard/clipboard';
import type { FileSaver } from '../../saving/file-saver';
import { dlqHandlers } from './dlq';
import { flowControlHandlers } from './flow-control';
import { signingKeyHandlers } from './signing-keys';
import { logHandlers } from './logs';
import { publishHandlers } from './publish';
import { queueHandlers } from './queues';
import { scheduleHandlers } from './schedules';
import { urlGroupHandlers } from './url-groups';

export interface MessageHandlerDeps {
  profiles: Pick<ProfilesService, 'resolve' | 'update'>;
  /** The console's data folder (the composer's drafts, history and templates). */
  dataDir: string;
  clipboard?: () => Clipboard;
  jobs: JobRunner;
  saver: FileSaver;
  warn?: (message: string) => void;
  logError?: (message: string, error: unknown) => void;
}

export function messageHandlers(deps: MessageHandlerDeps) {
  const { profiles } = deps;
  return {
    ...publishHandlers({
      profiles,
      dataDir: deps.dataDir,
      clipboard: deps.clipboard,
      saver: deps.saver,
      warn: deps.warn,
    }),
    ...urlGroupHandlers({ profiles }),
    ...logHandlers({ profiles, jobs: deps.jobs }),
    ...queueHandlers({ profiles }),
    ...scheduleHandlers({ profiles, jobs: deps.jobs }),
    ...dlqHandlers({ profiles, jobs: deps.jobs }),
    ...signingKeyHandlers({ profiles }),
    ...flowControlHandlers({ profiles, jobs: deps.jobs }),
  };
}
