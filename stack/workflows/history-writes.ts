// Named write operations of a run's history and its text index (stack/store/workflow-history.ts,
// workflow-search.ts). Routes and the runtime add them to the same commit as the action they record, so a
// cancel and its "canceled by", a restart and the links between the two runs, are both kept or neither.
import type { RunHistoryEvent } from '../../shared/workflows/types';
import type { StackStore } from '../store/stack-store';
import { WorkflowHistoryTable } from '../store/workflow-history';
import { indexedText, WorkflowSearchTable } from '../store/workflow-search';

export const historyOf = (store: StackStore): WorkflowHistoryTable => store.group(WorkflowHistoryTable);
export const searchOf = (store: StackStore): WorkflowSearchTable => store.group(WorkflowSearchTable);

/**
 * Indexes a piece of a run's text whose number `n` is taken (WorkflowSearchTable.take, or an append's row
 * update): the FTS5 insert is held back to the end of the group transaction (StackStore.last). Interleaved
 * with the transaction's other writes it cost ~60 µs a step more than inserted after them.
 */
export function indexSearchPiece(store: StackStore, runSeq: number, n: number, value: string): void {
  store.last(() => searchOf(store).insert(runSeq, n, value));
}

/** Adds a piece of a run's text to the index (numbered now, inserted at the end of the transaction). */
export function addSearchText(store: StackStore, runSeq: number, text: string): void {
  const value = indexedText(text);
  if (value === undefined) return;
  const n = searchOf(store).take(runSeq);
  if (n !== undefined) indexSearchPiece(store, runSeq, n, value);
}

export const WORKFLOW_HISTORY_WRITES = {
  wfHistory: (store: StackStore, runSeq: number, event: RunHistoryEvent) =>
    historyOf(store).record(runSeq, event),
  wfSearchText: addSearchText,
};

/** The write call of one history event (to join the action's commit). */
export function historyCall(runSeq: number, event: RunHistoryEvent): ['wfHistory', number, RunHistoryEvent] {
  return ['wfHistory', runSeq, event];
}
