// The one runner of every job (bulk work) of every service. Each job procedure's handler is
// `runner.handler(name, plan)`; the runner then does, the same way for all of them:
// 1. Lists the target — the ids given, or the pages of the plan's scan, up to JOB_SCAN_LIMIT — sending
//    `collecting` events. That list is the preview count and exactly what the job then acts on: nothing
//    is listed twice.
// 2. Waits for the renderer's start, which must carry the count the user confirmed. An empty filter never
//    gets here (the schemas refuse it, and so does this runner): "everything" is `all: true`, previewed
//    and started like any other target.
// 3. Writes the job to the journal and works through the list in chunks, with `progress` after each and a
//    journal line after each. Cancel (closing the job) aborts a scan in flight and stops before the next
//    chunk; after JOB_GIVE_UP_AFTER failed requests in a row the job gives up ("failed", resumable).
//    A failure that may pass (`jobWaitsThrough`: unreachable, 5xx, 429, a connect timeout — the stack restarting, a cloud
//    blip) is not a failed request: the job says it is `waiting`, waits (JOB_OUTAGE_WAITS_MS, growing) and
//    asks again for the items not done; it gives up only once those waits are spent (see `run`). The
//    listing waits the same way, then goes on from its cursor (`page`).
// 4. Ends with `done` and the summary. A job cut short (cancelled, failed, or interrupted by a console
//    exit) resumes from the journal (`jobs.resume`) at the chunk where it stopped.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BridgeError,
  type BridgeErrorData,
  jobWaitsThrough,
  mayHaveActed,
} from '../../../shared/bridge/errors';
import { formatDuration } from '../../../shared/duration';
import {
  EMPTY_FILTER_REFUSAL,
  hasAnyFilter,
  JOB_CHUNK,
  JOB_GIVE_UP_AFTER,
  JOB_SCAN_LIMIT,
  type JobEvent,
  type JobRecord,
  type JobSummary,
  type JobTarget,
  type JobTargetView,
} from '../../../shared/bridge/job';
import type { JobName, ParsedInputOf, ParsedStartOf } from '../../../shared/bridge/procedures';
import type { JobControl, JobHandler, StreamSink } from '../bridge/router';
import { type JobJournal, type JournaledJob, startCounts } from './journal';
import { type ChunkOutcome, type JobInput, type JobPlan, type JobScanPage, messageOf } from './plan';

/**
 * The waits of a job through a failure that may pass, one per ask again: 1, 2, 4, 8, then 15 s — 60 s in
 * all, and then the job gives up (resumable). The local stack's supervisor restarts a crashed stack within
 * 1–2 s, and a cloud service's 5xx blip or a 429 window is over within seconds to a minute; a service gone
 * for longer is an outage the user should hear about rather than watch a dialog wait through, and resume
 * continues at the same item later. Growing waits keep a struggling service from being asked every second.
 */
export const JOB_OUTAGE_WAITS_MS: readonly number[] = [1000, 2000, 4000, 8000, 15_000, 15_000, 15_000];

export interface JobRunnerOptions {
  /** The profile's name for the journal (the profile may be renamed or deleted later). */
  profileName(profileId: string): string;
  logError?: (message: string, error: unknown) => void;
  now?: () => number;
  /** The waits through a failure that may pass (tests make them short); JOB_OUTAGE_WAITS_MS by default. */
  outageWaitsMs?: readonly number[];
}

type AnyPlan = JobPlan<JobInput, unknown>;

export class JobRunner {
  private readonly plans = new Map<string, AnyPlan>();
  /** Jobs that have started and not ended, by id: one job never runs twice at once. */
  private readonly running = new Set<string>();

  constructor(
    readonly journal: JobJournal,
    private readonly options: JobRunnerOptions,
  ) {}

  /** The handler of a job procedure: its plan, run by this runner (and resumable by name). */
  handler<N extends JobName>(
    procedure: N,
    plan: JobPlan<ParsedInputOf<N> & JobInput, ParsedStartOf<N>>,
  ): JobHandler<N> {
    this.plans.set(procedure, plan as unknown as AnyPlan);
    return ((input: JobInput, sink: StreamSink<JobEvent>) =>
      new Job(this, plan as unknown as AnyPlan, sink, {
        procedure,
        input,
      }).open()) as unknown as JobHandler<N>;
  }

  /** `jobs.resume`: continues a journal entry from where it stopped, on its own plan. */
  resume: JobHandler<'jobs.resume'> = ({ profileId, jobId }, sink) => {
    const journaled = this.journal.load(jobId);
    if (!journaled) throw new BridgeError({ code: 'NOT_FOUND', message: `No job ${jobId} in the journal.` });
    const { record } = journaled;
    if (record.profileId !== profileId) {
      throw new BridgeError({ code: 'INVALID_INPUT', message: `Job ${jobId} belongs to another profile.` });
    }
    if (record.status === 'done') {
      throw new BridgeError({
        code: 'INVALID_INPUT',
        message: 'This job finished: nothing is left to resume.',
      });
    }
    if (this.running.has(jobId)) {
      throw new BridgeError({ code: 'INVALID_INPUT', message: 'This job is running.' });
    }
    const plan = this.plans.get(record.procedure);
    if (!plan) throw new Error(`no plan for ${record.procedure}`);
    return new Job(this, plan, sink as StreamSink<JobEvent>, { journaled }).open();
  };

  /** @internal */
  claim(id: string): boolean {
    if (this.running.has(id)) return false;
    this.running.add(id);
    return true;
  }

  /** @internal */
  release(id: string): void {
    this.running.delete(id);
  }

  /** @internal */
  get runnerOptions(): JobRunnerOptions {
    return this.options;
  }

  /** @internal */
  now(): number {
    return (this.options.now ?? Date.now)();
  }
}

type Opening = { procedure: string; input: JobInput } | { journaled: JournaledJob };

/** One open job, from its listing to its summary. */
class Job {
  private readonly id: string;
  private readonly input: JobInput;
  private readonly procedure: string;
  private items: string[] = [];
  private readonly seen = new Set<string>();
  /** Where the scan would continue (the preview stopped at the limit). */
  private cursor: string | undefined;
  private capped = false;
  private phase: 'collecting' | 'ready' | 'running' | 'ended' = 'collecting';
  private stopped = false;
  private readonly abort = new AbortController();
  private journaled: JournaledJob | undefined;
  /** Waits so far for the failure that may pass now (none since the service last answered), and their length. */
  private attempt = 0;
  private waitedMs = 0;
  /**
   * Items whose request, in an ask a failure that may pass cut short, may have reached the service (a 5xx,
   * a reset): the plan's `askedBefore`. Cleared once a chunk completes.
   */
  private readonly reached = new Set<string>();

  constructor(
    private readonly runner: JobRunner,
    private readonly plan: AnyPlan,
    private readonly sink: StreamSink<JobEvent>,
    opening: Opening,
  ) {
    if ('journaled' in opening) {
      this.journaled = opening.journaled;
      for (const item of opening.journaled.reached ?? []) this.reached.add(item);
      this.id = opening.journaled.record.id;
      this.input = opening.journaled.input as JobInput;
      this.procedure = opening.journaled.record.procedure;
    } else {
      this.id = randomUUID();
      this.input = opening.input;
      this.procedure = opening.procedure;
    }
  }

  open(): JobControl {
    void this.collect().catch((error: unknown) => this.fail(error));
    return {
      start: (options, confirmed) => this.start(options, confirmed),
      stop: () => this.stop(),
    };
  }

  private emit(event: JobEvent): void {
    this.sink.push(event);
  }

  private collected(done: boolean): void {
    const found = this.journaled ? this.journaled.items.length - this.journaled.next : this.items.length;
    this.emit({ type: 'collecting', jobId: this.id, found, done, capped: this.capped });
  }

  private async collect(): Promise<void> {
    if (this.journaled) {
      this.capped = this.journaled.cursor !== undefined;
      this.phase = 'ready';
      return this.collected(true);
    }
    const target = checkedTarget(this.input.target);
    if ('ids' in target) {
      this.add(target.ids);
      this.phase = 'ready';
      return this.collected(true);
    }
    let cursor: string | undefined;
    do {
      const listed = await this.page(cursor);
      if ('gaveUp' in listed) throw listed.error;
      if (this.stopped || !listed.page) return;
      const page = listed.page;
      this.add(page.items);
      if (this.items.length >= JOB_SCAN_LIMIT) {
        this.items = this.items.slice(0, JOB_SCAN_LIMIT);
        this.capped = page.cursor !== undefined || page.items.length > 0;
        if (this.plan.continuesScan && page.cursor && page.cursor !== cursor) this.cursor = page.cursor;
        break;
      }
      // A cursor that does not move would loop forever: the end.
      cursor = page.cursor && page.cursor !== cursor ? page.cursor : undefined;
      if (cursor) this.collected(false);
    } while (cursor);
    this.phase = 'ready';
    this.collected(true);
  }

  private add(items: readonly string[]): void {
    for (const item of items) {
      if (this.seen.has(item)) continue;
      this.seen.add(item);
      this.items.push(item);
    }
  }

  private start(options: unknown, confirmed: number): void {
    if (this.phase !== 'ready') {
      return this.fail(
        new BridgeError({ code: 'INVALID_INPUT', message: 'This job is not waiting for a start.' }),
      );
    }
    const listed = this.journaled ? this.journaled.items.length - this.journaled.next : this.items.length;
    if (confirmed !== listed) {
      return this.fail(
        new BridgeError({
          code: 'INVALID_INPUT',
          message: `The preview listed ${listed} and the start confirmed ${confirmed}: nothing was sent. Preview again.`,
        }),
      );
    }
    if (!this.runner.claim(this.id)) {
      return this.fail(new BridgeError({ code: 'INVALID_INPUT', message: 'This job is running.' }));
    }
    this.phase = 'running';
    const job = this.journaled ?? this.begin(options);
    if (this.journaled) this.runner.journal.resumed(job);
    void this.run(job)
      .catch((error: unknown) => this.fail(error, job))
      .finally(() => this.runner.release(this.id));
  }

  private begin(options: unknown): JournaledJob {
    const { profileId } = this.input;
    const target = this.input.target;
    const record: JobRecord = {
      id: this.id,
      procedure: this.procedure,
      service: this.plan.service,
      profileId,
      profileName: this.profileName(profileId),
      action: this.plan.action(this.input, options),
      description: this.input.description ?? describeTarget(target, this.plan.noun),
      target: targetView(target),
      options: (options ?? {}) as Record<string, unknown>,
      startedAt: this.runner.now(),
      status: 'running',
      ...startCounts(this.items.length),
    };
    const job: JournaledJob = { record, input: this.input, items: this.items, next: 0 };
    if (this.cursor !== undefined) job.cursor = this.cursor;
    this.runner.journal.begin(job);
    return job;
  }

  private profileName(profileId: string): string {
    try {
      return this.runner.runnerOptions.profileName(profileId);
    } catch {
      return profileId;
    }
  }

  private async run(job: JournaledJob): Promise<void> {
    const { record } = job;
    const journal = this.runner.journal;
    const chunk = this.plan.chunk ?? JOB_CHUNK;
    this.emit({ type: 'started', jobId: record.id, total: record.total });
    this.progress(record);
    let failedInARow = 0;
    let gaveUp: string | undefined;
    for (;;) {
      if (this.stopped) break;
      if (job.next >= job.items.length) {
        if (!job.cursor || !this.plan.continuesScan) break;
        const before = job.cursor;
        const listed = await this.page(before, job);
        if ('gaveUp' in listed) {
          gaveUp = `${listed.gaveUp} while listing; resume continues the listing where it stopped`;
          break;
        }
        const page = listed.page;
        if (!page) break;
        const fresh = page.items.filter((item) => !this.seen.has(item));
        for (const item of fresh) this.seen.add(item);
        journal.more(job, fresh, page.cursor && page.cursor !== before ? page.cursor : undefined);
        this.progress(record);
        continue;
      }
      const items = job.items.slice(job.next, job.next + chunk);
      const outcome = await this.act(items, job.record.options);
      const interrupted = outcome.interrupted;
      const done = items.length - (interrupted?.left ?? 0);
      if (done > 0) {
        journal.chunk(job, done, outcome);
        this.progress(record);
      }
      if (interrupted) {
        // A failure that may pass: wait, then ask again from the first item not done. Asking again cannot
        // act twice on an item, and the counts stay right:
        // - the items done before the failure (a oneByOne chunk) are journaled above and not sent again;
        // - pause, resume, reset, cancel and delete end the same however often they are sent — an item
        //   the first ask did reach counts as already gone (countedOutcome) or not found, as any item gone
        //   before the job got to it;
        // - DLQ retry, restart and resume are claimed per entry by the service: an entry the first ask did
        //   take answers not found the second time. The runner remembers which items' requests may have
        //   reached the service (`reached`: a 5xx, a reset — not a refused connection nor a 429), and the
        //   plans count such an item as done by that first ask (`unconfirmed`), not failed; the new message
        //   or run it made is then not in `created`: its answer never got to us;
        // - the failure callback is sent again each time it is asked: its plan does not ask again for an
        //   item whose request may have reached the service (oneByOne's `repeatable`), only for one the
        //   failure proves was never sent (a refused connection, DNS: `neverSent`).
        const left = items.slice(items.length - interrupted.left);
        const reached = interrupted.reached ?? (mayHaveActed(interrupted.error) ? left : []);
        for (const item of reached) this.reached.add(item);
        if (this.stopped) break;
        if (outcome.succeeded + (outcome.skipped ?? 0) > 0) this.outageOver();
        const stop = await this.waitThrough(interrupted.error, job);
        if (stop) {
          gaveUp = `${stop}; resume continues at item ${job.next + 1}`;
          break;
        }
        continue;
      }
      this.reached.clear();
      this.outageOver();
      const failed = outcome.succeeded + (outcome.skipped ?? 0) === 0 && (outcome.failures?.length ?? 0) > 0;
      failedInARow = failed ? failedInARow + 1 : 0;
      if (failedInARow >= JOB_GIVE_UP_AFTER && (job.next < job.items.length || job.cursor)) {
        gaveUp = `stopped after ${JOB_GIVE_UP_AFTER} failed requests in a row; resume continues at item ${job.next + 1}`;
        break;
      }
    }
    const status = gaveUp ? 'failed' : this.stopped ? 'cancelled' : 'done';
    journal.end(job, status, gaveUp);
    this.runner.release(record.id);
    this.phase = 'ended';
    this.emit({ type: 'done', summary: summaryOf(record) });
    this.sink.end();
  }

  /**
   * One page of the listing from `cursor`. A failure that may pass is waited through as a chunk's is (the
   * `waiting` event, a journal line once the job is in the journal), then the same page is asked again;
   * `gaveUp` (with the last failure) once the waits are spent. No page once the job was cancelled.
   */
  private async page(
    cursor: string | undefined,
    job?: JournaledJob,
  ): Promise<{ page?: JobScanPage } | { gaveUp: string; error: unknown }> {
    for (;;) {
      try {
        const page = await this.plan.scan(this.input, cursor, this.abort.signal);
        this.outageOver();
        return this.stopped ? {} : { page };
      } catch (error) {
        if (this.stopped) return {};
        if (!jobWaitsThrough(error)) throw error;
        const stop = await this.waitThrough(error, job);
        if (stop) return { gaveUp: stop, error };
        if (this.stopped) return {};
      }
    }
  }

  /** The service answered: the next failure that may pass starts the waits over. */
  private outageOver(): void {
    this.attempt = 0;
    this.waitedMs = 0;
  }

  /**
   * Waits through a failure that may pass before asking again (cancel ends the wait at once): says so with a
   * `waiting` event, and in the journal once the job is there. Answers why the job should stop instead:
   * the waits are spent, or the service asks to be left alone for longer than the waits left.
   */
  private async waitThrough(error: unknown, job: JournaledJob | undefined): Promise<string | undefined> {
    const reason = outageReason(error);
    const scheduled = this.outageWaits[this.attempt];
    if (scheduled === undefined) {
      return `the service kept failing for ${Math.round(this.waitedMs / 1000)} s (${reason})`;
    }
    // A service that said how long to leave it alone (Retry-After, a rate-limit reset) is asked again no
    // sooner. One that asks for longer than the waits left (a daily limit) is not waited for: the job
    // stops now, saying until when, rather than keep the dialog open to give up anyway.
    const asked = error instanceof BridgeError ? error.retryAfterMs : undefined;
    if (asked !== undefined && asked > this.waitsLeftMs(this.attempt)) {
      return `the service asks to wait ${formatDuration(asked)}, until ${new Date(this.runner.now() + asked).toISOString()} (${reason})`;
    }
    const wait = Math.max(scheduled, asked ?? 0);
    this.attempt += 1;
    this.waitedMs += wait;
    if (job) this.runner.journal.waiting(job, wait, reason, [...this.reached]);
    this.emit({ type: 'waiting', reason, attempt: this.attempt + 1, delayMs: wait });
    await sleep(wait, undefined, { signal: this.abort.signal }).catch(() => undefined);
    return undefined;
  }

  private get outageWaits(): readonly number[] {
    return this.runner.runnerOptions.outageWaitsMs ?? JOB_OUTAGE_WAITS_MS;
  }

  /** The waits of the schedule from the `attempt`-th on, added up: how long the job would still wait. */
  private waitsLeftMs(attempt: number): number {
    return this.outageWaits.slice(attempt).reduce((sum, ms) => sum + ms, 0);
  }

  /**
   * One chunk; a request that failed as a whole fails each of its items with its text — unless the failure
   * may pass: then the whole chunk is `interrupted`, to be asked again.
   */
  private async act(items: string[], options: unknown): Promise<ChunkOutcome> {
    try {
      return await this.plan.act(items, this.input, options, {
        stopped: () => this.stopped,
        askedBefore: (item) => this.reached.has(item),
      });
    } catch (error) {
      if (jobWaitsThrough(error)) {
        return { succeeded: 0, interrupted: { left: items.length, error } };
      }
      const message = messageOf(error);
      return { succeeded: 0, failures: items.map((id) => ({ id, message })) };
    }
  }

  private progress(record: JobRecord): void {
    this.emit({
      type: 'progress',
      total: Math.max(record.total, record.processed),
      processed: record.processed,
      succeeded: record.succeeded,
      failed: record.failed,
    });
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    // Before the start nothing was written: the job simply ends. A running job ends after its chunk.
    if (this.phase === 'collecting' || this.phase === 'ready') {
      this.phase = 'ended';
      this.sink.end();
    }
  }

  private fail(error: unknown, job?: JournaledJob): void {
    if (job && job.record.status === 'running') this.runner.journal.end(job, 'failed', messageOf(error));
    if (job) this.runner.release(job.record.id);
    this.phase = 'ended';
    if (this.stopped && !job) return;
    this.sink.end(errorData(error, this.procedure, this.runner.runnerOptions.logError));
  }
}

/** Why a job waits, in the service's words: "HTTP 503: …", or the connection's failure. */
function outageReason(error: unknown): string {
  const message = messageOf(error);
  const text = message.length > 300 ? `${message.slice(0, 300)}…` : message;
  const status = error instanceof BridgeError ? error.status : undefined;
  return status !== undefined ? `HTTP ${status}: ${text}` : text;
}

/** Defense in depth behind the schemas: an empty filter is refused here too, never taken as "all". */
function checkedTarget(target: JobTarget): JobTarget {
  if ('filters' in target && !hasAnyFilter(target.filters)) {
    throw new BridgeError({ code: 'INVALID_INPUT', message: EMPTY_FILTER_REFUSAL });
  }
  if ('all' in target && target.all !== true) {
    throw new BridgeError({ code: 'INVALID_INPUT', message: EMPTY_FILTER_REFUSAL });
  }
  return target;
}

function targetView(target: JobTarget): JobTargetView {
  if ('ids' in target) return { ids: target.ids.length };
  if ('filters' in target) return { filters: target.filters };
  return { all: true };
}

/** "3 selected DLQ entries", "DLQ entries matching label nightly", "every DLQ entry". */
export function describeTarget(target: JobTarget, [one, many]: readonly [string, string]): string {
  if ('ids' in target)
    return target.ids.length === 1 ? `${one} ${target.ids[0]}` : `${target.ids.length} selected ${many}`;
  if ('all' in target) return `every ${one}`;
  const parts = Object.entries(target.filters)
    .filter(([, value]) => value !== undefined && !(Array.isArray(value) && value.length === 0))
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(', ') : String(value)}`);
  return `${many} matching ${parts.join('; ')}`;
}

export function summaryOf(record: JobRecord): JobSummary {
  const summary: JobSummary = {
    jobId: record.id,
    action: record.action,
    status: record.status === 'done' || record.status === 'failed' ? record.status : 'cancelled',
    total: record.total,
    processed: record.processed,
    succeeded: record.succeeded,
    skipped: record.skipped,
    failed: record.failed,
    failures: record.failures,
    created: record.created,
  };
  if (record.unconfirmed) summary.unconfirmed = record.unconfirmed;
  if (record.error) summary.error = record.error;
  return summary;
}

function errorData(
  error: unknown,
  procedure: string,
  logError: JobRunnerOptions['logError'],
): BridgeErrorData {
  if (error instanceof BridgeError) return error.toData();
  logError?.(`job ${procedure} failed`, error);
  return {
    code: 'INTERNAL',
    message: `The job hit an unexpected error in "${procedure}". Details are in the console log.`,
  };
}
