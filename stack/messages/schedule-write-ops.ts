// Every write of schedules, as named operations (stack/writes.ts) that run in the stack's group commits. A
// tick's messages are inserted in the same transaction that moves the schedule to its next tick, and only if
// the schedule still waits for that tick: a crash can never keep one without the other, so no tick fires
// twice and none is lost (a tick whose transaction did not commit fires after the restart).
import { nextTick, storedCronSpec } from '../../shared/messages/cron';
import type { ScheduleRunState } from '../../shared/messages/schedules';
import {
  scheduleStoreOf,
  type PlannedTick,
  type ScheduleInput,
  type ScheduleRun,
  type ScheduleRecord,
} from '../store/schedules';
import type { StackStore } from '../store/stack-store';
import type { Writer, WriteCall } from '../store/writer';
import { MESSAGE_WRITES, type InsertOutcome, type PreparedMessage } from './write-ops';

/** Inserts a run's messages and records them on the schedule as IN_PROGRESS. */
function insertRun(
  store: StackStore,
  id: string,
  at: number,
  messages: PreparedMessage[],
  now: number,
): InsertOutcome[] {
  const outcomes = MESSAGE_WRITES.insertPlanned(store, messages, now);
  const states: Record<string, ScheduleRunState> = {};
  outcomes.forEach((outcome, index) => {
    const messageId = typeof outcome === 'string' ? outcome : (messages[index] as PreparedMessage).row.id;
    states[messageId] = 'IN_PROGRESS';
  });
  scheduleStoreOf(store).recordRun(id, at, states);
  return outcomes;
}

export const SCHEDULE_WRITES = {
  /**
   * Creates or updates a schedule. Its next tick is the first after now — and after its last run, so that an
   * update racing a tick that just fired can never set that tick again.
   */
  upsertSchedule: (store: StackStore, input: ScheduleInput, now: number): ScheduleRecord => {
    const table = scheduleStoreOf(store);
    const lastRun = table.get(input.id)?.lastTick ?? 0;
    const next = nextTick(storedCronSpec(input.cron), Math.max(now, lastRun)) ?? null;
    return table.upsert(input, next, now);
  },
  deleteSchedule: (store: StackStore, id: string): boolean => scheduleStoreOf(store).delete(id),
  /** nextTick null pauses; a time resumes from that tick. Undefined when the schedule does not exist. */
  setSchedulePaused: (store: StackStore, id: string, nextTick: number | null, now: number) =>
    scheduleStoreOf(store).setPaused(id, nextTick, now),
  /**
   * One tick: moves the schedule from `expected` to `next` and inserts the tick's messages. Null (nothing
   * written) when the schedule was updated, paused or deleted since the tick was planned.
   */
  fireSchedule: (
    store: StackStore,
    id: string,
    expected: PlannedTick,
    next: number | null,
    messages: PreparedMessage[],
    now: number,
  ): InsertOutcome[] | null => {
    if (!scheduleStoreOf(store).advance(id, expected, next)) return null;
    return insertRun(store, id, now, messages, now);
  },
  /**
   * Takes back a tick committed ahead of its time whose messages were not attempted yet (the schedule is being
   * paused, updated or deleted before the tick; its caller commits that change in the same transaction): the
   * messages are gone as if never written and the schedule waits for the tick again. False, and nothing
   * written, when the tick is no longer the schedule's last run.
   */
  withdrawTick: (
    store: StackStore,
    id: string,
    tick: number,
    messageIds: string[],
    previous: ScheduleRun,
  ): boolean => {
    if (!scheduleStoreOf(store).unfire(id, tick, previous)) return false;
    store.messages.withdraw(messageIds);
    return true;
  },
  /** A tick that could not publish (e.g. its URL group is gone): moves on and keeps the reason. */
  scheduleTickFailed: (
    store: StackStore,
    id: string,
    expected: PlannedTick,
    next: number | null,
    now: number,
    error: string,
  ): boolean => {
    const table = scheduleStoreOf(store);
    if (!table.advance(id, expected, next)) return false;
    return table.recordRun(id, now, {}, error);
  },
  /** Trigger now: a run outside the cron; the next tick stays where it is. Null for an unknown schedule. */
  triggerSchedule: (
    store: StackStore,
    id: string,
    messages: PreparedMessage[],
    now: number,
  ): InsertOutcome[] | null => {
    if (!scheduleStoreOf(store).get(id)) return null;
    return insertRun(store, id, now, messages, now);
  },
  /** The final state of a scheduled message, if it belongs to its schedule's last run. */
  setScheduleRunState: (store: StackStore, id: string, messageId: string, state: ScheduleRunState) =>
    scheduleStoreOf(store).setRunState(id, messageId, state),
};

export type ScheduleWrites = typeof SCHEDULE_WRITES;
export type ScheduleWriter = Writer<ScheduleWrites>;
export type ScheduleWrite = WriteCall<ScheduleWrites>;
