// Every `kv.*` procedure: the workbench, the key browser and its delete-by-pattern job, and the live
// monitor and pub/sub (live.ts).
import { kvDeleteJobProcedures } from './delete-job';
import { kvKeyProcedures } from './key-browser';
import { kvLiveProcedures } from './live';
import { kvWorkbenchProcedures } from './workbench';

export const kvProcedures = {
  ...kvWorkbenchProcedures,
  ...kvKeyProcedures,
  ...kvDeleteJobProcedures,
  ...kvLiveProcedures,
};
