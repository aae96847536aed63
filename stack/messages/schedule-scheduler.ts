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
import type { Logger } from 'pino';
import { nextTick, type CronSpec } from '../../shared/messages/cron';
import type { ScheduleRunState } from '../../shared/messages/schedules';
import type { Timer } from '../clock';
import { scheduleStoreOf, type ScheduleRecord, type ScheduleTable } from '../store/schedules';
import type { EngineHooks } from './engine';
import { MinHeap } from './heap';
import { type PlannedMessage, PublishError } from './publish-request';
import { planTick, storedCron } from './schedule-request';
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
      const cron = storedCron(row.cron);
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
  }

  /** Takes a schedule as just committed (created, updated, paused or resumed). */
  apply(schedule: ScheduleRecord): void {
    // A new entry: heap items of the old one no longer match it and are skipped.
    this.entries.delete(schedule.id);
    if (schedule.paused || schedule.nextTick === undefined) return;
    this.put({ id: schedule.id, cron: storedCron(schedule.cron), nextTick: schedule.nextTick, ticket: 0 });
    this.arm();
  }

  /** Forgets a deleted schedule. */
  remove(id: string): void {
    this.entries.delete(id);
  }

  /** The schedule whose tick falls due first (the stack clock's next due item, stack/local/). */
  nextDue(): { id: string; dueAt: number } | undefined {
    for (let top = this.heap.peek(); top; top = this.heap.peek()) {
      if (top.ticket === top.entry.ticket && this.entries.get(top.entry.id) === top.entry) {
        return { id: top.entry.id, dueAt: top.dueAt };
      }
      this.heap.pop();
    }
    return undefined;
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

  /** One timer on the stack's clock for the earliest tick; what is already due runs on the next turn. */
  private arm(): void {
    if (this.stopped) return;
    const top = this.heap.peek();
    if (!top) return;
    const now = this.service.clock.now();
    if (top.dueAt <= now) {
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        this.onTimer();
      });
      return;
    }
    if (this.timer && this.timerDue <= top.dueAt) return;
    this.timer?.cancel();
    this.timerDue = top.dueAt;
    this.timer = this.service.clock.setTimer(() => {
      this.timer = undefined;
      this.timerDue = Infinity;
      // On the next turn, not at the tick's own time: when the stack clock is advanced past several ticks,
      // this runs once the advance is over, so the missed ticks fire once, now (the missed-tick rule).
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        this.onTimer();
      });
    }, top.dueAt - now);
  }

  private onTimer(): void {
    if (this.stopped) return;
    const now = this.service.clock.now();
    const due: Entry[] = [];
    for (let top = this.heap.peek(); top && top.dueAt <= now; top = this.heap.peek()) {
      this.heap.pop();
      if (top.ticket === top.entry.ticket && this.entries.get(top.entry.id) === top.entry)
        due.push(top.entry);
    }
    if (due.length > 0) this.fire(due, now);
    this.arm();
  }

  /**
   * Fires due schedules in one transaction. Each moves on in memory at once (to its first tick after now:
   * the missed-tick rule); the store agrees once the transaction commits.
   */
  private fire(due: Entry[], now: number): void {
    const calls: ScheduleWrite[] = [];
    // Schedules that fire together often share a cron ("* * * * *"): ask croner once per expression (a call
    // costs it about a millisecond on a busy machine).
    const nextByCron = new Map<string, number | null>();
    const following = (cron: CronSpec): number | null => {
      let next = nextByCron.get(cron.text);
      if (next === undefined) {
        next = nextTick(cron, now) ?? null;
        nextByCron.set(cron.text, next);
      }
      return next;
    };
    const inserts: ({ planned: PlannedMessage[]; result(outcomes: unknown): InsertResult } | undefined)[] =
      [];
    const fired: { entry: Entry; expected: number }[] = [];
    for (const entry of due) {
      const schedule = this.table.get(entry.id);
      if (!schedule || schedule.paused) {
        this.entries.delete(entry.id);
        continue;
      }
      const expected = entry.nextTick;
      const next = following(entry.cron);
      try {
        const planned = planTick(this.service, schedule);
        const insert = prepareInsert(planned, now);
        calls.push(['fireSchedule', entry.id, expected, next, insert.prepared, now]);
        inserts.push({ planned, result: insert.result });
      } catch (error) {
        if (!(error instanceof PublishError)) throw error;
        calls.push(['scheduleTickFailed', entry.id, expected, next, now, error.message]);
        inserts.push(undefined);
      }
      fired.push({ entry, expected });
      if (next === null) this.entries.delete(entry.id);
      else {
        entry.nextTick = next;
        this.put(entry);
      }
    }
    if (calls.length === 0) return;
    this.writer
      .commitAll(calls)
      .then((results) => {
        if (this.stopped) return;
        results.forEach((outcomes, index) => {
          const insert = inserts[index];
          if (insert && outcomes !== null) {
            this.service.engine.addInserted(insert.result(outcomes), insert.planned);
          }
        });
      })
      .catch((error: unknown) => {
        this.logger.error({ err: error, schedules: fired.length }, 'could not fire schedules; retrying');
        // Nothing of the transaction was kept: the store still waits for the same ticks.
        for (const { entry, expected } of fired) {
          if (this.entries.get(entry.id) !== entry) continue;
          entry.nextTick = expected;
          this.put(entry, this.service.clock.now() + RETRY_MS);
        }
        this.arm();
      });
  }
}
