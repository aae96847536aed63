// Every `kv.*` procedure: the workbench, the key browser and its delete-by-pattern job, the live
// monitor and pub/sub (live.ts), and the Search tab (search.ts).
import { kvDeleteJobProcedures } from './delete-job';
import { kvKeyProcedures } from './key-browser';
import { kvLiveProcedures } from './live';
import { kvSearchProcedures } from './search';
import { kvWorkbenchProcedures } from './workbench';

export const kvProcedures = {
  ...kvWorkbenchProcedures,
  ...kvKeyProcedures,
  ...kvDeleteJobProcedures,
  ...kvLiveProcedures,
  ...kvSearchProcedures,
};
