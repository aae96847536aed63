// Connections to Redis for one set of credentials (standard, read-only, or an ACL user's token).
//
// - shared: a few long-lived connections that plain commands and pipelines multiplex on. Redis answers
//   in order per connection and the command policy refuses everything that changes connection state,
//   so requests can interleave safely; many requests in flight on one socket batch into few syscalls.
// - exclusive: a connection lent to exactly one /multi-exec at a time (MULTI…EXEC must not interleave).
// - dedicated: a fresh connection per SSE stream, closed with the stream.
import type { ClientLabels } from './client-labels';
import type { RedisConnection, RedisCredentials, RedisTarget } from './connection';
import { RedisAuthError, RedisConnection as Connection } from './connection';

export interface BackendOptions {
  /** Where Redis is right now; read on every new connection (the managed server may move ports). */
  target(): RedisTarget;
  credentials: RedisCredentials;
  /**
   * Multiplexed connections kept open for commands and pipelines (default 2). Few is cheaper: every
   * connection costs a write and a read syscall per event-loop turn. More than one keeps a huge request
   * from holding up small ones entirely (Redis reads each connection in 16 KB turns).
   */
  sharedSize?: number;
  /** Idle transaction connections kept for reuse. */
  exclusiveIdle?: number;
  /**
   * Called once when AUTH fails; returning true retries (used to re-create the read-only ACL user on an
   * external Redis that restarted and forgot it).
   */
  repairCredentials?(): Promise<boolean>;
  /** The caller these connections work for, recorded in `labels` so MONITOR lines can name it. */
  caller?: { label: string; labels: ClientLabels };
  /** These connections do the bridge's own work: MONITOR leaves their commands out (client-labels.ts). */
  unshownIn?: ClientLabels;
}

/** A turn's write to Redis that new commands still join (see `leastBusy`). */
const JOIN_WRITE_BYTES = 64 * 1024;

export class Backend {
  private readonly shared: Connection[] = [];
  private opening: Promise<Connection> | undefined;
  private readonly idle: Connection[] = [];
  private readonly dedicated = new Set<Connection>();
  private closed = false;

  constructor(private readonly options: BackendOptions) {}

  /**
   * The shared connection `sharedConnection()` would pick, when it can be had without waiting: an idle one,
   * or the least busy one once the set is complete. Undefined when a connection must be opened first.
   * Why: nearly every request finds its connections open, and taking one synchronously saves the request
   * a promise and a microtask turn on the hot path.
   */
  readyConnection(): RedisConnection | undefined {
    const best = this.leastBusy();
    if (!best) return undefined;
    const complete = this.shared.length >= (this.options.sharedSize ?? 2);
    return best.inflight === 0 || best.queuedBytes > 0 || complete ? best : undefined;
  }

  /**
   * The connection whose write of this event-loop turn a new command should join, else the one with the
   * fewest commands in flight. Why join: the commands of one turn then go out in one write and their
   * replies come back in one read, where spreading them over both connections cost a write and a read
   * (syscalls on both sides) per connection and turn. Not once that write is big: then the other
   * connection keeps a small request from waiting behind a huge one.
   */
  private leastBusy(): Connection | undefined {
    let best: Connection | undefined;
    for (const c of this.shared) {
      if (c.queuedBytes > 0 && c.queuedBytes < JOIN_WRITE_BYTES) return c;
      if (!best || c.inflight < best.inflight) best = c;
    }
    return best;
  }

  /** A shared connection for commands that leave no state behind. */
  async sharedConnection(): Promise<RedisConnection> {
    const best = this.leastBusy();
    if (best && (best.inflight === 0 || best.queuedBytes > 0)) return best;
    const size = this.options.sharedSize ?? 2;
    if (!this.opening && this.shared.length < size) {
      const opening = this.open().then((c) => {
        if (this.closed) {
          c.close();
          return c;
        }
        this.shared.push(c);
        c.onClose(() => remove(this.shared, c));
        return c;
      });
      this.opening = opening;
      const clear = (): void => {
        if (this.opening === opening) this.opening = undefined;
      };
      opening.then(clear, clear);
    }
    // A busy live connection now beats a new one later; with none, wait for (or fail with) the opening.
    if (best) {
      this.opening?.catch(() => {});
      return best;
    }
    return this.opening!;
  }

  /** A connection nobody else uses until `release`; for one transaction. */
  async exclusive(): Promise<RedisConnection> {
    for (let c = this.idle.pop(); c; c = this.idle.pop()) if (!c.closed) return c;
    return this.open();
  }

  /** Returns a transaction connection; only reuse it when the transaction ended cleanly. */
  release(connection: RedisConnection, reusable: boolean): void {
    if (
      reusable &&
      !this.closed &&
      !connection.closed &&
      this.idle.length < (this.options.exclusiveIdle ?? 4)
    ) {
      this.idle.push(connection as Connection);
    } else {
      connection.close();
    }
  }

  /** A fresh connection for one SSE stream; tracked so `close()` ends it and tests can count it. */
  async dedicatedConnection(): Promise<RedisConnection> {
    const c = await this.open();
    if (this.closed) {
      c.close();
      return c;
    }
    this.dedicated.add(c);
    c.onClose(() => this.dedicated.delete(c));
    return c;
  }

  stats(): { shared: number; idle: number; dedicated: number } {
    return { shared: this.shared.length, idle: this.idle.length, dedicated: this.dedicated.size };
  }

  close(): void {
    this.closed = true;
    for (const c of [...this.shared, ...this.idle, ...this.dedicated]) c.close();
    this.shared.length = 0;
    this.idle.length = 0;
  }

  private async open(): Promise<Connection> {
    const connection = await this.connect();
    this.options.caller?.labels.track(connection, this.options.caller.label);
    this.options.unshownIn?.hide(connection);
    return connection;
  }

  private async connect(): Promise<Connection> {
    try {
      return await Connection.open(this.options.target(), this.options.credentials);
    } catch (error) {
      if (
        error instanceof RedisAuthError &&
        this.options.repairCredentials &&
        (await this.options.repairCredentials())
      ) {
        return Connection.open(this.options.target(), this.options.credentials);
      }
      throw error;
    }
  }
}

function remove<T>(list: T[], item: T): void {
  const i = list.indexOf(item);
  if (i !== -1) list.splice(i, 1);
}
