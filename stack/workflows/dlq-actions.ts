// What the workflow DLQ does to failed runs: restart (a new run from the start), resume (a new run that keeps
// the failed run's completed steps and goes on from its failed message), delete, and sending a failure
// callback again. Part of the runtime (runtime.dlq): each action claims the run's DLQ entry inside its own
// transaction, so that two requests never act on one entry twice. The routes (routes-dlq.ts) select the runs,
// read the override headers and shape replies.
import { base58, newMessageId } from '../messages/ids';
import type { ConfigPatch } from '../messages/publish-request';
import type { MessageSpec } from '../store/messages';
import type { LogEntry, RunConfig, RunRecord } from '../store/workflow-store';
import type { DlqFrom } from './origin';
import { planned, planStep, workflowMeta, type WorkflowMeta } from './plan';
import type { Call, PlannedAppend, WorkflowRuntime } from './runtime';
import type { AppendItem } from './write-ops';

/** A run's settings for its restart or resume: its own, with what the request overrides. */
export type ConfigOf = (run: RunRecord) => RunConfig;

/** The run a restart or resume started. */
export interface RunRef {
  workflowRunId: string;
  workflowCreatedAt: number;
}

/** Thrown when an entry asked for by id is not in the DLQ (any more). */
export class DlqEntryMissing extends Error {}

/** The new run's origin (its history's `triggered` event), given the failed run it comes from. */
export type OriginOf = (time: number, from: DlqFrom) => NonNullable<RunRecord['origin']>;

/** What a restart/resume request overrides: the runs' settings, and the delay of each one's first delivery. */
export interface Overrides {
  configOf: ConfigOf;
  /** Upstash-Delay: holds back the restarted run's first delivery, or the resumed message; not later steps. */
  delayMs?: number;
}

/** A restart or resume request: its overrides, whether it named its entries by id, and the new runs' origin. */
export interface Rerun {
  overrides: Overrides;
  /** Entries asked for by id: one that is gone fails the whole batch (otherwise it is skipped). */
  named: boolean;
  origin: OriginOf;
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
  async restart(runs: RunRecord[], { overrides, named, origin }: Rerun): Promise<RunRef[]> {
    const { runtime } = this;
    const now = runtime.clock.now();
    const initials = runtime.store.firstEntries(runs.map((run) => run.seq));
    const plans: (PlannedAppend & { ref: RunRef })[] = [];
    for (const old of runs) {
      if (old.dlqId === undefined) continue;
      const run = newRun(old, old.dlqId, overrides.configOf(old), origin, now);
      const message = planStep(run, { forward: {}, delayMs: overrides.delayMs }, Buffer.alloc(0), now);
      plans.push({
        item: {
          create: run,
          claimDlq: { runSeq: old.seq, dlqId: old.dlqId, link: { kind: 'restarted' } },
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
   * New runs that go on from failed runs' failed messages, as the service resumes: each new run (a new id) gets
   * the failed run's log up to that message — its completed steps are not run again — and the message is sent
   * again for it, with the overridden settings. One transaction for the batch; a run starts only if its DLQ
   * entry is claimed there (see restart). `named`: an entry that is not in the DLQ fails them all.
   */
  async resume(runs: RunRecord[], { overrides, named, origin }: Rerun): Promise<RunRef[]> {
    const { runtime } = this;
    const now = runtime.clock.now();
    const plans: PlannedAppend[] = [];
    /** Each new run, and the index of the item that creates it in `plans`. */
    const started: { ref: RunRef; at: number }[] = [];
    for (const old of runs) {
      const entry = old.dlqId !== undefined ? runtime.stackStore.dlq.get(old.dlqId) : undefined;
      const meta = entry && workflowMeta(entry.message);
      const log = entry ? runtime.store.log(old.seq) : [];
      const failedAt = entry ? log.findIndex((logged) => logged.messageId === entry.message.id) : -1;
      if (!entry || !meta || old.dlqId === undefined || failedAt < 0) {
        // Gone (another request took it), or a failed message that is not a step of the run's log.
        if (named) throw new DlqEntryMissing(`DLQ entry '${old.dlqId ?? old.runId}' not found`);
        continue;
      }
      const config = overrides.configOf(old);
      const run = newRun(old, old.dlqId, config, origin, now);
      const dueAt = now + (overrides.delayMs ?? 0);
      const message = planned(
        resumedSpec(entry.message.spec, meta, run, config, dueAt),
        dueAt,
        entry.message.body,
        now,
      );
      // Entries 0 … failedAt − 1 are copied; the failed message's entry is logged again, with its new message.
      const items = log.slice(0, failedAt + 1).map((logged, pos): PlannedAppend => {
        const last = pos === failedAt;
        const copy = copied(logged);
        const written = last ? { ...copy, messageId: message.row.id } : copy;
        const item: AppendItem =
          pos === 0
            ? {
                create: run,
                claimDlq: {
                  runSeq: old.seq,
                  dlqId: old.dlqId!,
                  link: { kind: 'resumed', messageId: entry.message.id },
                },
                entry: written,
              }
            : { runId: run.runId, entry: written };
        item.soft = !named;
        if (!last) return { item };
        item.stepState = 'STEP_PROGRESS';
        return { item, message };
      });
      started.push({ ref: { workflowRunId: run.runId, workflowCreatedAt: now }, at: plans.length });
      plans.push(...items);
    }
    if (plans.length === 0) return [];
    const appended = await runtime.append(plans, now);
    return started.flatMap(({ ref, at }) => (appended[at] ? [ref] : []));
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

/** The new run a restart or resume makes of a failed one: a new id, the failed run's URL and caller. */
function newRun(old: RunRecord, dlqId: string, config: RunConfig, origin: OriginOf, now: number) {
  return {
    runId: `wfr_${base58(21)}`,
    url: old.url,
    createdAt: now,
    callerIp: old.callerIp,
    config,
    origin: origin(now, { workflowRunId: old.runId, workflowRunCreatedAt: old.createdAt, dlqId }),
  };
}

/**
 * A log entry as a resumed run copies it: its body, type and step, with a fresh message id (an id names one
 * entry) and no message of its own. Logged at the resume's time, as the new run's log is made then.
 */
function copied(entry: LogEntry): AppendItem['entry'] {
  return {
    messageId: newMessageId(),
    callType: entry.callType,
    body: entry.body,
    ...(entry.stepKey !== undefined ? { stepKey: entry.stepKey } : {}),
  };
}

/** The failed message's spec for the run that resumes it: the new run's id and settings, due at `dueAt`. */
function resumedSpec(
  spec: MessageSpec,
  meta: WorkflowMeta,
  run: { runId: string; createdAt: number },
  config: RunConfig,
  dueAt: number,
): MessageSpec {
  // No runSeq: the new run's seq is known only once it is written; the runtime finds the run by id.
  const wf: WorkflowMeta = { ...meta, runId: run.runId, createdAt: run.createdAt };
  delete wf.runSeq;
  const resumed: MessageSpec = {
    ...spec,
    maxRetries: config.maxRetries,
    notBefore: dueAt,
    meta: { ...spec.meta, wf },
  };
  if (config.retryDelay !== undefined) resumed.retryDelay = config.retryDelay;
  if (config.flowControl) resumed.flowControl = config.flowControl;
  if (config.labels) resumed.labels = config.labels;
  return resumed;
}
