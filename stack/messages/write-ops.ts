// Every write of the message service, as named operations over the store. They run inside the writer's group
// transactions — on the main thread or in the writer thread — so their arguments and results must be plain
// (structured-cloneable) data.
import type { HeaderMap, MessageState } from '../../shared/messages/types';
import {
  messageRow,
  type EventData,
  type MessageRow,
  type MessageStore,
  type NewDlqEntry,
  type PendingRow,
  type QueueRecord,
} from '../store/message-store';
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
function insertPlanned(store: MessageStore, messages: PreparedMessage[], now: number): InsertOutcome[] {
  return messages.map(({ row, dedupKey }) => {
    if (dedupKey !== undefined) {
      const existing = store.findDuplicate(dedupKey, now);
      if (existing !== undefined) return existing;
    }
    if (row.queueName !== null && !store.getQueue(row.queueName))
      store.upsertQueue(row.queueName, 1, false, now);
    const seq = store.insertRow(row);
    // No data: a CREATED event's nextDeliveryTime is the message's notBefore, filled in when it is read.
    store.insertEvent(seq, now, 'CREATED');
    if (dedupKey !== undefined) store.rememberDeduplication(dedupKey, row.id, now + DEDUP_WINDOW_MS);
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
): { call: MessageWrite; result(outcomes: unknown): InsertResult } {
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
  event: (store: MessageStore, seq: number, now: number, state: MessageState, data?: EventData) =>
    store.insertEvent(seq, now, state, data),
  /** A successful attempt: its ACTIVE event (unless already written), DELIVERED, and finished. */
  delivered: (store: MessageStore, seq: number, activeAt: number | null, now: number, status: number) => {
    if (activeAt !== null) store.insertEvent(seq, activeAt, 'ACTIVE');
    store.insertEvent(seq, now, 'DELIVERED', { responseStatus: status });
    store.finish(seq, 'DELIVERED', now);
  },
  /** Logs a final state and marks the message finished. */
  finish: (store: MessageStore, seq: number, now: number, state: MessageState) => {
    store.insertEvent(seq, now, state);
    store.finish(seq, state, now);
  },
  markFinished: (store: MessageStore, seq: number, now: number, state: MessageState) =>
    store.finish(seq, state, now),
  scheduleRetry: (store: MessageStore, seq: number, retried: number, dueAt: number) =>
    store.scheduleRetry(seq, retried, dueAt),
  requestCancel: (store: MessageStore, seq: number) => store.requestCancel(seq),
  insertDlq: (store: MessageStore, entry: NewDlqEntry) => store.insertDlq(entry),
  deleteDlq: (store: MessageStore, dlqId: string) => store.deleteDlq(dlqId),
  deleteDlqMany: (store: MessageStore, dlqIds: string[]) => dlqIds.filter((id) => store.deleteDlq(id)).length,
  upsertQueue: (store: MessageStore, name: string, parallelism: number, paused: boolean, now: number) =>
    store.upsertQueue(name, parallelism, paused, now),
  /** Pause or resume; undefined when the queue does not exist. */
  setQueuePaused: (
    store: MessageStore,
    name: string,
    paused: boolean,
    now: number,
  ): QueueRecord | undefined => {
    const current = store.getQueue(name);
    return current && store.upsertQueue(name, current.parallelism, paused, now);
  },
  deleteQueue: (store: MessageStore, name: string) => store.deleteQueue(name),
  addEndpoints: (
    store: MessageStore,
    group: string,
    endpoints: { name?: string; url: string }[],
    now: number,
  ) => store.addEndpoints(group, endpoints, now),
  /** False when the group does not exist. */
  removeEndpoints: (
    store: MessageStore,
    group: string,
    endpoints: { name?: string; url?: string }[],
    now: number,
  ) => {
    if (!store.getUrlGroup(group)) return false;
    store.removeEndpoints(group, endpoints, now);
    return true;
  },
  deleteUrlGroup: (store: MessageStore, name: string) => store.deleteUrlGroup(name),
  setUrlGroupHeaders: (store: MessageStore, name: string, headers: HeaderMap, now: number) =>
    store.setUrlGroupHeaders(name, headers, now),
  prune: (store: MessageStore, now: number, before: number) => store.prune(now, before),
};

export type MessageWrites = typeof MESSAGE_WRITES;
export type MessageWriter = Writer<MessageWrites>;
export type MessageWrite = WriteCall<MessageWrites>;
