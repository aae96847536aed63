// Every write of the message service, as named operations over the store. They run inside the writer's group
// transactions — on the main thread or in the writer thread — so their arguments and results must be plain
// (structured-cloneable) data.
import type { HeaderMap, MessageState } from '../../shared/messages/types';
import { DLQ_ENTRY_GONE, type NewDlqEntry } from '../store/dlq';
import type { EventData } from '../store/events';
import { messageRow, type MessageRow, type PendingRow } from '../store/messages';
import type { QueueRecord } from '../store/queues';
import type { StackStore } from '../store/stack-store';
import type { Writer, WriteCall } from '../store/writer';
import { newMessageId } from './ids';
import { DEDUP_WINDOW_MS } from '../../shared/messages/limits';
import type { PlannedMessage } from './publish-request';

export interface InsertResult {
  /** One per planned message, in order. */
  results: { messageId: string; url: string; deduplicated: boolean }[];
  /** What the engine schedules once the write has committed. */
  rows: PendingRow[];
}

/** A planned message as it crosses to the writer: its row, and its deduplication key if any. */
export interface PreparedMessage {
  row: MessageRow;
  dedupKey?: string;
}

/** Per prepared message: its new row number, or the id of the message it duplicates. */
export type InsertOutcome = number | string;

/** Deduplicates, creates missing queues, inserts the messages and logs CREATED. */
function insertPlanned(store: StackStore, messages: PreparedMessage[], now: number): InsertOutcome[] {
  return messages.map(({ row, dedupKey }) => {
    if (dedupKey !== undefined) {
      const existing = store.dedup.find(dedupKey, now);
      if (existing !== undefined) return existing;
    }
    if (row.queueName !== null && !store.queues.get(row.queueName))
      store.queues.upsert(row.queueName, 1, false, now);
    const seq = store.messages.insertRow(row);
    // No data: a CREATED event's nextDeliveryTime is the message's notBefore, filled in when it is read.
    store.events.insert(seq, now, 'CREATED');
    if (dedupKey !== undefined) store.dedup.remember(dedupKey, row.id, now + DEDUP_WINDOW_MS);
    return seq;
  });
}

/**
 * Prepares the insert of planned messages on the main thread (ids, columns, JSON), and turns the writer's
 * answer back into results and the rows the engine schedules.
 */
export function prepareInsert(
  planned: PlannedMessage[],
  now: number,
): { call: MessageWrite; prepared: PreparedMessage[]; result(outcomes: unknown): InsertResult } {
  const prepared: PreparedMessage[] = planned.map((item) => ({
    row: messageRow({
      id: newMessageId(),
      createdAt: now,
      dueAt: item.dueAt,
      spec: item.spec,
      body: item.body,
    }),
    dedupKey: item.dedupKey,
  }));
  return {
    call: ['insertPlanned', prepared, now],
    prepared,
    result(outcomes) {
      const result: InsertResult = { results: [], rows: [] };
      (outcomes as InsertOutcome[]).forEach((outcome, index) => {
        const { row } = prepared[index] as PreparedMessage;
        const spec = (planned[index] as PlannedMessage).spec;
        if (typeof outcome === 'string') {
          result.results.push({ messageId: outcome, url: row.url, deduplicated: true });
          return;
        }
        result.results.push({ messageId: row.id, url: row.url, deduplicated: false });
        result.rows.push({
          seq: outcome,
          id: row.id,
          dueAt: row.dueAt,
          retried: 0,
          cancelRequested: false,
          queueName: spec.queueName,
          flowControl: spec.flowControl,
          createdAt: now,
        });
      });
      return result;
    },
  };
}

export const MESSAGE_WRITES = {
  insertPlanned,
  /**
   * A DLQ retry: takes the entry and publishes its message again — or, when another request took the entry
   * first, does nothing (null), or fails the whole transaction if the entry was `required` (named by id).
   */
  retryDlq: (
    store: StackStore,
    dlqId: string,
    messages: PreparedMessage[],
    now: number,
    required: boolean,
  ): InsertOutcome[] | null => {
    if (!store.dlq.delete(dlqId)) {
      if (required) throw new Error(`${DLQ_ENTRY_GONE}: ${dlqId}`);
      return null;
    }
    return insertPlanned(store, messages, now);
  },
  event: (store: StackStore, seq: number, now: number, state: MessageState, data?: EventData) =>
    store.events.insert(seq, now, state, data),
  /** A successful attempt: its ACTIVE event (unless already written), DELIVERED, and finished. */
  delivered: (store: StackStore, seq: number, activeAt: number | null, now: number, status: number) => {
    if (activeAt !== null) store.events.insertActiveDelivered(seq, activeAt, now, { responseStatus: status });
    else store.events.insert(seq, now, 'DELIVERED', { responseStatus: status });
    store.messages.finish(seq, 'DELIVERED', now);
  },
  /** Logs a final state and marks the message finished. */
  finish: (store: StackStore, seq: number, now: number, state: MessageState) => {
    store.events.insert(seq, now, state);
    store.messages.finish(seq, state, now);
  },
  markFinished: (store: StackStore, seq: number, now: number, state: MessageState) =>
    store.messages.finish(seq, state, now),
  scheduleRetry: (store: StackStore, seq: number, retried: number, dueAt: number) =>
    store.messages.scheduleRetry(seq, retried, dueAt),
  requestCancel: (store: StackStore, seq: number) => store.messages.requestCancel(seq),
  insertDlq: (store: StackStore, entry: NewDlqEntry) => store.dlq.insert(entry),
  deleteDlq: (store: StackStore, dlqId: string) => store.dlq.delete(dlqId),
  deleteDlqMany: (store: StackStore, dlqIds: string[]) => dlqIds.filter((id) => store.dlq.delete(id)).length,
  upsertQueue: (store: StackStore, name: string, parallelism: number, paused: boolean, now: number) =>
    store.queues.upsert(name, parallelism, paused, now),
  /** Pause or resume; undefined when the queue does not exist. */
  setQueuePaused: (
    store: StackStore,
    name: string,
    paused: boolean,
    now: number,
  ): QueueRecord | undefined => {
    const current = store.queues.get(name);
    return current && store.queues.upsert(name, current.parallelism, paused, now);
  },
  deleteQueue: (store: StackStore, name: string) => store.queues.delete(name),
  addEndpoints: (
    store: StackStore,
    group: string,
    endpoints: { name?: string; url: string }[],
    now: number,
  ) => store.urlGroups.addEndpoints(group, endpoints, now),
  /** False when the group does not exist. */
  removeEndpoints: (
    store: StackStore,
    group: string,
    endpoints: { name?: string; url?: string }[],
    now: number,
  ) => {
    if (!store.urlGroups.get(group)) return false;
    store.urlGroups.removeEndpoints(group, endpoints, now);
    return true;
  },
  deleteUrlGroup: (store: StackStore, name: string) => store.urlGroups.delete(name),
  setUrlGroupHeaders: (store: StackStore, name: string, headers: HeaderMap, now: number) =>
    store.urlGroups.setHeaders(name, headers, now),
  prune: (store: StackStore, now: number, before: number, dlqBefore: number) =>
    store.prune(now, before, dlqBefore),
};

export type MessageWrites = typeof MESSAGE_WRITES;
export type MessageWriter = Writer<MessageWrites>;
export type MessageWrite = WriteCall<MessageWrites>;
