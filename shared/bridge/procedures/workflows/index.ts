// Every procedure of the workflow service (`workflows.*`), merged from one file per feature.
import { workflowDlqProcedures } from './dlq';
import { runCancelProcedures } from './run-cancel';
import { runProcedures } from './runs';
import { viewProcedures } from './views';

export const workflowProcedures = {
  ...runProcedures,
  ...runCancelProcedures,
  ...workflowDlqProcedures,
  ...viewProcedures,
};
