// The workflow service's core over the message engine: appending to run logs (and scheduling what was
// appended), ending runs, and the engine hooks — the delivery rewrite that sends each step its log prefix,
// and the outcome hook that fails runs, calls failure functions and turns call results into callbacks.
import type { Logger } from 'pino';
import type { RunHistoryEvent } from '../../shared/workflows/types';
import type { Clock } from '../clock';
import type { OutgoingRequest } from '../messages/delivery';
import type { AttemptOutcome, Engine, EngineHooks, OutcomeWrites } from '../messages/engine';
import { planCallback } from '../messages/publish-request';
import type { MessageRecord, MessageSpec, PendingRow } from '../store/messages';
import type { StackStore } from '../store/stack-store';
import type { WorkflowStore, FailureInfo, RunRecord, RunState } from '../store/workflow-store';
import { planned, planStep, stepKeyOf, workflowMeta, type PlannedRunMessage } from './plan';
import { rawSteps } from './records';
import { RunLogCache } from './log-cache';
import { ActiveRuns } from './active-runs';
import { errorText } from './search-text';
import { stepTiming } from './step-timing';
import { DlqActions } from './dlq-actions';
import { RunWaiters } from './waiters';
import type { WriteCall } from '../store/writer';
import type { StackWriter, StackWrites } from '../writes';
import type { AppendItem, AppendResult } from './write-ops';

/** One item of an append, with the message planned for it. */
export interface PlannedAppend {
  item: AppendItem;
  message?: PlannedRunMessage;
}

/** One write of the stack's registry (stack/writes.ts): the runtime's writes join other services' commits. */
export type Call = WriteCall<StackWrites>;

export class WorkflowRuntime {
  private stopped = false;
  /** Waits, notifies, webhook calls and wait timeouts (waiters.ts). */
  readonly waiters: RunWaiters = new RunWaiters(this);
  /** Restart, resume, delete and failure-callback retry of failed runs (dlq-actions.ts). */
  readonly dlq: DlqActions = new DlqActions(this);
  /** The bench's probe of the stack time per hop (off unless asked for). */
  readonly timing = stepTiming();
  /** Each active run's log, encoded as its step deliveries carry it (log-cache.ts). */
  readonly logs = new RunLogCache();
  /** The active runs step publishes are planned against (active-runs.ts). */
  readonly activeRuns: ActiveRuns;

  constructor(
    readonly store: WorkflowStore,
    /** The whole store (message tables included); `store` is its workflow table group. */
    readonly stackStore: StackStore,
    readonly writer: StackWriter,
    readonly engine: Engine,
    readonly clock: Clock,
    readonly logger: Logger,
  ) {
    this.activeRuns = new ActiveRuns((runId) => store.activeRun(runId));
  }

  // ------------------------------------------------------------------ appending

  /** The write call of an append (to join other writes), and what to schedule once it has committed. */
  appendCall(
    items: PlannedAppend[],
    now: number,
  ): { call: Call; committed(result: unknown): AppendResult[] } {
    const call: Call = [
      'wfAppend',
      items.map(({ item, message }) => (message ? { ...item, message: message.row } : item)),
      now,
    ];
    return {
      call,
      committed: (result) => {
        const results = result as AppendResult[];
        const rows: (PendingRow & { record?: MessageRecord })[] = [];
        results.forEach((appended, index) => {
          const planned = items[index];
          if (!appended || appended.deduplicated || !planned) return;
          // Cached before the engine gets the message: its delivery may be prepared at once.
          this.logs.add(appended.runSeq, appended.pos, planned.item.entry);
          const { message } = planned;
          if (!message || appended.messageSeq === undefined) return;
          rows.push(this.pendingRow(message, appended.messageSeq, now));
        });
        if (!this.stopped) this.engine.add(rows);
        return results;
      },
    };
  }

  /** Appends in one transaction (all or nothing) and schedules the new messages. */
  async append(items: PlannedAppend[], now = this.clock.now()): Promise<AppendResult[]> {
    const { call, committed } = this.appendCall(items, now);
    const [result] = await this.writer.commitAll([call]);
    return committed(result);
  }

  pendingRow(message: PlannedRunMessage, seq: number, now: number): PendingRow & { record?: MessageRecord } {
    const { row, record } = message;
    return {
      seq,
      id: row.id,
      dueAt: row.dueAt,
      retried: 0,
      cancelRequested: false,
      flowControl: record.spec.flowControl,
      createdAt: now,
      record: row.dueAt <= now + 1_000 ? { ...record, seq } : undefined,
    };
  }

  // ------------------------------------------------------------------ ending runs

  /**
   * The writes that end a run (state, response, DLQ id), and what follows from it: an invoking parent gets the
   * result. `after` cancels what the run still had pending, once committed.
   */
  finishCalls(
    run: RunRecord,
    state: Exclude<RunState, 'RUN_STARTED'>,
    now: number,
    response: string | null,
    dlqId: string | null,
    event?: RunHistoryEvent,
  ): { calls: Call[]; committed(results: unknown[]): void } {
    const calls: Call[] = [['wfFinish', run.seq, state, now, response, dlqId, event ?? null]];
    let parent: { call: Call; committed(result: unknown): AppendResult[] } | undefined;
    if (run.invoker) {
      const result =
        state === 'RUN_SUCCESS'
          ? { body: response ?? undefined, isCanceled: false, isFailed: false }
          : state === 'RUN_FAILED'
            ? { isFailed: true, isCanceled: false }
            : { isCanceled: true, isFailed: false };
      const planned = this.invokeResult(run, result, now);
      if (planned) {
        parent = this.appendCall([planned], now);
        calls.push(parent.call);
      }
    }
    return {
      calls,
      committed: (results) => {
        // Ended (now or before): no step is published to it or delivered any more; what is kept of it goes.
        this.logs.drop(run.seq);
        this.activeRuns.drop(run);
        const pending = results[0] as string[] | null;
        if (pending === null) return;
        this.waiters.cancelTimersOf(run.seq);
        if (pending.length > 0) {
          // A run that succeeded ended inside its last delivery: that attempt is not cancelled by anyone.
          this.engine
            .cancel(pending, { quietInflight: state === 'RUN_SUCCESS' })
            .catch((error: unknown) => this.logger.warn({ err: error }, 'could not cancel run messages'));
        }
        if (parent) parent.committed(results[1]);
      },
    };
  }

  /** Ends a run; false when it had already ended. */
  async finish(
    run: RunRecord,
    state: Exclude<RunState, 'RUN_STARTED'>,
    response: string | null,
    dlqId: string | null = null,
    /** Recorded in the run's history if this ends it (who cancelled it). */
    event?: RunHistoryEvent,
  ): Promise<boolean> {
    const now = this.clock.now();
    const { calls, committed } = this.finishCalls(run, state, now, response, dlqId, event);
    const results = await this.writer.commitAll(calls);
    committed(results);
    return results[0] !== null;
  }

  /** The step that hands an invoked run's result to its parent (if the parent still runs). */
  private invokeResult(
    run: RunRecord,
    result: Record<string, unknown>,
    now: number,
  ): PlannedAppend | undefined {
    const invoker = run.invoker;
    if (!invoker) return undefined;
    const parent = this.store.activeRun(invoker.workflowRunId);
    if (!parent) return undefined;
    const body = Buffer.from(JSON.stringify({ ...invoker.step, out: JSON.stringify(result) }));
    const message = planStep(parent, undefined, Buffer.alloc(0), now, { url: invoker.workflowUrl });
    return {
      item: {
        runSeq: parent.seq,
        soft: true,
        entry: { messageId: message.row.id, callType: 'step', body, stepKey: stepKeyOf(invoker.step) },
        stepState: 'STEP_PROGRESS',
      },
      message: {
        ...message,
        record: { ...message.record, spec: withRunSeq(message.record.spec, parent.seq) },
      },
    };
  }

  // ------------------------------------------------------------------ engine hooks

  hooks(): EngineHooks {
    return {
      prepare: (record, request) => this.prepare(record, request),
      onOutcome: (record, outcome) => this.onOutcome(record, outcome),
    };
  }

  /** Adds the run headers; a step delivery carries the run log up to its own entry. */
  private prepare(record: MessageRecord, request: OutgoingRequest): OutgoingRequest {
    this.timing.leaving(record.id);
    const meta = workflowMeta(record);
    if (!meta || meta.kind === 'call') return request;
    request.headers['Upstash-Workflow-RunId'] = meta.runId;
    request.headers['Upstash-Workflow-CreatedAt'] = String(meta.createdAt);
    if (meta.kind === 'step') {
      request.body = this.stepBody(record.id, meta.runSeq);
      request.headers['Content-Type'] = 'application/json';
    }
    return request;
  }

  /**
   * What a step message delivers: the run log up to and including its own entry (the SDK's raw steps). From
   * the cache when it holds the whole prefix; otherwise read from SQLite — and cached, if the run (`runSeq`,
   * when known) is still active: after a restart of the stack, its next steps are served from
   * memory again.
   */
  stepBody(messageId: string, runSeq?: number): Buffer {
    const cached = this.logs.prefix(messageId);
    if (cached) return cached;
    const entries = this.store.logPrefix(messageId);
    if (runSeq !== undefined && this.store.runState(runSeq) === 'RUN_STARTED')
      this.logs.fill(runSeq, entries);
    return Buffer.from(JSON.stringify(rawSteps(entries)));
  }

  private onOutcome(record: MessageRecord, outcome: AttemptOutcome): OutcomeWrites | undefined {
    const meta = workflowMeta(record);
    if (!meta) return undefined;
    switch (meta.kind) {
      case 'step':
      case 'callback':
        return this.stepOutcome(record, meta.runSeq, outcome);
      case 'call':
        return this.callOutcome(record, outcome);
      case 'failure':
        return this.failureOutcome(record, meta.runSeq, outcome);
    }
  }

  private runOf(record: MessageRecord, runSeq: number | undefined): RunRecord | undefined {
    if (runSeq !== undefined) return this.store.run(runSeq);
    const meta = workflowMeta(record);
    const run = meta ? this.store.activeRun(meta.runId) : undefined;
    return run && run.createdAt === meta?.createdAt ? run : undefined;
  }

  private stepOutcome(
    record: MessageRecord,
    runSeq: number | undefined,
    outcome: AttemptOutcome,
  ): OutcomeWrites | undefined {
    if (outcome.state === 'DELIVERED' || outcome.state === 'CANCELLED') return undefined;
    const run = this.runOf(record, runSeq);
    if (!run || run.state !== 'RUN_STARTED') return undefined;
    const failed: Call = ['wfSearchText', run.seq, errorText(outcome.response.error, outcome.response.body)];
    if (outcome.state === 'RETRY') return { calls: [['wfStepState', run.seq, 'STEP_RETRY'], failed] };
    // Retries exhausted, or the SDK said the error is not retryable (489): the run fails.
    const { calls, committed } = this.finishCalls(
      run,
      'RUN_FAILED',
      outcome.now,
      null,
      outcome.dlqId ?? null,
    );
    calls.push(failed);
    const failure = this.failureCallback(run, record, outcome);
    if (failure)
      calls.push(['wfFailure', run.seq, failure.info], ['wfInsertMessage', failure.message.row, outcome.now]);
    return {
      calls,
      committed: (results) => {
        committed(results);
        if (failure && results[0] !== null && !this.stopped) {
          const seq = results[results.length - 1] as number;
          this.engine.add([this.pendingRow(failure.message, seq, outcome.now)]);
        }
      },
    };
  }

  /** The failure function / failure URL call of a failed run, with the vendor's payload. */
  private failureCallback(
    run: RunRecord,
    record: MessageRecord,
    outcome: AttemptOutcome,
  ): { message: PlannedRunMessage; info: FailureInfo } | undefined {
    const { config } = run;
    if (config.failureCallback === undefined) return undefined;
    const initial = this.store.firstEntry(run.seq)?.body ?? Buffer.alloc(0);
    const response = outcome.response;
    const payload = {
      ...attemptPayload(record, outcome),
      dlqId: outcome.dlqId,
      url: run.url,
      sourceBody: initial.toString('base64'),
      workflowRunId: run.runId,
      workflowCreatedAt: run.createdAt,
    };
    const parent: MessageSpec = {
      url: run.url,
      method: 'POST',
      header: {},
      notBefore: outcome.now,
      maxRetries: config.maxRetries,
      failureCallback: config.failureCallback,
      failureCallbackConfig: config.failureCallbackConfig,
    };
    if (config.retryDelay !== undefined) parent.retryDelay = config.retryDelay;
    const plan = planCallback(parent, 'failureCallback', payload, outcome.now);
    plan.spec.meta = {
      wf: { kind: 'failure', runId: run.runId, createdAt: run.createdAt, runSeq: run.seq },
    };
    if (run.callerIp) plan.spec.callerIp = run.callerIp;
    const message = planned(plan.spec, plan.dueAt, plan.body, outcome.now);
    let failResponse = response.body.toString('utf8');
    try {
      const parsed = JSON.parse(failResponse) as { message?: unknown };
      if (typeof parsed.message === 'string') failResponse = parsed.message;
    } catch {
      // Not JSON: the raw text is the failure response.
    }
    return {
      message,
      info: {
        messageId: message.row.id,
        url: config.failureCallback,
        state: 'CALLBACK_INPROGRESS',
        failHeaders: response.header,
        failStatus: response.status ?? 0,
        failResponse,
        dlqId: outcome.dlqId,
        maxRetries: plan.spec.maxRetries,
      },
    };
  }

  private failureOutcome(
    record: MessageRecord,
    runSeq: number | undefined,
    outcome: AttemptOutcome,
  ): OutcomeWrites | undefined {
    if (runSeq === undefined) return undefined;
    const run = this.store.run(runSeq);
    if (!run?.failure || run.failure.messageId !== record.id) return undefined;
    const response = outcome.response;
    const info: FailureInfo = {
      ...run.failure,
      responseStatus: response.status ?? 0,
      responseBody: response.body.toString('utf8'),
      responseHeaders: response.header,
    };
    delete info.nextDeliveryTime;
    if (outcome.state === 'DELIVERED') info.state = 'CALLBACK_SUCCESS';
    else if (outcome.state === 'FAILED') info.state = 'CALLBACK_FAIL';
    else if (outcome.state === 'CANCELLED') info.state = 'CALLBACK_CANCELED';
    else info.nextDeliveryTime = outcome.nextDeliveryTime;
    return { calls: [['wfFailure', run.seq, info]] };
  }

  /** Every attempt of a context.call (success or failure) is reported back to the run as its callback. */
  private callOutcome(record: MessageRecord, outcome: AttemptOutcome): OutcomeWrites | undefined {
    const meta = workflowMeta(record);
    if (!meta?.callback || meta.runSeq === undefined || outcome.state === 'CANCELLED') return undefined;
    const run = this.store.run(meta.runSeq);
    if (!run || run.state !== 'RUN_STARTED') return undefined;
    const response = outcome.response;
    const payload = {
      ...attemptPayload(record, outcome),
      url: record.spec.url,
      sourceBody: record.body.toString('base64'),
      ...(response.error !== undefined ? { error: response.error } : {}),
    };
    const parent: MessageSpec = {
      url: record.spec.url,
      method: 'POST',
      header: {},
      notBefore: outcome.now,
      maxRetries: run.config.maxRetries,
      callback: meta.callback,
      callbackConfig: meta.callbackConfig,
    };
    const plan = planCallback(parent, 'callback', payload, outcome.now);
    // The run's settings, except its forwarded headers: a callback delivery must not carry the trigger's.
    plan.spec.maxRetries = run.config.maxRetries;
    if (run.config.retryDelay !== undefined) plan.spec.retryDelay = run.config.retryDelay;
    plan.spec.meta = {
      wf: { kind: 'callback', runId: run.runId, createdAt: run.createdAt, runSeq: run.seq },
    };
    const message = planned(plan.spec, plan.dueAt, plan.body, outcome.now);
    const append = this.appendCall(
      [
        {
          item: {
            runSeq: run.seq,
            soft: true,
            entry: { messageId: message.row.id, callType: 'fromCallback', body: plan.body },
          },
          message,
        },
      ],
      outcome.now,
    );
    return { calls: [append.call], committed: (results) => void append.committed(results[0]) };
  }

  // ------------------------------------------------------------------ life cycle

  start(): void {
    this.waiters.start();
  }

  stop(): void {
    this.stopped = true;
    this.timing.close();
    this.waiters.stop();
  }
}

/** The fields of a callback payload (the vendor's) that describe the attempt and the message it was for. */
function attemptPayload(record: MessageRecord, outcome: AttemptOutcome): Record<string, unknown> {
  const { response } = outcome;
  return {
    status: response.status ?? 0,
    header: response.header,
    body: response.body.toString('base64'),
    retried: outcome.retried,
    maxRetries: record.spec.maxRetries,
    sourceMessageId: record.id,
    method: record.spec.method,
    sourceHeader: record.spec.header,
    createdAt: record.createdAt,
  };
}

function withRunSeq(spec: MessageSpec, runSeq: number): MessageSpec {
  const wf = spec.meta?.wf as Record<string, unknown> | undefined;
  return wf ? { ...spec, meta: { ...spec.meta, wf: { ...wf, runSeq } } } : spec;
}
