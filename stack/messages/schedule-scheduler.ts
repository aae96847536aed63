// The scheduler: fires each schedule's ticks as publishes. SQLite holds the truth (every schedule and its
// next tick); this module keeps a heap of next ticks in memory and one timer on the stack's clock for the
// earliest, so that finding what is due never polls SQL, and advancing the clock fires what falls due.
//
// The missed-tick rule: when the scheduler gets to a schedule after its tick has passed — the stack was down,
// the event loop was stalled, or the clock was moved past it — the schedule fires ONCE, now, for all the
// ticks it missed, and then waits for its first tick after now. A paused schedule misses its ticks for good.
//
// No tick fires twice: a tick's messages are inserted in the same transaction that moves the schedule from
// that tick to the next one, and only if the schedule still waits for that tick (schedule-write-ops.ts).
//
// Committing ahead: a tick's messages are planned and committed PLAN_AHEAD_MS before it (the schedules read,
// each publish planned, the rows written as messages due at the tick), so that at the tick only their
// deliveries remain — the engine holds them like any delayed message. 1,000 schedules due in one minute took
// 150–220 ms to plan and 60–90 ms to commit, all of it lateness when done at the tick. A schedule paused,
// updated or deleted between that commit and its tick is left out of the tick: the change takes the tick's
// messages back in its own transaction (withdrawal(), before they were attempted) and the schedule waits for
// the tick again, so an updated one fires at it from its new version. A crash in between keeps the committed
// tick: its messages are delivered after the restart like any other pending message, once.
import type { Logger } from 'pino';
import { nextTick, storedCronSpec, type CronSpec } from '../../shared/messages/cron';
import type { ScheduleRunState } from '../../shared/messages/schedules';
import type { Timer } from '../clock';
import {
  scheduleStoreOf,
  type ScheduleRecord,
  type ScheduleRun,
  type ScheduleTable,
} from '../store/schedules';
import type { EngineHooks } from './engine';
import { MinHeap } from './heap';
import { type PlannedMessage, PublishError } from './publish-request';
import { planTick } from './schedule-request';
import type { ScheduleWrite, ScheduleWriter } from './schedule-write-ops';
import type { ServiceContext } from './service-context';
import { prepareInsert, type InsertResult } from './write-ops';

interface Entry {
  id: string;
  cron: CronSpec;
  /** The tick the stored schedule waits for (its `next_tick`). */
  nextTick: number;
  /** Bumped whenever the entry re-enters the heap, so that stale heap items are skipped. */
  ticket: number;
}

interface HeapRef {
  dueAt: number;
  seq: number;
  entry: Entry;
  ticket: number;
}

/** After a tick could not be written (a database error), try it again this much later. */
const RETRY_MS = 5_000;

/** How long before a tick its messages are planned and committed. */
export const PLAN_AHEAD_MS = 1_000;

/** One schedule's part of a firing, planned: the write that fires it and how to start its messages. */
interface PlannedRun {
  entry: Entry;
  /** The tick it fires (the stored next tick the write expects). */
  expected: number;
  /** The fire write without its next tick, which is only known when it commits (see commitRuns). */
  write(next: number | null, now: number): ScheduleWrite;
  insert?: { planned: PlannedMessage[]; result(outcomes: unknown): InsertResult; messageIds: string[] };
  /** The schedule's last run before this one (to take the tick back, see AheadTick). */
  previous: ScheduleRun;
}

/** A schedule's tick committed ahead of its time: what it takes to withdraw it before the tick. */
interface AheadTick {
  tick: number;
  messageIds: string[];
  previous: ScheduleRun;
  /** Settles when the commit that fired the tick did. */
  committed: Promise<unknown>;
}

const FINAL_STATES: Partial<Record<string, ScheduleRunState>> = {
  DELIVERED: 'SUCCESS',
  FAILED: 'FAIL',
  CANCELLED: 'FAIL',
};

export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly heap = new MinHeap<HeapRef>();
  private readonly table: ScheduleTable;
  private order = 0;
  private timer: Timer | undefined;
  private timerDue = Infinity;
  private immediate: NodeJS.Immediate | undefined;
  /** Ticks committed ahead whose time has not come (or had not at the last look), by schedule id. */
  private readonly ahead = new Map<string, AheadTick>();
  private stopped = false;

  constructor(
    private readonly service: ServiceContext,
    private readonly writer: ScheduleWriter,
    private readonly logger: Logger,
  ) {
    this.table = scheduleStoreOf(service.store);
  }

  /** Loads every active schedule; those whose tick passed while the stack was down fire once, at once. */
  start(): void {
    const now = this.service.clock.now();
    let count = 0;
    for (const row of this.table.active()) {
      const cron = storedCronSpec(row.cron);
      const tick = row.nextTick ?? nextTick(cron, now);
      if (tick === undefined) continue;
      this.put({ id: row.id, cron, nextTick: tick, ticket: 0 });
      count++;
    }
    this.arm();
    this.logger.info({ schedules: count }, 'scheduler started');
  }

  stop(): void {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = undefined;
    if (this.immediate) clearImmediate(this.immediate);
    this.ahead.clear();
  }

  /** Takes a schedule as just committed (created, updated, paused or resumed). */
  apply(schedule: ScheduleRecord): void {
    // A new entry: heap items of the old one no longer match it and are skipped.
    this.entries.delete(schedule.id);
    if (schedule.paused || schedule.nextTick === undefined) return;
    this.put({
      id: schedule.id,
      cron: storedCronSpec(schedule.cron),
      nextTick: schedule.nextTick,
      ticket: 0,
    });
    this.arm();
  }

  /** Forgets a deleted schedule. */
  remove(id: string): void {
    this.entries.delete(id);
  }

  /** The schedule whose tick falls due first (the stack clock's next due item, stack/local/). */
  nextDue(): { id: string; dueAt: number } | undefined {
    let first: { id: string; dueAt: number } | undefined;
    for (let top = this.heap.peek(); top; top = this.heap.peek()) {
      if (this.current(top)) {
        first = { id: top.entry.id, dueAt: top.dueAt };
        break;
      }
      this.heap.pop();
    }
    // A tick committed ahead is the engine's from then on: its messages are pending, due at the tick.
    return first;
  }

  /** When the schedule's next tick is due; undefined for an unknown or paused schedule. */
  nextTickOf(id: string): number | undefined {
    return this.entries.get(id)?.nextTick;
  }

  /** How many schedules wait for a tick (for logs and tests). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * Trigger now: one run of the schedule's publish, outside its cron (the next tick stays). Resolves with the
   * new message ids, undefined for an unknown schedule; a publish the schedule can no longer make (its URL
   * group is gone) is a PublishError.
   */
  async trigger(id: string): Promise<string[] | undefined> {
    const schedule = this.table.get(id);
    if (!schedule) return undefined;
    const now = this.service.clock.now();
    const planned = planTick(this.service, schedule);
    const insert = prepareInsert(planned, now);
    const [outcomes] = await this.writer.commitAll([['triggerSchedule', id, insert.prepared, now]]);
    if (outcomes === null) return undefined;
    const result = insert.result(outcomes);
    this.service.engine.addInserted(result, planned);
    return result.results.map((item) => item.messageId);
  }

  /**
   * Before a schedule is paused, updated or deleted: when its next tick was committed ahead and none of its
   * messages was attempted yet, the write that takes the tick back, for the caller to commit first in the same
   * transaction as the change. Its messages are forgotten by the engine at once, so they can no longer start.
   * Undefined when there is nothing to take back (the tick came first: the change applies from the next one).
   */
  async withdrawal(id: string): Promise<ScheduleWrite | undefined> {
    const run = this.ahead.get(id);
    if (!run) return undefined;
    await run.committed.catch(() => undefined);
    if (this.ahead.get(id) !== run) return undefined;
    this.ahead.delete(id);
    if (run.tick <= this.service.clock.now()) return undefined;
    if (!this.service.engine.withdrawPending(run.messageIds)) return undefined;
    return ['withdrawTick', id, run.tick, run.messageIds, run.previous];
  }

  /** The engine hook that records how the last tick's messages ended (lastScheduleStates). */
  hooks(): EngineHooks {
    return {
      onOutcome: (record, outcome) => {
        const scheduleId = record.spec.scheduleId;
        const state = FINAL_STATES[outcome.state];
        if (scheduleId === undefined || state === undefined) return undefined;
        return { calls: [['setScheduleRunState', scheduleId, record.id, state] satisfies ScheduleWrite] };
      },
    };
  }

  // ------------------------------------------------------------------ timing

  private put(entry: Entry, dueAt = entry.nextTick): void {
    this.entries.set(entry.id, entry);
    entry.ticket++;
    this.heap.push({ dueAt, seq: this.order++, entry, ticket: entry.ticket });
  }

  /** Whether a heap item is still the schedule's wait for its next tick. */
  private current(ref: HeapRef): boolean {
    return ref.ticket === ref.entry.ticket && this.entries.get(ref.entry.id) === ref.entry;
  }

  /**
   * One timer on the stack's clock, PLAN_AHEAD_MS before the earliest tick; what is already due (or to be
   * planned) runs on the next turn.
   */
  private arm(): void {
    if (this.stopped) return;
    const top = this.heap.peek();
    if (!top) return;
    const now = this.service.clock.now();
    const wakeAt = top.dueAt - PLAN_AHEAD_MS;
    if (wakeAt <= now) {
      this.timer?.cancel();
      this.timer = undefined;
      this.timerDue = Infinity;
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        this.onTimer();
      });
      return;
    }
    if (this.timer && this.timerDue <= wakeAt) return;
    this.timer?.cancel();
    this.timerDue = wakeAt;
    this.timer = this.service.clock.setTimer(() => {
      this.timer = undefined;
      this.timerDue = Infinity;
      // On the next turn, not at its own time: when the stack clock is advanced past several ticks, this
      // runs once the advance is over, so the missed ticks fire once, now (the missed-tick rule).
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        this.onTimer();
      });
    }, wakeAt - now);
  }

  /** Fires what is due now, and plans the ticks due within PLAN_AHEAD_MS for their time. */
  private onTimer(): void {
    if (this.stopped) return;
    const now = this.service.clock.now();
    const due: Entry[] = [];
    const ahead = new Map<number, Entry[]>();
    for (let top = this.heap.peek(); top && top.dueAt - PLAN_AHEAD_MS <= now; top = this.heap.peek()) {
      this.heap.pop();
      if (!this.current(top)) continue;
      if (top.dueAt <= now) due.push(top.entry);
      else {
        const batch = ahead.get(top.dueAt);
        if (batch) batch.push(top.entry);
        else ahead.set(top.dueAt, [top.entry]);
      }
    }
    if (due.length > 0) this.commitRuns(this.planRuns(due, now), now);
    for (const [tick, entries] of ahead) this.planAhead(tick, entries);
    this.arm();
  }

  /**
   * Plans a tick's runs and commits them now, as messages due at the tick (see "Committing ahead" above); each
   * committed run is remembered until its tick, so that a change to its schedule can take it back.
   */
  private planAhead(tick: number, entries: Entry[]): void {
    const now = this.service.clock.now();
    for (const [id, run] of this.ahead) if (run.tick <= now) this.ahead.delete(id);
    const runs = this.planRuns(entries, tick);
    // Written as at the tick: the run's time, its messages' creation and the schedule's following tick.
    const committed = this.commitRuns(runs, tick);
    for (const { entry, insert, previous } of runs) {
      if (insert) this.ahead.set(entry.id, { tick, messageIds: insert.messageIds, previous, committed });
    }
  }

  /**
   * Plans the runs of schedules whose tick is due at `at` (now, or a tick ahead): reads each schedule and
   * plans its tick's publish as at `at`. A schedule gone or paused is forgotten.
   */
  private planRuns(entries: Entry[], at: number): PlannedRun[] {
    const runs: PlannedRun[] = [];
    for (const entry of entries) {
      const schedule = this.table.get(entry.id);
      if (!schedule || schedule.paused) {
        if (this.entries.get(entry.id) === entry) this.entries.delete(entry.id);
        continue;
      }
      const expected = entry.nextTick;
      const tick = { tick: expected, version: schedule.updatedAt };
      const previous: ScheduleRun = {
        lastTick: schedule.lastTick,
        lastStates: schedule.lastStates,
        error: schedule.error,
      };
      try {
        const planned = planTick(this.service, schedule, at);
        const insert = prepareInsert(planned, at);
        runs.push({
          entry,
          expected,
          write: (next, now) => ['fireSchedule', entry.id, tick, next, insert.prepared, now],
          insert: { planned, result: insert.result, messageIds: insert.prepared.map(({ row }) => row.id) },
          previous,
        });
      } catch (error) {
        if (!(error instanceof PublishError)) throw error;
        runs.push({
          entry,
          expected,
          write: (next, now) => ['scheduleTickFailed', entry.id, tick, next, now, error.message],
          previous,
        });
      }
    }
    return runs;
  }

  /**
   * Fires planned runs in one transaction. Each schedule moves on in memory at once, to its first tick after
   * now (the missed-tick rule); the store agrees once the transaction commits. A run whose schedule changed
   * since it was planned (updated, paused, deleted: its entry was replaced or dropped) is left out. `now` is
   * the tick itself for a tick committed ahead. Resolves when the transaction is over (never rejects).
   */
  private commitRuns(all: PlannedRun[], now: number): Promise<void> {
    const runs = all.filter(({ entry, expected }) => {
      return this.entries.get(entry.id) === entry && entry.nextTick === expected;
    });
    if (runs.length === 0) return Promise.resolve();
    // Schedules that fire together often share a cron ("* * * * *"): ask croner once per expression (a call
    // costs it about a millisecond on a busy machine). Strictly after the tick fired, even if a timer ran a
    // little early.
    const nextByCron = new Map<string, number | null>();
    const following = (cron: CronSpec, after: number): number | null => {
      const key = `${after} ${cron.text}`;
      let next = nextByCron.get(key);
      if (next === undefined) {
        next = nextTick(cron, after) ?? null;
        nextByCron.set(key, next);
      }
      return next;
    };
    const calls: ScheduleWrite[] = [];
    for (const run of runs) {
      const { entry } = run;
      const next = following(entry.cron, Math.max(now, run.expected));
      calls.push(run.write(next, now));
      if (next === null) this.entries.delete(entry.id);
      else {
        entry.nextTick = next;
        this.put(entry);
      }
    }
    this.arm();
    return this.writer
      .commitAll(calls)
      .then((results) => {
        if (this.stopped) return;
        results.forEach((outcomes, index) => {
          const insert = runs[index]?.insert;
          if (insert && outcomes !== null) {
            this.service.engine.addInserted(insert.result(outcomes), insert.planned);
          }
        });
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error, schedules: runs.length }, 'could not fire schedules; retrying');
        // Nothing of the transaction was kept: the store still waits for the same ticks.
        for (const { entry, expected } of runs) {
          if (this.entries.get(entry.id) !== entry) continue;
          entry.nextTick = expected;
          this.put(entry, this.service.clock.now() + RETRY_MS);
        }
        this.arm();
      });
  }
}
