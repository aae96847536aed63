// The delivery engine. SQLite holds the truth (every pending message, its due time and retry count); this
// module keeps a light in-memory index over it — a heap of due times, queue FIFOs, flow-control waitlists —
// so that deciding what to send next never polls SQL. Writes go through the writer's group commit.
//
// Life of a message: add() → (queue FIFO admits it) → heap until due → flow-control gate → global
// concurrency gate → attempt → DELIVERED | RETRY (back to the heap, keeping its queue slot) | FAILED (DLQ)
// | CANCELLED. After a crash, start() rebuilds all of this from the rows not marked done: anything that was
// in flight is simply due again (at-least-once).
import type { Logger } from 'pino';
import { DELIVERY } from '../../shared/headers';
import type { CallbackPayload, MessageState } from '../../shared/messages/types';
import type { FlowControlHold } from '../../shared/workflows/types';
import type { Clock, Timer } from '../clock';
import type { EventData } from '../store/events';
import { FlowKeyTable } from '../store/flow-keys';
import type { MessageRecord, PendingRow } from '../store/messages';
import type { StackStore } from '../store/stack-store';
import { defaultBackoffExpression, nextDelayMs } from './backoff';
import type { DeliveryResponse, OutgoingRequest, Transport } from './delivery';
import type { FlowControlWrite } from './flow-control-writes';
import { type FlowControl, FlowGate, type FlowState } from './flow-gate';
import { MinHeap } from './heap';
import { newDlqId } from './ids';
import { planCallback, type PlannedMessage } from './publish-request';
import { QueueGate, type QueueState } from './queue-gate';
import { signDelivery } from './signing';
import type { StackWriter } from '../writes';
import { prepareInsert, type InsertResult, type MessageWrite } from './write-ops';

export interface EngineHooks {
  /**
   * May rewrite a request just before it is sent. A later workflow service uses this to add its run headers
   * and build step bodies from the run log; the message service needs none.
   */
  prepare?(record: MessageRecord, request: OutgoingRequest): OutgoingRequest;
  /** Called once a final state (DELIVERED, FAILED, CANCELLED) has been handed to the writer. */
  onFinished?(record: MessageRecord, outcome: MessageState, response: DeliveryResponse | undefined): void;
  /**
   * Extra writes committed in the same transaction as an attempt's outcome (so that a crash can never keep one
   * without the other), and what to do once they are durable. The workflow service records run state here.
   */
  onOutcome?(record: MessageRecord, outcome: AttemptOutcome): OutcomeWrites | undefined;
}

export interface AttemptOutcome {
  state: 'DELIVERED' | 'RETRY' | 'FAILED' | 'CANCELLED';
  retried: number;
  response: DeliveryResponse;
  now: number;
  /** The DLQ entry a FAILED message went to. */
  dlqId?: string;
  /** For RETRY: when the next attempt is due. */
  nextDeliveryTime?: number;
}

export interface OutcomeWrites {
  /** Write calls of any op the stack's writer knows (they run after the engine's own writes). */
  calls: unknown[];
  /** Called with the results of `calls` once committed. */
  committed?(results: unknown[]): void;
}

/**
 * Several services' hooks as one: `prepare` runs in list order, each on the request the previous one made;
 * the extra writes of `onOutcome` are concatenated, and each service's `committed` gets its own results.
 * The list is read on every call, so peers may attach after the engine was built (but before it starts).
 */
export function combineHooks(list: readonly EngineHooks[]): EngineHooks {
  return {
    prepare: (record, request) =>
      list.reduce((current, hooks) => hooks.prepare?.(record, current) ?? current, request),
    onFinished(record, outcome, response) {
      for (const hooks of list) hooks.onFinished?.(record, outcome, response);
    },
    onOutcome(record, outcome) {
      const parts: OutcomeWrites[] = [];
      for (const hooks of list) {
        const writes = hooks.onOutcome?.(record, outcome);
        if (writes) parts.push(writes);
      }
      if (parts.length <= 1) return parts[0];
      return {
        calls: parts.flatMap((part) => part.calls),
        committed(results) {
          let offset = 0;
          for (const part of parts) {
            part.committed?.(results.slice(offset, offset + part.calls.length));
            offset += part.calls.length;
          }
        },
      };
    },
  };
}

export interface EngineOptions {
  store: StackStore;
  writer: StackWriter;
  clock: Clock;
  logger: Logger;
  transport: Transport;
  /** The key deliveries are signed with (the current signing key; it changes on rotation). */
  signingKey: () => string;
  /** Signature times are wall-clock times even under a test clock: receivers check them against theirs. */
  wallClock?: () => number;
  maxConcurrency: number;
  backoffFactor: number;
  defaultTimeoutMs: number;
  hooks?: EngineHooks;
}

/**
 * queued: waits for a slot of its queue; scheduled: waits for its due time; flow: due, held by its flow-control
 * key; ready: due, waits for a delivery slot; inflight: being delivered.
 */
export type Phase = 'queued' | 'scheduled' | 'flow' | 'ready' | 'inflight' | 'done';

/** A pending message as the stack clock's routes see it (stack/local/). */
export interface PendingState {
  phase: Phase;
  dueAt: number;
  retried: number;
  queue?: string;
  flowKey?: string;
}

interface Entry {
  seq: number;
  id: string;
  dueAt: number;
  retried: number;
  phase: Phase;
  /** Bumped whenever the entry re-enters the heap, so that stale heap items are recognised and skipped. */
  ticket: number;
  cancelRequested: boolean;
  queue?: QueueState<Entry>;
  flow?: FlowState<Entry>;
  /** The full record of a just-published message, so that its first attempt needs no read. */
  record?: MessageRecord;
  /** Start of the attempt in flight (clock time), until its ACTIVE event is written. */
  activeAt?: number;
  /** performance.now() at that start: long attempts get their ACTIVE event written while still running. */
  activeSince?: number;
}

interface HeapRef {
  dueAt: number;
  seq: number;
  entry: Entry;
  ticket: number;
}

/** How long before their due time records are read ahead, and how many at once. */
const PREFETCH_MS = 25;
const MAX_PREFETCH = 1_000;

/** After this long an attempt's ACTIVE event is written without waiting for its outcome. */
const ACTIVE_FLUSH_MS = 200;

/** Records kept in memory at most (just-published messages awaiting their first attempt). */
const MAX_CACHED_RECORDS = 10_000;

export class Engine {
  private readonly byId = new Map<string, Entry>();
  private readonly heap = new MinHeap<HeapRef>();
  /** Taken off the heap because they are due within PREFETCH_MS, in due order. */
  private readonly soon: HeapRef[] = [];
  private soonHead = 0;
  private readonly queues: QueueGate<Entry>;
  private readonly flows: FlowGate<Entry>;
  private readonly readyQueue: Entry[] = [];
  private readyHead = 0;
  private readonly inflight = new Map<Entry, Promise<void>>();
  private timer: Timer | undefined;
  private timerDue = Infinity;
  private active = 0;
  private stopping = false;
  private cached = 0;
  private activeTimer: NodeJS.Timeout | undefined;
  private readonly wallClock: () => number;

  constructor(private readonly options: EngineOptions) {
    this.wallClock = options.wallClock ?? Date.now;
    this.queues = new QueueGate<Entry>({
      settings: (name) => options.store.queues.get(name),
      admit: (entry) => this.schedule(entry),
    });
    const writeFlow = (calls: FlowControlWrite[]): void => options.writer.enqueue(calls);
    this.flows = new FlowGate<Entry>({
      clock: options.clock,
      release: (entry) => this.ready(entry),
      persist: (records) => writeFlow([['saveFlowKeys', records]]),
      forget: (keys) => writeFlow([['deleteFlowKeys', keys]]),
    });
  }

  // ------------------------------------------------------------------ start-up and shutdown

  /** Loads queue settings and every unfinished message, then starts delivering. */
  start(): void {
    this.queues.load(this.options.store.queues.list());
    this.flows.load(this.options.store.group(FlowKeyTable).list());
    const rows: PendingRow[] = [];
    const cancelled: PendingRow[] = [];
    for (const row of this.options.store.messages.pending())
      (row.cancelRequested ? cancelled : rows).push(row);
    if (cancelled.length > 0) {
      const now = this.options.clock.now();
      this.options.writer.enqueue(
        cancelled.map((row): MessageWrite => ['finish', row.seq, now, 'CANCELLED']),
      );
    }
    this.add(rows);
    this.activeTimer = setInterval(() => this.flushActive(), ACTIVE_FLUSH_MS / 2);
    this.activeTimer.unref();
    this.options.logger.info({ pending: rows.length }, 'delivery engine started');
  }

  /**
   * Stops taking new work and waits up to `graceMs` for deliveries in flight; the rest are aborted and stay
   * pending in the store, to be delivered again after a restart.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.activeTimer);
    this.timer?.cancel();
    this.timer = undefined;
    this.queues.stop();
    this.flows.stop();
    const all = Promise.all(this.inflight.values());
    let graceTimer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => (graceTimer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(graceTimer);
    await this.options.transport.close();
    if (timedOut) await all;
  }

  // ------------------------------------------------------------------ adding messages

  /**
   * Schedules what an insert (prepareInsert) committed. `planned` is what was written, so the records of
   * messages due now stay in memory for their first attempt.
   */
  addInserted(inserted: InsertResult, planned: PlannedMessage[]): void {
    const now = this.options.clock.now();
    const rows: (PendingRow & { record?: MessageRecord })[] = [];
    let next = 0;
    inserted.results.forEach((result, index) => {
      if (result.deduplicated) return;
      const row = inserted.rows[next++];
      const item = planned[index];
      if (!row || !item) return;
      if (row.dueAt <= now + 1_000 && this.cached < MAX_CACHED_RECORDS) {
        // Field by field, not two object spreads: this runs once per published message, and the spreads
        // (which also copied the row's queue and flow fields into the record) showed in its profile.
        const record: MessageRecord = {
          seq: row.seq,
          id: row.id,
          createdAt: row.createdAt ?? now,
          dueAt: row.dueAt,
          retried: row.retried,
          cancelRequested: row.cancelRequested,
          done: false,
          spec: item.spec,
          body: item.body,
        };
        rows.push({ ...row, record });
      } else {
        rows.push(row);
      }
    });
    this.add(rows);
  }

  /** Schedules committed messages (in insertion order). */
  add(rows: (PendingRow & { record?: MessageRecord })[]): void {
    for (const row of rows) {
      if (this.byId.has(row.id)) continue;
      // Every field written out, the optional ones too: entries then share one shape from the start, and the
      // engine's per-message functions (schedule, launch, attempt, outcome) read them with one inline cache
      // instead of one per combination of the fields added later.
      const entry: Entry = {
        seq: row.seq,
        id: row.id,
        dueAt: row.dueAt,
        retried: row.retried,
        phase: 'scheduled',
        ticket: 0,
        cancelRequested: false,
        queue: row.queueName !== undefined ? this.queues.queue(row.queueName) : undefined,
        flow: row.flowControl ? this.flows.acquire(row.flowControl, row.seq) : undefined,
        record: row.record,
        activeAt: undefined,
        activeSince: undefined,
      };
      if (row.record) this.cached++;
      this.byId.set(row.id, entry);
      if (entry.queue !== undefined) {
        entry.phase = 'queued';
        this.queues.enqueue(entry.queue, entry);
      } else {
        this.schedule(entry);
      }
    }
  }

  // ------------------------------------------------------------------ queues (see queue-gate.ts)

  /** Applies a queue's (new) settings: parallelism and paused. */
  configureQueue(name: string, parallelism: number, paused: boolean): void {
    this.queues.configure(name, parallelism, paused);
  }

  /** A deleted queue keeps delivering what it still holds, one at a time, then disappears. */
  forgetQueue(name: string): void {
    this.queues.forget(name);
  }

  /** Messages of the queue not yet delivered or failed. */
  queueLag(name: string): number {
    return this.queues.lag(name);
  }

  // ------------------------------------------------------------------ flow control (see flow-gate.ts)

  /** The flow-control keys: their state, pause and resume, pins, rate periods (flow-control-routes.ts). */
  get flowControl(): FlowControl {
    return this.flows;
  }

  /** Where a pending message waits in its flow-control key's waitlist (undefined: the key does not hold it). */
  flowHold(messageId: string): FlowControlHold | undefined {
    const entry = this.byId.get(messageId);
    if (!entry?.flow || entry.phase !== 'flow') return undefined;
    const ahead = this.flows.ahead(entry.flow.key, entry.seq);
    if (ahead === undefined) return undefined;
    const flow = entry.flow;
    // The key's limits and state too: the run page says why the message waits (workflows' deliveries).
    return {
      key: flow.key,
      ahead,
      waiting: flow.waitlist.size,
      inflight: flow.inflight,
      ...(flow.paused ? { paused: true } : {}),
      ...(flow.parallelism !== undefined ? { parallelism: flow.parallelism } : {}),
      ...(flow.rate !== undefined ? { rate: flow.rate, periodMs: flow.periodMs } : {}),
    };
  }

  /** Attempts in flight over all destinations, and the most there may be. */
  globalParallelism(): { parallelismMax: number; parallelismCount: number } {
    return { parallelismMax: this.options.maxConcurrency, parallelismCount: this.active };
  }

  // ------------------------------------------------------------------ scheduling

  private schedule(entry: Entry): void {
    entry.phase = 'scheduled';
    if (entry.dueAt <= this.options.clock.now()) {
      this.gate(entry);
      return;
    }
    entry.ticket++;
    this.heap.push({ dueAt: entry.dueAt, seq: entry.seq, entry, ticket: entry.ticket });
    this.arm();
  }

  /**
   * The timer fires PREFETCH_MS before the next due time: entries due by then move to `soon` and their records
   * are read in one query, so that at the due time itself only the HTTP work is left (a burst of 100 messages
   * due at the same second otherwise spent its first milliseconds reading rows one by one).
   */
  private arm(): void {
    if (this.stopping) return;
    const top = this.heap.peek();
    const soon = this.soon[this.soonHead];
    const target = Math.min(soon ? soon.dueAt : Infinity, top ? top.dueAt - PREFETCH_MS : Infinity);
    if (target === Infinity) return;
    if (this.timer && this.timerDue <= target) return;
    this.timer?.cancel();
    this.timerDue = target;
    this.timer = this.options.clock.setTimer(() => this.onTimer(), target - this.options.clock.now());
  }

  private onTimer(): void {
    this.timer = undefined;
    this.timerDue = Infinity;
    const now = this.options.clock.now();
    const fetch: Entry[] = [];
    for (let top = this.heap.peek(); top && top.dueAt <= now + PREFETCH_MS; top = this.heap.peek()) {
      this.heap.pop();
      if (top.ticket !== top.entry.ticket || top.entry.phase !== 'scheduled') continue;
      this.soon.push(top);
      if (!top.entry.record && fetch.length < MAX_PREFETCH && this.cached < MAX_CACHED_RECORDS)
        fetch.push(top.entry);
    }
    if (fetch.length > 0) this.prefetch(fetch);
    while (this.soonHead < this.soon.length && (this.soon[this.soonHead] as HeapRef).dueAt <= now) {
      const ref = this.soon[this.soonHead++] as HeapRef;
      if (ref.ticket === ref.entry.ticket && ref.entry.phase === 'scheduled') this.gate(ref.entry);
    }
    if (this.soonHead === this.soon.length) {
      this.soon.length = 0;
      this.soonHead = 0;
    }
    this.arm();
  }

  private prefetch(entries: Entry[]): void {
    const records = this.options.store.messages.getMany(entries.map((entry) => entry.seq));
    for (const entry of entries) {
      const record = records.get(entry.seq);
      if (record && !record.done && !entry.record) {
        entry.record = record;
        this.cached++;
      }
    }
  }

  /** Due: through the flow-control gate (flow-gate.ts) if the message has a key, then to the ready line. */
  private gate(entry: Entry): void {
    const flow = entry.flow;
    if (!flow || this.flows.tryStart(flow)) {
      this.ready(entry);
      return;
    }
    entry.phase = 'flow';
    this.flows.wait(flow, entry);
  }

  private ready(entry: Entry): void {
    entry.phase = 'ready';
    if (this.active < this.options.maxConcurrency && !this.stopping) this.launch(entry);
    else this.readyQueue.push(entry);
  }

  private pumpReady(): void {
    while (
      this.active < this.options.maxConcurrency &&
      !this.stopping &&
      this.readyHead < this.readyQueue.length
    ) {
      const entry = this.readyQueue[this.readyHead++] as Entry;
      if (entry.phase === 'ready') this.launch(entry);
    }
    if (this.readyHead > 1024 && this.readyHead * 2 > this.readyQueue.length) {
      this.readyQueue.splice(0, this.readyHead);
      this.readyHead = 0;
    }
  }

  private launch(entry: Entry): void {
    this.active++;
    entry.phase = 'inflight';
    const attempt = this.attempt(entry)
      .catch((error: unknown) => {
        this.options.logger.error({ err: error, messageId: entry.id }, 'delivery failed');
        // Never leave a message stuck in flight: try it again a little later.
        if (entry.phase === 'inflight' && !this.stopping) {
          entry.dueAt = this.options.clock.now() + 5_000;
          this.schedule(entry);
        }
      })
      .finally(() => this.inflight.delete(entry));
    this.inflight.set(entry, attempt);
  }

  // ------------------------------------------------------------------ attempts and outcomes

  private buildRequest(record: MessageRecord, retried: number): OutgoingRequest {
    const headers: Record<string, string | string[]> = {};
    for (const [name, values] of Object.entries(record.spec.header)) {
      // Skipped here and set below, rather than deleted: a `delete` turns the object into a slow dictionary
      // for everything after it (the headers below and undici's walk over them), on every delivery.
      if (name === 'User-Agent') continue;
      headers[name] = values.length === 1 ? (values[0] as string) : values;
    }
    headers['User-Agent'] = DELIVERY.userAgent;
    headers[DELIVERY.messageId] = record.id;
    headers[DELIVERY.retried] = String(retried);
    if (record.spec.topicName !== undefined) headers[DELIVERY.topicName] = record.spec.topicName;
    if (record.spec.scheduleId !== undefined) headers[DELIVERY.scheduleId] = record.spec.scheduleId;
    if (record.spec.callerIp !== undefined) headers[DELIVERY.callerIp] = record.spec.callerIp;
    const request: OutgoingRequest = {
      url: record.spec.url,
      method: record.spec.method,
      headers,
      body: record.body,
      timeoutMs: record.spec.timeoutMs ?? this.options.defaultTimeoutMs,
    };
    return this.options.hooks?.prepare?.(record, request) ?? request;
  }

  private async attempt(entry: Entry): Promise<void> {
    const { store, clock } = this.options;
    const flow = entry.flow;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.active--;
      if (flow) this.flows.attemptEnded(flow);
    };
    try {
      const record = entry.record ?? store.messages.get(entry.seq);
      this.dropRecord(entry);
      if (!record || record.done) {
        release();
        this.finishEntry(entry);
        return;
      }
      const retried = entry.retried;
      // ACTIVE is written together with the outcome (one write instead of two); attempts still running after
      // ACTIVE_FLUSH_MS get it written on its own by flushActive(), so that the logs show them in progress.
      entry.activeAt = clock.now();
      entry.activeSince = performance.now();
      const request = this.buildRequest(record, retried);
      request.headers[DELIVERY.signature] = signDelivery(
        this.options.signingKey(),
        request.url,
        request.method === 'GET' || request.method === 'HEAD' ? Buffer.alloc(0) : request.body,
        this.wallClock(),
      );
      let response: DeliveryResponse;
      try {
        response = await this.options.transport.send(request);
      } catch (error) {
        response = {
          header: {},
          body: Buffer.alloc(0),
          error: error instanceof Error ? error.message : String(error),
        };
      }
      release();
      if (this.stopping && response.error?.startsWith('aborted')) return; // stays pending for the next start
      this.outcome(entry, record, retried, response);
    } finally {
      release();
      this.pumpReady();
      if (flow) this.flows.pump(flow);
    }
  }

  private outcome(entry: Entry, record: MessageRecord, retried: number, response: DeliveryResponse): void {
    const { clock } = this.options;
    const now = clock.now();
    const status = response.status;
    const delivered = status !== undefined && status >= 200 && status < 300;
    const nonRetryable =
      status === 489 &&
      Object.entries(response.header).some(
        ([name, values]) =>
          name.toLowerCase() === DELIVERY.nonRetryable.toLowerCase() && values[0]?.toLowerCase() === 'true',
      );
    const error = response.error ?? (delivered ? undefined : `destination answered HTTP ${status}`);
    // Built only on the failure paths: a delivered message's log has no ERROR event, and base64-encoding
    // every successful response's body for nothing showed in the delivery profile.
    const errorData = (): EventData => ({
      error,
      responseStatus: status,
      responseHeader: status !== undefined ? response.header : undefined,
      responseBody: status !== undefined ? response.body.toString('base64') : undefined,
      retried,
    });
    const callback = (dlqId?: string): PlannedMessage[] =>
      record.spec.callback !== undefined
        ? [this.planCallback(record, 'callback', response, retried, now, dlqId)]
        : [];

    if (delivered) {
      if (entry.flow) this.flows.delivered(entry.flow);
      this.finishEntry(entry);
      const activeAt = entry.activeAt ?? null;
      entry.activeAt = undefined;
      this.write(entry, [['delivered', entry.seq, activeAt, now, status]], callback(), now, {
        record,
        outcome: { state: 'DELIVERED', retried, response, now },
      });
      this.options.hooks?.onFinished?.(record, 'DELIVERED', response);
      return;
    }
    if (entry.cancelRequested) {
      this.finishEntry(entry);
      this.write(
        entry,
        [
          ['event', entry.seq, now, 'ERROR', errorData()],
          ['finish', entry.seq, now, 'CANCELLED'],
        ],
        callback(),
        now,
        { record, outcome: { state: 'CANCELLED', retried, response, now } },
      );
      this.options.hooks?.onFinished?.(record, 'CANCELLED', response);
      return;
    }
    if (!nonRetryable && retried < record.spec.maxRetries) {
      const delay = nextDelayMs({
        retried,
        factor: this.options.backoffFactor,
        retryDelay: record.spec.retryDelay,
        responseHeader: status !== undefined ? response.header : undefined,
        // A Retry-After date or a rate-limit reset time is the destination's wall-clock time, not the stack's.
        now: this.wallClock(),
      });
      entry.retried = retried + 1;
      entry.dueAt = now + delay;
      this.write(
        entry,
        [
          ['event', entry.seq, now, 'ERROR', errorData()],
          ['event', entry.seq, now, 'RETRY', { nextDeliveryTime: entry.dueAt, retried: entry.retried }],
          ['scheduleRetry', entry.seq, entry.retried, entry.dueAt],
        ],
        callback(),
        now,
        { record, outcome: { state: 'RETRY', retried, response, now, nextDeliveryTime: entry.dueAt } },
      );
      if (!this.stopping) this.schedule(entry);
      return;
    }
    const dlqId = newDlqId(now, entry.seq);
    this.finishEntry(entry);
    const planned = callback(dlqId);
    if (record.spec.failureCallback !== undefined) {
      planned.push(this.planCallback(record, 'failureCallback', response, retried, now, dlqId));
    }
    this.write(
      entry,
      [
        ['event', entry.seq, now, 'ERROR', errorData()],
        [
          'event',
          entry.seq,
          now,
          'FAILED',
          { error: nonRetryable ? `non-retryable error: ${error}` : error, responseStatus: status },
        ],
        ['markFinished', entry.seq, now, 'FAILED'],
        [
          'insertDlq',
          {
            dlqId,
            seq: entry.seq,
            createdAt: now,
            responseStatus: status ?? 0,
            responseHeader: status !== undefined ? response.header : undefined,
            responseBody: status !== undefined ? response.body : undefined,
          },
        ],
      ],
      planned,
      now,
      { record, outcome: { state: 'FAILED', retried, response, now, dlqId } },
    );
    this.options.hooks?.onFinished?.(record, 'FAILED', response);
  }

  private planCallback(
    record: MessageRecord,
    kind: 'callback' | 'failureCallback',
    response: DeliveryResponse,
    retried: number,
    now: number,
    dlqId?: string,
  ): PlannedMessage {
    const { spec } = record;
    const payload: CallbackPayload = {
      status: response.status ?? 0,
      header: response.header,
      body: response.body.toString('base64'),
      ...(retried > 0 ? { retried } : {}),
      maxRetries: spec.maxRetries,
      ...(kind === 'failureCallback' && dlqId !== undefined ? { dlqId } : {}),
      sourceMessageId: record.id,
      url: spec.url,
      method: spec.method,
      sourceHeader: spec.header,
      sourceBody: record.body.toString('base64'),
      topicName: spec.topicName,
      endpointName: spec.endpointName,
      scheduleId: spec.scheduleId,
      notBefore: spec.notBefore,
      createdAt: record.createdAt,
      callerIP: spec.callerIp,
      api: spec.api,
      error: response.error,
    };
    return planCallback(spec, kind, payload, now);
  }

  /**
   * Hands an outcome's writes to the writer. New messages it plans (callbacks) are inserted in the same
   * transaction and scheduled once it has committed.
   */
  private write(
    entry: Entry,
    calls: MessageWrite[],
    planned: PlannedMessage[],
    now: number,
    hook?: { record: MessageRecord; outcome: AttemptOutcome },
  ): void {
    if (entry.activeAt !== undefined) {
      calls.unshift(['event', entry.seq, entry.activeAt, 'ACTIVE']);
      entry.activeAt = undefined;
    }
    const extra = hook && this.options.hooks?.onOutcome?.(hook.record, hook.outcome);
    if (planned.length === 0 && !extra) {
      this.options.writer.enqueue(calls);
      return;
    }
    const insert = planned.length > 0 ? prepareInsert(planned, now) : undefined;
    const extraCalls = (extra?.calls ?? []) as MessageWrite[];
    const own = insert ? [...calls, insert.call] : calls;
    this.options.writer
      .commitAll([...own, ...extraCalls])
      .then((results) => {
        if (this.stopping) return;
        if (insert) this.addInserted(insert.result(results[own.length - 1]), planned);
        extra?.committed?.(results.slice(own.length));
      })
      .catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'could not record a delivery outcome'),
      );
  }

  /** Writes the ACTIVE event of attempts that have been running for a while. */
  private flushActive(): void {
    const threshold = performance.now() - ACTIVE_FLUSH_MS;
    const calls: MessageWrite[] = [];
    for (const entry of this.inflight.keys()) {
      if (entry.activeAt !== undefined && (entry.activeSince ?? 0) <= threshold) {
        calls.push(['event', entry.seq, entry.activeAt, 'ACTIVE']);
        entry.activeAt = undefined;
      }
    }
    this.options.writer.enqueue(calls);
  }

  private dropRecord(entry: Entry): void {
    if (entry.record) {
      entry.record = undefined;
      this.cached--;
    }
  }

  private finishEntry(entry: Entry): void {
    if (entry.phase === 'done') return;
    const wasFlowWaiting = entry.phase === 'flow';
    entry.phase = 'done';
    this.dropRecord(entry);
    this.byId.delete(entry.id);
    if (entry.queue) this.queues.leave(entry.queue, entry);
    if (entry.flow) this.flows.leave(entry.flow, entry, wasFlowWaiting);
  }

  // ------------------------------------------------------------------ cancellation

  /**
   * Forgets messages that are waiting for a due time still to come, so that they are never attempted: all of
   * them or, when any is already due, attempted or unknown, none. For a schedule's tick committed ahead of its
   * time and then taken back (schedule-scheduler.ts); the caller removes their rows. Writes nothing.
   */
  withdrawPending(ids: string[]): boolean {
    const now = this.options.clock.now();
    const entries: Entry[] = [];
    for (const id of ids) {
      const entry = this.byId.get(id);
      if (!entry || (entry.phase !== 'scheduled' && entry.phase !== 'queued') || entry.dueAt <= now)
        return false;
      entries.push(entry);
    }
    for (const entry of entries) this.finishEntry(entry);
    return true;
  }

  /**
   * Cancels pending messages by id. A message whose attempt is in flight is marked CANCEL_REQUESTED and is
   * cancelled when that attempt fails (a success is too late to cancel). Resolves, once durable, with how
   * many of the ids this call cancelled — a message a cancel had already reached is not counted again, so
   * a client that cancels "all" in a loop until nothing is cancelled comes to an end.
   */
  async cancel(ids: string[], options: { quietInflight?: boolean } = {}): Promise<number> {
    const now = this.options.clock.now();
    const writes: MessageWrite[] = [];
    let count = 0;
    for (const id of ids) {
      const entry = this.byId.get(id);
      if (!entry || entry.cancelRequested) continue;
      count++;
      if (entry.phase === 'inflight') {
        entry.cancelRequested = true;
        writes.push(['requestCancel', entry.seq]);
        // `quietInflight`: the attempt in flight is the one that made the cancel (a workflow step ending its
        // run); its log shows how the attempt ended, not a cancel nobody asked for.
        if (!options.quietInflight) writes.push(['event', entry.seq, now, 'CANCEL_REQUESTED']);
        continue;
      }
      this.finishEntry(entry);
      writes.push(['event', entry.seq, now, 'CANCEL_REQUESTED'], ['finish', entry.seq, now, 'CANCELLED']);
    }
    if (writes.length > 0) await this.options.writer.commitAll(writes);
    return count;
  }

  /** The default backoff of messages without a retry delay, as a retry-delay expression. */
  defaultRetryDelay(): string {
    return defaultBackoffExpression(this.options.backoffFactor);
  }

  isPending(id: string): boolean {
    return this.byId.has(id);
  }

  /** When the attempt of a message in flight started (its ACTIVE event may not be written yet). */
  inflightSince(id: string): number | undefined {
    const entry = this.byId.get(id);
    return entry?.phase === 'inflight' ? entry.activeAt : undefined;
  }

  // ------------------------------------------------------------------ the stack clock (stack/local/)

  /** Where a pending message stands: what it waits for, and when it is due. Undefined: not pending. */
  pendingState(id: string): PendingState | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    return {
      phase: entry.phase,
      dueAt: entry.dueAt,
      retried: entry.retried,
      queue: entry.queue?.name,
      flowKey: entry.flow?.key,
    };
  }

  /** The message waiting for its time that falls due first (what the clock fires next), if any. */
  nextDue(): { id: string; dueAt: number; retried: number } | undefined {
    const live = (ref: HeapRef | undefined): boolean =>
      ref !== undefined && ref.ticket === ref.entry.ticket && ref.entry.phase === 'scheduled';
    // Stale references (cancelled, re-scheduled) would be skipped when popped anyway: drop them now.
    while (this.heap.size > 0 && !live(this.heap.peek())) this.heap.pop();
    let soon: HeapRef | undefined;
    for (let index = this.soonHead; index < this.soon.length && !soon; index++) {
      const ref = this.soon[index] as HeapRef;
      if (live(ref)) soon = ref;
    }
    const top = this.heap.peek();
    const first = soon && (!top || soon.dueAt <= top.dueAt) ? soon : top;
    return first && { id: first.entry.id, dueAt: first.dueAt, retried: first.entry.retried };
  }

  /**
   * "Run now": a message waiting for its time (a delay, not-before or retry backoff) becomes due at once,
   * whatever the clock says — its other limits (queue, flow control, concurrency) still apply. The new due
   * time is persisted, so a restart does not put it back. Answers where it stood when it could not.
   */
  runNow(id: string): { ok: true; wasDueAt: number } | { ok: false; state?: PendingState } {
    const entry = this.byId.get(id);
    if (!entry || entry.phase !== 'scheduled') return { ok: false, state: this.pendingState(id) };
    const wasDueAt = entry.dueAt;
    entry.dueAt = Math.min(entry.dueAt, this.options.clock.now());
    // Its heap (or prefetch) reference is stale from here on.
    entry.ticket++;
    this.options.writer.enqueue([['scheduleRetry', entry.seq, entry.retried, entry.dueAt]]);
    this.schedule(entry);
    return { ok: true, wasDueAt };
  }

  /** Numbers for logs and tests. */
  stats(): { pending: number; inflight: number; scheduled: number } {
    return { pending: this.byId.size, inflight: this.active, scheduled: this.heap.size };
  }
}
