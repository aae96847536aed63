// Every write of the workflow service, as named operations. They join the message service's group commits
// (on the main thread or in the writer thread), so arguments and results are plain data. An append checks the
// run's state inside the transaction: a step can never land in a run that has just ended.
import type { RunHistoryEvent } from '../../shared/workflows/types';
import { DLQ_ENTRY_GONE } from '../store/dlq';
import type { MessageRow } from '../store/messages';
import type { StackStore } from '../store/stack-store';
import {
  workflowStoreOf,
  type CallType,
  type FailureInfo,
  type NewRun,
  type RunState,
  type StepState,
  type NewWaiter,
} from '../store/workflow-store';
import { indexedText } from '../store/workflow-search';
import { addSearchText, historyOf, indexSearchPiece } from './history-writes';
import { entryText } from './search-text';

/** The error an append throws for a run that is not active; the routes answer it with 400. */
export const RUN_NOT_ACTIVE = 'workflow run is not active';

/** Takes a failed run's DLQ entry; false when it is gone already. */
function claimDlq(store: StackStore, runSeq: number, dlqId: string): boolean {
  if (!store.dlq.delete(dlqId)) return false;
  workflowStoreOf(store).setDlqId(runSeq, null);
  return true;
}

export interface AppendItem {
  /** Creates the run; its entry becomes entry 0. */
  create?: NewRun;
  /** Otherwise: the active run with this id, or the run with this seq (must be active too). */
  runId?: string;
  runSeq?: number;
  /**
   * Skip the item (result null) instead of failing the transaction when the run is not active, or when the
   * DLQ entry to claim is gone.
   */
  soft?: boolean;
  /**
   * Appended only if this DLQ entry (of that failed run) can be taken: a restart or resume claims its entry
   * with the item that creates the new run, and the failed run's history links to it (`link`).
   */
  claimDlq?: { runSeq: number; dlqId: string; link: DlqLink };
  /** Only if this waiter still exists; it is deleted. */
  waiterSeq?: number;
  /** A lookback event of the run consumed by this append. */
  consumeEvent?: string;
  /** `stepKey`: the step the entry records; a second entry for it is refused as a duplicate (LogEntry). */
  entry: { messageId: string; callType: CallType; body: Buffer; stepKey?: string };
  /** The message delivering the entry (none for a log-only entry). */
  message?: MessageRow;
  /** The run's step state after this append. */
  stepState?: StepState | null;
  /** Recorded in the run's history if the entry is appended (e.g. the notify that ended a wait). */
  history?: RunHistoryEvent;
}

/** How a failed run's history names the run that a restart or a resume started from it. */
export type DlqLink = { kind: 'restarted' } | { kind: 'resumed'; messageId: string };

/**
 * What an append did: the entry's place (and its message's row); or, for a duplicate — a trigger of a run
 * that is active, or a step the run has already logged — the message id of the entry that was there first,
 * and nothing appended or delivered; or null for a soft item whose run has ended.
 */
export type AppendResult =
  | { runSeq: number; pos: number; messageSeq?: number; deduplicated?: false }
  | { runSeq: number; deduplicated: true; messageId: string }
  | null;

function append(store: StackStore, items: AppendItem[], now: number): AppendResult[] {
  const workflows = workflowStoreOf(store);
  return items.map((item): AppendResult => {
    if (item.claimDlq && !claimDlq(store, item.claimDlq.runSeq, item.claimDlq.dlqId)) {
      if (item.soft) return null;
      throw new Error(`${DLQ_ENTRY_GONE}: ${item.claimDlq.dlqId}`);
    }
    let runSeq: number;
    if (item.create) {
      const active = workflows.activeRun(item.create.runId);
      if (active) {
        const first = workflows.triggerMessageId(active.seq) ?? item.entry.messageId;
        return { runSeq: active.seq, deduplicated: true, messageId: first };
      }
      runSeq = workflows.insertRun(item.create);
      if (item.create.origin) historyOf(store).record(runSeq, item.create.origin);
      if (item.claimDlq) {
        // A restart or resume: the failed run links to the new run (and the new run's origin back to it).
        const { runSeq: failedSeq, dlqId, link } = item.claimDlq;
        const to = { workflowRunId: item.create.runId, workflowRunCreatedAt: item.create.createdAt };
        historyOf(store).record(
          failedSeq,
          link.kind === 'restarted'
            ? { kind: 'restarted', time: now, to, dlqId }
            : { kind: 'resumed', time: now, to, dlqId, messageId: link.messageId },
        );
      }
      const invoker = item.create.invoker;
      const parent = invoker && workflows.activeRun(invoker.workflowRunId);
      if (invoker && parent) {
        historyOf(store).record(parent.seq, {
          kind: 'invoked',
          time: now,
          child: { workflowRunId: item.create.runId, workflowRunCreatedAt: item.create.createdAt },
          ...(typeof invoker.step.stepName === 'string' ? { stepName: invoker.step.stepName } : {}),
        });
      }
    } else {
      // A step names its run by seq (the route has just read the run to plan the step): only the run's state
      // is read again here, in the transaction.
      const active =
        item.runSeq !== undefined
          ? workflows.runState(item.runSeq) === 'RUN_STARTED'
            ? item.runSeq
            : undefined
          : item.runId !== undefined
            ? workflows.activeRun(item.runId)?.seq
            : undefined;
      if (active === undefined) {
        if (item.soft) return null;
        throw new Error(`${RUN_NOT_ACTIVE}: ${item.runId ?? item.runSeq}`);
      }
      runSeq = active;
      if (item.entry.stepKey !== undefined) {
        const logged = workflows.loggedStep(runSeq, item.entry.stepKey);
        if (logged !== undefined) return { runSeq, deduplicated: true, messageId: logged };
      }
    }
    if (item.waiterSeq !== undefined && !workflows.deleteWaiter(item.waiterSeq)) return null;
    if (item.consumeEvent !== undefined && !workflows.deleteEvent(runSeq, item.consumeEvent)) return null;
    let messageSeq: number | undefined;
    if (item.message) {
      messageSeq = store.messages.insertRow(item.message);
      store.events.insert(messageSeq, now, 'CREATED');
    }
    // The entry's searchable text is known before the append, so that the run's row is updated once for its
    // log size, step state and search piece together (a created run's entry is its entry 0, the trigger).
    const text = indexedText(entryText(item.create !== undefined, item.entry.callType, item.entry.body));
    const { pos, searchN } = workflows.appendLog(
      runSeq,
      {
        messageId: item.entry.messageId,
        messageSeq,
        callType: item.entry.callType,
        createdAt: now,
        body: item.entry.body,
        stepKey: item.entry.stepKey,
      },
      { stepState: item.stepState, searchPiece: text !== undefined },
    );
    if (text !== undefined) indexSearchPiece(store, runSeq, searchN, text);
    if (item.history) historyOf(store).record(runSeq, item.history);
    return { runSeq, pos, messageSeq };
  });
}

/** Inserts a message that belongs to a run but not to its log (the failure callback). */
function insertMessage(store: StackStore, row: MessageRow, now: number): number {
  const seq = store.messages.insertRow(row);
  store.events.insert(seq, now, 'CREATED');
  return seq;
}

export const WORKFLOW_WRITES = {
  wfAppend: append,
  wfInsertMessage: insertMessage,
  /**
   * Ends a run if it is still active: its state, completion time and response; its waiters go. Returns the ids
   * of its messages still pending (to cancel), or null when the run had already ended.
   */
  wfFinish: (
    store: StackStore,
    runSeq: number,
    state: RunState,
    now: number,
    response: string | null,
    dlqId: string | null,
    event: RunHistoryEvent | null = null,
  ): string[] | null => {
    const workflows = workflowStoreOf(store);
    if (!workflows.finishRun(runSeq, state, now, response)) return null;
    if (event) historyOf(store).record(runSeq, event);
    if (response) addSearchText(store, runSeq, response);
    if (dlqId !== null) workflows.setDlqId(runSeq, dlqId);
    if (state === 'RUN_FAILED') workflows.setStepState(runSeq, 'STEP_FAILED');
    workflows.deleteWaitersOfRun(runSeq);
    return workflows.pendingMessageIds(runSeq);
  },
  wfStepState: (store: StackStore, runSeq: number, state: StepState | null) =>
    workflowStoreOf(store).setStepState(runSeq, state),
  wfFailure: (store: StackStore, runSeq: number, failure: FailureInfo) =>
    workflowStoreOf(store).setFailure(runSeq, failure),
  /**
   * Sends a failed run's failure callback again: records the new callback message, if the run's failure
   * callback is still the failed one the request saw (two retries at once send one). Its row's seq, or null.
   */
  wfRetryFailure: (
    store: StackStore,
    runSeq: number,
    seenMessageId: string,
    failure: FailureInfo,
    row: MessageRow,
    now: number,
  ): number | null => {
    const workflows = workflowStoreOf(store);
    const current = workflows.run(runSeq)?.failure;
    // Sent again (or its state changed) since the request read it: another request acted first.
    if (current?.messageId !== seenMessageId || current.state !== 'CALLBACK_FAIL') return null;
    workflows.setFailure(runSeq, failure);
    return insertMessage(store, row, now);
  },
  /** Registers a waiter of an active run; null when the run is not active. */
  wfAddWaiter: (store: StackStore, waiter: NewWaiter): number | null => {
    const workflows = workflowStoreOf(store);
    if (workflows.run(waiter.runSeq)?.state !== 'RUN_STARTED') return null;
    return workflows.insertWaiter(waiter);
  },
  wfStoreEvent: (store: StackStore, runSeq: number, eventId: string, now: number, body: Buffer) =>
    workflowStoreOf(store).storeEvent(runSeq, eventId, now, body),
  /** Removes a run's DLQ entry (the run stays, failed); false when another request took it first. */
  wfDeleteDlq: claimDlq,
};

export type WorkflowWrites = typeof WORKFLOW_WRITES;
