// Every write of the message service, as named operations over the store. They run inside the writer's group
// transactions — on the main thread or in the writer thread — so their arguments and results must be plain
// (structured-cloneable) data.
import type { HeaderMap, MessageState } from '../../shared/messages/types';
import type { EventData, MessageStore, PendingRow, QueueRecord } from '../store/message-store';
import type { Writer, WriteCall } from '../store/writer';
import { newMessageId } from './ids';
import { DEDUP_WINDOW_MS, type PlannedMessage } from './publish-request';

export interface InsertResult {
  /** One per planned message, in order. */
  results: { messageId: string; url: string; deduplicated: boolean }[];
  /** What the engine schedules once the write has committed. */
  rows: PendingRow[];
}

/** Deduplicates, creates missing queues, inserts the messages and logs CREATED. */
function insertPlanned(store: MessageStore, planned: PlannedMessage[], now: number): InsertResult {
  const result: InsertResult = { results: [], rows: [] };
  for (const item of planned) {
    if (item.dedupKey !== undefined) {
      const existing = store.findDuplicate(item.dedupKey, now);
      if (existing !== undefined) {
        result.results.push({ messageId: existing, url: item.spec.url, deduplicated: true });
        continue;
      }
    }
    const id = newMessageId();
    const queueName = item.spec.queueName;
    if (queueName !== undefined && !store.getQueue(queueName)) store.upsertQueue(queueName, 1, false, now);
    const seq = store.insertMessage({
      id,
      createdAt: now,
      dueAt: item.dueAt,
      spec: item.spec,
      body: item.body,
    });
    store.insertEvent(seq, now, 'CREATED', { nextDeliveryTime: item.dueAt });
    if (item.dedupKey !== undefined) store.rememberDeduplication(item.dedupKey, id, now + DEDUP_WINDOW_MS);
    result.results.push({ messageId: id, url: item.spec.url, deduplicated: false });
    result.rows.push({
      seq,
      id,
      dueAt: item.dueAt,
      retried: 0,
      cancelRequested: false,
      queueName,
      flowControl: item.spec.flowControl,
      createdAt: now,
    });
  }
  return result;
}

export const MESSAGE_WRITES = {
  insertPlanned,
  event: (store: MessageStore, seq: number, now: number, state: MessageState, data?: EventData) =>
    store.insertEvent(seq, now, state, data),
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
  insertDlq: (
    store: MessageStore,
    entry: {
      dlqId: string;
      seq: number;
      createdAt: number;
      responseStatus: number;
      responseHeader?: HeaderMap;
      responseBody?: Buffer;
    },
  ) => store.insertDlq(entry),
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
