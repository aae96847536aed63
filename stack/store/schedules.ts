// The `schedules` table: every schedule of the message service, the publish it repeats and where it stands.
// Reached with `store.group(ScheduleTable)`; its writes are named operations (stack/messages/
// schedule-write-ops.ts) that run in the stack's group commits, like every other write.
import type { HeaderMap } from '../../shared/messages/types';
import type { ScheduleRunState } from '../../shared/messages/schedules';
import type { StackStore } from './stack-store';
import type { Statements } from './statements';

/** What a create (or an update in place) stores. */
export interface ScheduleInput {
  id: string;
  cron: string;
  destination: string;
  /** The creating request's headers by lowercase name: configuration (`upstash-*`), Content-Type, and all
   *  other headers only when it asked for Upstash-Header-Forward. */
  headers: HeaderMap;
  body: Buffer;
  callerIp?: string;
}

export interface ScheduleRecord extends ScheduleInput {
  createdAt: number;
  updatedAt: number;
  paused: boolean;
  nextTick?: number;
  lastTick?: number;
  lastStates?: Record<string, ScheduleRunState>;
  error?: string;
}

interface ScheduleRow {
  id: string;
  created_at: number;
  updated_at: number;
  cron: string;
  destination: string;
  paused: number;
  headers: string;
  body: Buffer;
  caller_ip: string | null;
  next_tick: number | null;
  last_tick: number | null;
  last_states: string | null;
  error: string | null;
}

function toSchedule(row: ScheduleRow): ScheduleRecord {
  const record: ScheduleRecord = {
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    cron: row.cron,
    destination: row.destination,
    paused: row.paused === 1,
    headers: JSON.parse(row.headers) as HeaderMap,
    body: row.body,
  };
  if (row.caller_ip !== null) record.callerIp = row.caller_ip;
  if (row.next_tick !== null) record.nextTick = row.next_tick;
  if (row.last_tick !== null) record.lastTick = row.last_tick;
  if (row.last_states !== null)
    record.lastStates = JSON.parse(row.last_states) as Record<string, ScheduleRunState>;
  if (row.error !== null) record.error = row.error;
  return record;
}

/** A schedule's record of its last run, as it was before a tick. */
export type ScheduleRun = Pick<ScheduleRecord, 'lastTick' | 'lastStates' | 'error'>;

/** The tick a firing was planned for, and the version of the schedule it was planned from (its updated_at). */
export interface PlannedTick {
  tick: number;
  version: number;
}

/** The few fields the scheduler keeps in memory for each schedule. */
export interface ScheduleTimes {
  id: string;
  cron: string;
  nextTick: number | null;
}

export class ScheduleTable {
  constructor(private readonly sql: Statements) {}

  get(id: string): ScheduleRecord | undefined {
    return this.sql.one('SELECT * FROM schedules WHERE id = ?', toSchedule, id);
  }

  /** Every schedule, oldest first. */
  list(): ScheduleRecord[] {
    return this.sql.all('SELECT * FROM schedules ORDER BY created_at, id', toSchedule);
  }

  /** What the scheduler loads at start-up: id, cron and next tick of every schedule that is not paused. */
  *active(): Generator<ScheduleTimes> {
    const rows = this.sql
      .get('SELECT id, cron, next_tick FROM schedules WHERE paused = 0')
      .iterate() as IterableIterator<{ id: string; cron: string; next_tick: number | null }>;
    for (const row of rows) yield { id: row.id, cron: row.cron, nextTick: row.next_tick };
  }

  /**
   * Creates the schedule, or replaces its publish and cron in place: an update keeps the creation time, the
   * paused state (next_tick stays NULL while paused) and the last run's record.
   */
  upsert(input: ScheduleInput, nextTick: number | null, now: number): ScheduleRecord {
    this.sql
      .get(
        `INSERT INTO schedules (id, created_at, updated_at, cron, destination, paused, headers, body, caller_ip,
          next_tick)
         VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET updated_at = excluded.updated_at, cron = excluded.cron,
          destination = excluded.destination, headers = excluded.headers, body = excluded.body,
          caller_ip = excluded.caller_ip, error = NULL,
          next_tick = CASE WHEN schedules.paused = 1 THEN NULL ELSE excluded.next_tick END`,
      )
      .run(
        input.id,
        now,
        now,
        input.cron,
        input.destination,
        JSON.stringify(input.headers),
        input.body,
        input.callerIp ?? null,
        nextTick,
      );
    return this.get(input.id) as ScheduleRecord;
  }

  delete(id: string): boolean {
    return this.sql.get('DELETE FROM schedules WHERE id = ?').run(id).changes > 0;
  }

  /** Pauses (nextTick null) or resumes (nextTick = the first tick after now); undefined if unknown. */
  setPaused(id: string, nextTick: number | null, now: number): ScheduleRecord | undefined {
    const changes = this.sql
      .get('UPDATE schedules SET paused = ?, next_tick = ?, updated_at = ? WHERE id = ?')
      .run(nextTick === null ? 1 : 0, nextTick, now, id).changes;
    return changes > 0 ? this.get(id) : undefined;
  }

  /**
   * Moves an active schedule's next tick from `expected.tick` to `next`: only if the schedule still exists, is
   * not paused, still waits for that tick and was not changed since the tick was planned (`expected.version`,
   * its updated_at then) — a concurrent update, pause or delete wins. Returns whether it moved.
   */
  advance(id: string, expected: PlannedTick, next: number | null): boolean {
    return (
      this.sql
        .get(
          'UPDATE schedules SET next_tick = ? WHERE id = ? AND paused = 0 AND next_tick = ? AND updated_at = ?',
        )
        .run(next, id, expected.tick, expected.version).changes > 0
    );
  }

  /** Records a run: when it fired, its messages (all IN_PROGRESS), or why it published nothing. */
  recordRun(id: string, at: number, states: Record<string, ScheduleRunState>, error?: string): boolean {
    return (
      this.sql
        .get('UPDATE schedules SET last_tick = ?, last_states = ?, error = ? WHERE id = ?')
        .run(at, JSON.stringify(states), error ?? null, id).changes > 0
    );
  }

  /**
   * Undoes a tick committed ahead of its time (see MessageTable.withdraw): the schedule waits for that tick
   * again and shows the run before it as its last. Only while that tick is still its last run; returns
   * whether it was.
   */
  unfire(id: string, tick: number, previous: ScheduleRun): boolean {
    return (
      this.sql
        .get(
          `UPDATE schedules SET next_tick = ?, last_tick = ?, last_states = ?, error = ?
           WHERE id = ? AND last_tick = ?`,
        )
        .run(
          tick,
          previous.lastTick ?? null,
          previous.lastStates ? JSON.stringify(previous.lastStates) : null,
          previous.error ?? null,
          id,
          tick,
        ).changes > 0
    );
  }

  /** The outcome of one of the last tick's messages (a message of an older tick changes nothing). */
  setRunState(id: string, messageId: string, state: ScheduleRunState): void {
    const path = `$."${messageId}"`;
    this.sql
      .get(
        `UPDATE schedules SET last_states = json_set(last_states, ?, ?)
         WHERE id = ? AND json_type(last_states, ?) IS NOT NULL`,
      )
      .run(path, state, id, path);
  }
}

export function scheduleStoreOf(store: StackStore): ScheduleTable {
  return store.group(ScheduleTable);
}
