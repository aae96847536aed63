// Every write operation of every service of the stack, in one registry: the group-commit writer (on the main
// thread, or in the writer thread that loads this same registry) runs them all in the same transactions.
// A service adds its registry here, under its name.
import { FLOW_CONTROL_WRITES } from './messages/flow-control-writes';
import { SCHEDULE_WRITES } from './messages/schedule-write-ops';
import { MESSAGE_WRITES } from './messages/write-ops';
import { LOCAL_WRITES } from './local/write-ops';
import { combineWrites, type Writer } from './store/writer';
import { WORKFLOW_HISTORY_WRITES } from './workflows/history-writes';
import { WORKFLOW_WRITES } from './workflows/write-ops';

export const STACK_WRITES = combineWrites({
  messages: MESSAGE_WRITES,
  schedules: SCHEDULE_WRITES,
  workflows: WORKFLOW_WRITES,
  flowControl: FLOW_CONTROL_WRITES,
  workflowHistory: WORKFLOW_HISTORY_WRITES,
  local: LOCAL_WRITES,
});

export type StackWrites = typeof STACK_WRITES;
export type StackWriter = Writer<StackWrites>;
