// What waits for the stack clock, by kind of item, and "run now" for each: the clock's next due item
// (GET /local/clock) is the first of every source's next, and POST /local/<collection>/<id>/run-now runs an
// item at once through a path that does not move the clock.
//
// A service whose items wait for the clock adds a source in stack/stack.ts (createLocalService's `sources`):
// messages, workflow runs and schedules today.
import type { DueItem } from '../../shared/local-stack/clock';
import { HttpError } from '../http/server';
import type { PendingState } from '../messages/engine';
import type { PeerWork, WorkPeer } from '../messages/service';
import type { ServiceContext } from '../messages/service-context';
import { workflowStoreOf, type WaiterRecord } from '../store/workflow-store';
import { workflowMeta } from '../workflows/plan';
import type { ScheduleService } from '../messages/schedule-service';
import type { WorkflowService } from '../workflows/service';

export interface TimeSource {
  /** The path segment(s) of its items: `/local/<collection>/<id>/run-now`. */
  collection: string;
  /** Its item that falls due first, if any. */
  next(): DueItem | undefined;
  /** What of item `id` waits for the clock, first due first (empty: nothing, or no such item). */
  due(id: string): DueItem[];
  /**
   * Runs the first waiting item of `id` now, whatever the clock says, and answers it (with the time it had
   * been due). Throws an HttpError saying why not: 404 no such item, 409 it does not wait for the clock.
   */
  runNow(id: string): Promise<DueItem>;
}

/** A source is built when the message service attaches its peers, from what they share. */
export type TimeSourceFactory = (service: ServiceContext) => TimeSource;

/** The peer's running work, for run now: 503 while the peer is not running. */
function runningWork<Work extends PeerWork>(peer: WorkPeer<Work>, service: string): () => Work {
  return () => {
    const work = peer.running();
    if (!work) throw new HttpError(503, `the ${service} service is not running`);
    return work;
  };
}

/** Messages waiting for a delay, a not-before time or a retry backoff (workflow sleeps are such delays). */
export const messageTimeSource: TimeSourceFactory = (service) => {
  const { engine, store } = service;
  const item = (id: string, dueAt: number, retried: number): DueItem => {
    const record = store.messages.getById(id);
    const runId = record ? workflowMeta(record)?.runId : undefined;
    return { kind: 'message', messageId: id, dueAt, retried, ...(runId ? { workflowRunId: runId } : {}) };
  };
  return {
    collection: 'messages',
    next() {
      const first = engine.nextDue();
      return first && item(first.id, first.dueAt, first.retried);
    },
    due(id) {
      const state = engine.pendingState(id);
      return state?.phase === 'scheduled' ? [item(id, state.dueAt, state.retried)] : [];
    },
    async runNow(id) {
      const ran = engine.runNow(id);
      if (!ran.ok) throw notWaiting(`message '${id}'`, ran.state);
      return item(id, ran.wasDueAt, engine.pendingState(id)?.retried ?? 0);
    },
  };
};

/** Why a message cannot be run now: it is not pending (404), or it waits for something else than time (409). */
function notWaiting(what: string, state: PendingState | undefined): HttpError {
  if (!state) {
    return new HttpError(
      404,
      `${what} is not pending: it was delivered, failed or cancelled, or never existed`,
    );
  }
  const why: Record<PendingState['phase'], string> = {
    queued: `waits for a slot of queue '${state.queue ?? ''}' (first in, first out), not for the clock`,
    scheduled: 'waits for the clock',
    flow: `is due already: flow-control key '${state.flowKey ?? ''}' holds it`,
    ready: 'is due already and waits for a free delivery slot',
    inflight: 'is being delivered right now',
    done: 'is finished',
  };
  return new HttpError(409, `${what} ${why[state.phase]}`);
}

/**
 * Workflow runs: a run waits for the clock through its messages (a sleep, a delayed step, a retry backoff) and
 * through the timeouts of its waits (waitForEvent, waitForWebhook). Its messages' own items come from the
 * message source; `next()` adds the waits'.
 */
export function workflowTimeSource(workflows: WorkflowService): TimeSourceFactory {
  return (service) => {
    const { engine } = service;
    const store = workflowStoreOf(service.store);
    const runtime = runningWork(workflows, 'workflow');
    const waitItem = (waiter: WaiterRecord, runId: string): DueItem => ({
      kind: 'wait',
      workflowRunId: runId,
      eventId: waiter.eventId,
      dueAt: waiter.deadline,
    });
    const waiting = (runId: string): { items: DueItem[]; waiters: Map<DueItem, WaiterRecord> } => {
      const run = store.activeRun(runId);
      const waiters = new Map<DueItem, WaiterRecord>();
      if (!run) return { items: [], waiters };
      const items: DueItem[] = [];
      for (const id of store.pendingMessageIds(run.seq)) {
        const state = engine.pendingState(id);
        if (state?.phase === 'scheduled') {
          items.push({
            kind: 'message',
            messageId: id,
            dueAt: state.dueAt,
            retried: state.retried,
            workflowRunId: runId,
          });
        }
      }
      for (const waiter of store.waitersOfRun(run.seq)) {
        const entry = waitItem(waiter, runId);
        waiters.set(entry, waiter);
        items.push(entry);
      }
      items.sort((a, b) => a.dueAt - b.dueAt);
      return { items, waiters };
    };
    return {
      collection: 'workflows/runs',
      next() {
        const waiter = store.nextWaiter();
        const run = waiter && store.run(waiter.runSeq);
        return waiter && run ? waitItem(waiter, run.runId) : undefined;
      },
      due: (runId) => waiting(runId).items,
      async runNow(runId) {
        const { items, waiters } = waiting(runId);
        const first = items[0];
        if (!first) {
          if (!store.activeRun(runId)) {
            throw new HttpError(404, `workflow run '${runId}' is not active: it has ended, or never existed`);
          }
          throw new HttpError(
            409,
            `workflow run '${runId}' does not wait for the clock: its step is being delivered, or waits for ` +
              'an event without a timeout, a queue or flow control',
          );
        }
        if (first.kind === 'message') {
          const ran = engine.runNow(first.messageId);
          if (!ran.ok) throw notWaiting(`the step message '${first.messageId}'`, ran.state);
          return first;
        }
        const waiter = waiters.get(first);
        if (waiter) await runtime().waiters.expire(waiter);
        return first;
      },
    };
  };
}

/**
 * Schedules wait for their next tick. Run now is the scheduler's trigger (`POST /local/schedules/{id}/trigger`
 * does the same): one publish from the schedule now, its next tick unchanged.
 */
export function scheduleTimeSource(schedules: ScheduleService): TimeSourceFactory {
  return () => {
    const scheduler = runningWork(schedules, 'schedule');
    const item = (id: string, dueAt: number): DueItem => ({ kind: 'schedule', scheduleId: id, dueAt });
    return {
      collection: 'schedules',
      next() {
        const first = schedules.running()?.nextDue();
        return first && item(first.id, first.dueAt);
      },
      due(id) {
        const next = scheduler().nextTickOf(id);
        return next === undefined ? [] : [item(id, next)];
      },
      async runNow(id) {
        const due = scheduler().nextTickOf(id);
        const messageIds = await scheduler().trigger(id);
        if (!messageIds) throw new HttpError(404, `schedule '${id}' not found`);
        return item(id, due ?? schedules.running()?.nextTickOf(id) ?? 0);
      },
    };
  };
}
