// The runtime's waiters (context.waitForEvent and context.createWebhook): registering a wait — or satisfying it
// at once from the lookback —, notify, webhook calls, and the timeout of every waiter. Part of the runtime
// (runtime.waiters): the routes (routes-protocol.ts) only read requests and shape replies.
import type { RunHistoryEvent } from '../../shared/workflows/types';
import type { Timer } from '../clock';
import type { RunRecord, WaiterData, WaiterKind, WaiterRecord } from '../store/workflow-store';
import { historyCall } from './history-writes';
import { planStep, stepKeyOf } from './plan';
import type { PlannedAppend, WorkflowRuntime } from './runtime';

/** A wait a run asks for (POST /v2/wait/{eventId}). */
export interface WaitRequest extends WaiterData {
  eventId: string;
  kind: WaiterKind;
  /** The timeout as the SDK sent it (`timeout`), in ms. */
  timeoutMs: number;
}

/** A run a notify served: the waiter it ended and the result step's message. */
export interface Served {
  waiter: WaiterRecord;
  messageId: string;
  run: RunRecord | undefined;
}

export class RunWaiters {
  private readonly timers = new Map<number, Timer>();
  private stopped = false;

  constructor(private readonly runtime: WorkflowRuntime) {}

  /**
   * Registers a wait of an active run, or — when a run-scoped notify or a webhook call arrived first (the
   * lookback) — ends it at once with that event. False when the run is not active any more.
   */
  async wait(run: RunRecord, request: WaitRequest): Promise<boolean> {
    const { runtime } = this;
    const { eventId, kind, timeoutMs, ...data } = request;
    const now = runtime.clock.now();
    const started = (deadline: number): ReturnType<typeof historyCall> =>
      historyCall(run.seq, {
        kind: 'waitStarted',
        time: now,
        eventId,
        timeout: data.timeout,
        deadline,
        ...(typeof data.step.stepName === 'string' ? { stepName: data.step.stepName } : {}),
        ...(kind === 'webhook' ? { webhook: true } : {}),
      });
    const early = runtime.store.lookbackEvent(run.seq, eventId);
    if (early) {
      const waiter: WaiterRecord = {
        ...data,
        seq: -1,
        eventId,
        runSeq: run.seq,
        kind,
        createdAt: now,
        deadline: now,
      };
      const append = this.result(run, waiter, waitStep(waiter, early));
      delete append.item.waiterSeq;
      append.item.consumeEvent = eventId;
      const { call, committed } = runtime.appendCall([append], now);
      committed((await runtime.writer.commitAll([call, started(now)]))[0]);
      return true;
    }
    const waiter = { ...data, eventId, runSeq: run.seq, kind, createdAt: now, deadline: now + timeoutMs };
    const [seq] = await runtime.writer.commitAll([['wfAddWaiter', waiter], started(waiter.deadline)]);
    if (seq === null) return false;
    this.arm({ ...waiter, seq });
    return true;
  }

  /**
   * Ends the waits for `eventId` (of one run, or of every run) with `data`. Each served run records the notify
   * (`notified`); when a run named by a scoped notify does not wait yet, the event is kept for its next wait.
   */
  async notify(
    eventId: string,
    data: Buffer,
    run: RunRecord | undefined,
    notified: (time: number, kept?: boolean) => RunHistoryEvent,
  ): Promise<Served[]> {
    const { runtime } = this;
    const appends: PlannedAppend[] = [];
    const waiting: WaiterRecord[] = [];
    for (const waiter of runtime.store.waitersFor(eventId, 'wait', run?.seq)) {
      const owner = runtime.store.run(waiter.runSeq);
      if (!owner || owner.state !== 'RUN_STARTED') continue;
      const append = this.result(owner, waiter, waitStep(waiter, data));
      append.item.history = notified(runtime.clock.now());
      appends.push(append);
      waiting.push(waiter);
    }
    // A run whose wait ended meanwhile appends nothing, so records nothing.
    const results = appends.length > 0 ? await runtime.append(appends) : [];
    const served = waiting.flatMap((waiter, index): Served[] =>
      results[index]
        ? [
            {
              waiter,
              messageId: appends[index]?.item.entry.messageId as string,
              run: runtime.store.run(waiter.runSeq),
            },
          ]
        : [],
    );
    if (run && served.length === 0) {
      // Nobody waits yet: keep it for the run's next wait on this event.
      const now = runtime.clock.now();
      await runtime.writer.commitAll([
        ['wfStoreEvent', run.seq, eventId, now, data],
        historyCall(run.seq, notified(now, true)),
      ]);
    }
    return served;
  }

  /** A call of a run's webhook URL: ends its wait, or is kept for the run's next wait on the webhook. */
  async webhook(
    run: RunRecord,
    eventId: string,
    request: Buffer,
    called: (time: number, kept: boolean) => RunHistoryEvent,
  ): Promise<void> {
    const { runtime } = this;
    const [waiter] = runtime.store.waitersFor(eventId, 'webhook', run.seq);
    const now = runtime.clock.now();
    if (waiter) {
      const append = this.result(run, waiter, waitStep(waiter, request));
      append.item.history = called(now, false);
      await runtime.append([append]);
      return;
    }
    await runtime.writer.commitAll([
      ['wfStoreEvent', run.seq, eventId, now, request],
      historyCall(run.seq, called(now, true)),
    ]);
  }

  // ------------------------------------------------------------------ timeouts

  /** Arms the timeout of a waiter (at start-up for every stored waiter, and for each new one). */
  arm(waiter: WaiterRecord): void {
    if (this.stopped) return;
    const { clock, logger } = this.runtime;
    this.timers.get(waiter.seq)?.cancel();
    const timer = clock.setTimer(
      () => {
        this.timers.delete(waiter.seq);
        this.timeout(waiter).catch((error: unknown) =>
          logger.error({ err: error, eventId: waiter.eventId }, 'wait timeout failed'),
        );
      },
      Math.max(0, waiter.deadline - clock.now()),
    );
    this.timers.set(waiter.seq, timer);
  }

  /** Drops the timers of a run that ended (its waiters were deleted with it). */
  cancelTimersOf(runSeq: number): void {
    // Waiters of an ended run are deleted with it; their timers find nothing to do. Only drop the ones known.
    for (const [seq, timer] of this.timers) {
      const waiter = this.runtime.store.waiter(seq);
      if (!waiter || waiter.runSeq === runSeq) {
        timer.cancel();
        this.timers.delete(seq);
      }
    }
  }

  /**
   * "Run now" for a wait (stack/local/): its timeout fires at once, whatever the clock says. The result's append
   * deletes the waiter in the same transaction, so a notify racing it cannot also end the wait.
   */
  async expire(waiter: WaiterRecord): Promise<void> {
    this.timers.get(waiter.seq)?.cancel();
    this.timers.delete(waiter.seq);
    await this.timeout(waiter);
  }

  private async timeout(waiter: WaiterRecord): Promise<void> {
    const run = this.runtime.store.run(waiter.runSeq);
    if (!run || run.state !== 'RUN_STARTED') return;
    const step = { ...waiter.step, waitTimeout: true, waitEventId: waiter.eventId, timeout: waiter.timeout };
    await this.runtime.append([this.result(run, waiter, step)]);
  }

  /** A server-built Wait (or WaitForWebhook) result step for a waiter. */
  private result(run: RunRecord, waiter: WaiterRecord, step: Record<string, unknown>): PlannedAppend {
    const now = this.runtime.clock.now();
    const message = planStep(run, undefined, Buffer.alloc(0), now, { url: waiter.timeoutUrl ?? waiter.url });
    return {
      item: {
        runSeq: run.seq,
        soft: true,
        waiterSeq: waiter.seq,
        entry: {
          messageId: message.row.id,
          callType: 'step',
          body: Buffer.from(JSON.stringify(step)),
          stepKey: stepKeyOf(step),
        },
        stepState: 'STEP_PROGRESS',
      },
      message,
    };
  }

  // ------------------------------------------------------------------ life cycle

  start(): void {
    for (const waiter of this.runtime.store.allWaiters()) this.arm(waiter);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
  }
}

/** The result step of a satisfied wait: the waited step with the event data as `out` (base64). */
function waitStep(waiter: WaiterRecord, data: Buffer): Record<string, unknown> {
  return {
    ...waiter.step,
    out: data.toString('base64'),
    waitEventId: waiter.eventId,
    timeout: waiter.timeout,
    waitTimeout: false,
  };
}
