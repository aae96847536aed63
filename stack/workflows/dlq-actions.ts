// What the workflow DLQ does to failed runs: restart (a new run from the start), resume (the same run from its
// failed message), delete, and sending a failure callback again. Part of the runtime (runtime.dlq): each action
// claims the run's DLQ entry inside its own transaction, so that two requests never act on one entry twice.
// The routes (routes-dlq.ts) select the runs, read the override headers and shape replies.
import { base58, newMessageId } from '../messages/ids';
import type { ConfigPatch } from '../messages/publish-request';
import type { RunConfig, RunRecord } from '../store/workflow-store';
import { planned, planStep } from './plan';
import type { Call, PlannedAppend, WorkflowRuntime } from './runtime';

/** A run's settings for its restart or resume: its own, with what the request overrides. */
export type ConfigOf = (run: RunRecord) => RunConfig;

/** The run a restart or resume started (or continued). */
export interface RunRef {
  workflowRunId: string;
  workflowCreatedAt: number;
}

/** Thrown when an entry asked for by id is not in the DLQ (any more). */
export class DlqEntryMissing extends Error {}

/** What a restart/resume request overrides: the runs' settings, and the delay of each one's first delivery. */
export interface Overrides {
  configOf: ConfigOf;
  /** Upstash-Delay: holds back the restarted run's first delivery, or the resumed message; not later steps. */
  delayMs?: number;
}

/** The overrides of a restart/resume request (Retries, Delay, Retry-Delay, Flow-Control, Label, Failure-Callback). */
export function overriding(patch: ConfigPatch): Overrides {
  const configOf: ConfigOf = (run) => {
    const config = { ...run.config, header: { ...run.config.header } };
    if (patch.retries !== undefined) config.maxRetries = patch.retries;
    if (patch.retryDelay !== undefined) config.retryDelay = patch.retryDelay;
    if (patch.flowControl) config.flowControl = patch.flowControl;
    if (patch.labels) {
      config.labels = patch.labels;
      config.header['Upstash-Label'] = [patch.labels.join(',')];
    }
    if (patch.failureCallback !== undefined) config.failureCallback = patch.failureCallback;
    return config;
  };
  return patch.delayMs !== undefined ? { configOf, delayMs: patch.delayMs } : { configOf };
}

export class DlqActions {
  constructor(private readonly runtime: WorkflowRuntime) {}

  /**
   * New runs from the start of failed ones: one transaction for the whole batch (runs, logs, DLQ removals). A
   * run starts only if its DLQ entry is claimed in that transaction; `named` (entries asked for by id) fails the
   * whole batch when one is gone (DLQ_ENTRY_GONE), otherwise the gone ones are skipped.
   */
  async restart(
    runs: RunRecord[],
    { configOf, delayMs }: Overrides,
    named: boolean,
    origin: (time: number, from: RunRestartedFrom) => RestartOrigin,
  ): Promise<RunRef[]> {
    const { runtime } = this;
    const now = runtime.clock.now();
    const initials = runtime.store.firstEntries(runs.map((run) => run.seq));
    const plans: (PlannedAppend & { ref: RunRef })[] = [];
    for (const old of runs) {
      if (old.dlqId === undefined) continue;
      const from = { workflowRunId: old.runId, workflowRunCreatedAt: old.createdAt, dlqId: old.dlqId };
      const run = {
        runId: `wfr_${base58(21)}`,
        url: old.url,
        createdAt: now,
        callerIp: old.callerIp,
        config: configOf(old),
        origin: origin(now, from),
      };
      const message = planStep(run, { forward: {}, delayMs }, Buffer.alloc(0), now);
      plans.push({
        item: {
          create: run,
          claimDlq: { runSeq: old.seq, dlqId: old.dlqId },
          soft: !named,
          entry: {
            messageId: message.row.id,
            callType: 'step',
            body: initials.get(old.seq) ?? Buffer.alloc(0),
          },
          stepState: 'STEP_PROGRESS',
        },
        message,
        ref: { workflowRunId: run.runId, workflowCreatedAt: run.createdAt },
      });
    }
    if (plans.length === 0) return [];
    const appended = await runtime.append(plans, now);
    return plans.flatMap((plan, index) => (appended[index] ? [plan.ref] : []));
  }

  /**
   * The same runs from their failed messages, with the overridden settings; each only if its DLQ entry is
   * claimed (see restart). `named`: an entry that is not in the DLQ fails them all (DlqEntryMissing).
   */
  async resume(runs: RunRecord[], { configOf, delayMs }: Overrides, named: boolean): Promise<RunRef[]> {
    const { runtime } = this;
    const now = runtime.clock.now();
    const calls: Call[] = [];
    const reopened: { run: RunRecord; seq: number }[] = [];
    for (const run of runs) {
      const entry = run.dlqId !== undefined ? runtime.stackStore.dlq.get(run.dlqId) : undefined;
      if (!entry || run.dlqId === undefined) continue;
      const config = configOf(run);
      const spec = { ...entry.message.spec, maxRetries: config.maxRetries };
      if (config.retryDelay !== undefined) spec.retryDelay = config.retryDelay;
      if (config.flowControl) spec.flowControl = config.flowControl;
      if (config.labels) spec.labels = config.labels;
      const dueAt = now + (delayMs ?? 0);
      spec.notBefore = dueAt;
      calls.push([
        'wfResume',
        run.seq,
        run.dlqId,
        entry.message.seq,
        now,
        dueAt,
        config,
        JSON.stringify(spec),
        named,
        { kind: 'resumed', time: now, dlqId: run.dlqId, messageId: entry.message.id },
      ]);
      reopened.push({ run, seq: entry.message.seq });
    }
    if (named && reopened.length < runs.length) {
      const gone = runs.find((run) => !reopened.some((item) => item.run === run));
      throw new DlqEntryMissing(`DLQ entry '${gone?.dlqId ?? gone?.runId}' not found`);
    }
    const results = await runtime.writer.commitAll(calls);
    const refs: RunRef[] = [];
    reopened.forEach(({ run, seq }, index) => {
      if (results[index] !== true) return;
      // Active again with new settings: a record kept from before must not plan its next steps.
      runtime.activeRuns.drop(run);
      const record = runtime.stackStore.messages.get(seq);
      if (record) {
        runtime.engine.add([
          {
            seq,
            id: record.id,
            dueAt: record.dueAt,
            retried: 0,
            cancelRequested: false,
            flowControl: record.spec.flowControl,
          },
        ]);
      }
      refs.push({ workflowRunId: run.runId, workflowCreatedAt: run.createdAt });
    });
    return refs;
  }

  /** Removes runs' DLQ entries (the runs stay, failed); how many this call removed. */
  async remove(runs: RunRecord[]): Promise<number> {
    const calls = runs.flatMap((run): Call[] =>
      run.dlqId === undefined ? [] : [['wfDeleteDlq', run.seq, run.dlqId]],
    );
    const results = await this.runtime.writer.commitAll(calls);
    return results.filter((result) => result === true).length;
  }

  /**
   * Sends the failure callback of a failed run again, once it has failed (CALLBACK_FAIL): 'none' when the run
   * has no failure callback, 'not-failed' when it is still being sent, succeeded or was cancelled (sent again,
   * the failure function would run twice — the real service refuses these with 400 too), 'raced' when another
   * request just sent it again.
   */
  async retryFailure(run: RunRecord): Promise<'sent' | 'none' | 'not-failed' | 'raced'> {
    const { runtime } = this;
    const failure = run.failure;
    const previous =
      failure?.messageId !== undefined ? runtime.stackStore.messages.getById(failure.messageId) : undefined;
    if (!failure || !previous) return 'none';
    if (failure.state !== 'CALLBACK_FAIL') return 'not-failed';
    const now = runtime.clock.now();
    const message = planned({ ...previous.spec, notBefore: now }, now, previous.body, now);
    message.row.id = newMessageId();
    message.record.id = message.row.id;
    const info = { ...failure, messageId: message.row.id, state: 'CALLBACK_INPROGRESS' as const };
    const [seq] = await runtime.writer.commitAll([
      ['wfRetryFailure', run.seq, previous.id, info, message.row, now],
    ]);
    if (seq === null) return 'raced';
    runtime.engine.add([runtime.pendingRow(message, seq, now)]);
    return 'sent';
  }
}

type RestartOrigin = NonNullable<RunRecord['origin']>;
type RunRestartedFrom = NonNullable<RestartOrigin['restartedFrom']>;
