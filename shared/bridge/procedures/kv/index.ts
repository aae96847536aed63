// Every `kv.*` procedure: the workbench, the key browser, and the live monitor and pub/sub (live.ts).
import { kvKeyProcedures } from './keys';
import { kvLiveProcedures } from './live';
import { kvWorkbenchProcedures } from './workbench';

export const kvProcedures = {
  ...kvWorkbenchProcedures,
  ...kvKeyProcedures,
  ...kvLiveProcedures,
};
