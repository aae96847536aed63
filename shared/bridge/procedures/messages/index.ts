// Every procedure of the message service (`messages.*`), merged from one file per feature.
import { batchProcedures } from './batch';
import { composerProcedures } from './composer';
import { dlqProcedures } from './dlq';
import { flowControlProcedures } from './flow-control';
import { signingKeyProcedures } from './signing-keys';
import { logProcedures } from './logs';
import { publishProcedures } from './publish';
import { queueProcedures } from './queues';
import { scheduleProcedures } from './schedules';
import { urlGroupProcedures } from './url-groups';

export const messageProcedures = {
  ...publishProcedures,
  ...batchProcedures,
  ...composerProcedures,
  ...urlGroupProcedures,
  ...logProcedures,
  ...queueProcedures,
  ...scheduleProcedures,
  ...dlqProcedures,
  ...signingKeyProcedures,
  ...flowControlProcedures,
};
