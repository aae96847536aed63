// Named write operations of a run's history and its text index (stack/store/workflow-history.ts,
// workflow-search.ts). Routes and the runtime add them to the same commit as the action they record, so a
// cancel and its "canceled by", a restart and the links between the two runs, are both kept or neither.
import type { RunHistoryEvent } from '../../shared/workflows/types';
import type { StackStore } from '../store/stack-store';
import { WorkflowHistoryTable } from '../store/workflow-history';
import { WorkflowSearchTable } from '../store/workflow-search';

export const historyOf = (store: StackStore): WorkflowHistoryTable => store.group(WorkflowHistoryTable);
export const searchOf = (store: StackStore): WorkflowSearchTable => store.group(WorkflowSearchTable);

export const WORKFLOW_HISTORY_WRITES = {
  wfHistory: (store: StackStore, runSeq: number, event: RunHistoryEvent) =>
    historyOf(store).record(runSeq, event),
  wfSearchText: (store: StackStore, runSeq: number, text: string) => searchOf(store).add(runSeq, text),
};

/** The write call of one history event (to join the action's commit). */
export function historyCall(runSeq: number, event: RunHistoryEvent): ['wfHistory', number, RunHistoryEvent] {
  return ['wfHistory', runSeq, event];
}
