// One TCP connection to redis-server speaking RESP2: authenticates once, then carries any number of
// in-flight commands (replies come back in order, so requests can share a connection as long as none of
// them changes its state — the command policy makes sure of that).
import net from 'node:net';

import type { RawReplySink, RespArg, RespValue } from './resp';
import { DecodedReply, encodeCommands, RespError, RespParser } from './resp';

export interface RedisTarget {
  host: string;
  port: number;
  /** Database index; anything but 0 costs a SELECT when the connection opens. */
  db: number;
  /**
   * A connection with commands in flight that receives nothing for this long is dropped and its
   * requests fail (503). Without it a Redis that stopped answering (a paused process, a host gone
   * without a reset) would hold requests until TCP gives up, many minutes later. Default 30 s.
   */
  replyTimeoutMs?: number;
  /**
   * A reply larger than this is read and dropped as it arrives and answered as a `ReplyTooLargeError`
   * (memory stays bounded whatever a value's size). Default: no limit.
   */
  maxReplyBytes?: number;
}

export interface RedisCredentials {
  /** ACL user; omitted means the legacy single-password form (`AUTH <password>`). */
  username?: string;
  /** Omitted when the server needs no password. */
  password?: string;
}

/** Redis cannot be reached or the connection dropped: the request fails fast with a 503. */
export class RedisUnavailableError extends Error {}

/** Redis refused the credentials (AUTH failed): the caller's token no longer maps to a valid user. */
export class RedisAuthError extends Error {}

/** The replies to one `send`, in order; `raws` (their wire bytes) only when asked for. */
export interface Replies {
  values: RespValue[];
  raws: Buffer[] | undefined;
}

/**
 * The replies to one `sendRaw`, in order: runs of whole replies as Redis sent them (Buffers), and a
 * decoded value for each reply that did not arrive within one read or is over RAW_REPLY_BYTES.
 */
export type RawReplies = (Buffer | DecodedReply)[];

interface Pending {
  remaining: number;
  replies: Replies;
  /** Set for `sendRaw`: the replies are collected here instead of in `replies`. */
  raw: RawReplies | undefined;
  resolve(replies: Replies | RawReplies): void;
  reject(error: Error): void;
}

const CONNECT_TIMEOUT_MS = 3000;
const DEFAULT_REPLY_TIMEOUT_MS = 30_000;

/** One timer checks every connection that is waiting for replies. */
const waiting = new Set<RedisConnection>();
let watchdog: NodeJS.Timeout | undefined;

function watch(connection: RedisConnection): void {
  waiting.add(connection);
  if (!watchdog) {
    watchdog = setInterval(() => {
      const now = Date.now();
      for (const c of waiting) c.checkProgress(now);
    }, 250);
    watchdog.unref();
  }
}

function unwatch(connection: RedisConnection): void {
  waiting.delete(connection);
  if (waiting.size === 0 && watchdog) {
    clearInterval(watchdog);
    watchdog = undefined;
  }
}

/** Up to this many bytes, a turn's commands are copied into one buffer for their write (`flush`). */
const ONE_BUFFER_BYTES = 64 * 1024;

export class RedisConnection {
  private readonly parser: RespParser;
  private queue: (Pending | undefined)[] = [];
  private head = 0;
  /** Commands written since the last flush; they go out together once per event-loop turn. */
  private outbox: Buffer[] = [];
  private outboxBytes = 0;
  private flushScheduled = false;
  private closeError: Error | undefined;
  private readonly closeListeners = new Set<(error: Error) => void>();
  /** Replies nobody asked for: pub/sub messages and MONITOR lines. */
  onPush: ((value: RespValue) => void) | undefined;
  /** When the oldest unanswered command was sent, or the last bytes arrived since. */
  private waitingSince = 0;

  /** This connection as Redis names its client (`127.0.0.1:54321`), for MONITOR lines (client-labels.ts). */
  readonly clientAddress: string | undefined;

  private constructor(
    private readonly socket: net.Socket,
    readonly target: RedisTarget,
  ) {
    this.clientAddress =
      socket.localAddress === undefined ? undefined : `${socket.localAddress}:${socket.localPort}`;
    const raw: RawReplySink = {
      budget: () => {
        const pending = this.queue[this.head];
        return pending?.raw ? pending.remaining : 0;
      },
      take: (bytes, count) => {
        const pending = this.queue[this.head]!;
        pending.raw!.push(bytes);
        pending.remaining -= count;
        if (pending.remaining === 0) this.settleHead();
      },
    };
    this.parser = new RespParser((value) => this.onReply(value), target.maxReplyBytes, raw);
    socket.on('data', (chunk: Buffer) => {
      this.waitingSince = Date.now();
      try {
        this.parser.feed(chunk);
      } catch (error) {
        this.destroy(
          new RedisUnavailableError(`ERR unreadable reply from Redis: ${(error as Error).message}`),
        );
      }
    });
    socket.on('error', (error) => this.destroy(lostError(target, error)));
    socket.on('close', () => this.destroy(lostError(target)));
  }

  /** Opens, authenticates and (for db ≠ 0) selects; rejects fast when Redis is down. */
  static async open(target: RedisTarget, credentials: RedisCredentials): Promise<RedisConnection> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host: target.host, port: target.port, noDelay: true, keepAlive: true });
      const timer = setTimeout(() => {
        s.destroy();
        reject(new RedisUnavailableError(`ERR cannot reach Redis at ${describe(target)}: connect timeout`));
      }, CONNECT_TIMEOUT_MS);
      s.once('connect', () => {
        clearTimeout(timer);
        s.removeAllListeners('error');
        resolve(s);
      });
      s.once('error', (error) => {
        clearTimeout(timer);
        reject(new RedisUnavailableError(`ERR cannot reach Redis at ${describe(target)}: ${reason(error)}`));
      });
    });
    const connection = new RedisConnection(socket, target);
    const setup: RespArg[][] = [];
    if (credentials.password !== undefined) {
      setup.push(
        credentials.username === undefined
          ? ['AUTH', credentials.password]
          : ['AUTH', credentials.username, credentials.password],
      );
    }
    if (target.db !== 0) setup.push(['SELECT', String(target.db)]);
    if (setup.length > 0) {
      let replies: RespValue[];
      try {
        replies = (await connection.send(encodeCommands(setup), setup.length)).values;
      } catch (error) {
        connection.close();
        throw error;
      }
      const failed = replies.find((r) => r instanceof RespError);
      if (failed) {
        connection.close();
        const message = failed.message;
        const authFailed =
          /^(WRONGPASS|NOAUTH)/.test(message) || (setup[0]?.[0] === 'AUTH' && replies[0] === failed);
        throw authFailed ? new RedisAuthError(message) : new RedisUnavailableError(message);
      }
    }
    return connection;
  }

  get closed(): boolean {
    return this.closeError !== undefined;
  }

  /** Bytes of commands waiting for this turn's write (0: nothing to write this turn). */
  get queuedBytes(): number {
    return this.outboxBytes;
  }

  /** Commands sent whose replies have not all arrived yet. */
  get inflight(): number {
    return this.queue.length - this.head;
  }

  /** Writes pre-encoded commands and resolves with exactly `count` replies, in order. */
  send(payload: Buffer, count: number, withRaw = false): Promise<Replies> {
    const replies: Replies = { values: [], raws: withRaw ? [] : undefined };
    return this.enqueue(payload, count, replies, undefined) as Promise<Replies>;
  }

  /**
   * Like `send`, but hands the replies over as their wire bytes where it can (RawReplies), without a value
   * per reply: the `/pipeline` JSON fast path turns them into its body directly (resp-json.ts).
   */
  sendRaw(payload: Buffer, count: number): Promise<RawReplies> {
    return this.enqueue(payload, count, { values: [], raws: undefined }, []) as Promise<RawReplies>;
  }

  private enqueue(
    payload: Buffer,
    count: number,
    replies: Replies,
    raw: RawReplies | undefined,
  ): Promise<Replies | RawReplies> {
    if (this.closeError) return Promise.reject(this.closeError);
    return new Promise<Replies | RawReplies>((resolve, reject) => {
      if (this.inflight === 0) {
        this.waitingSince = Date.now();
        watch(this);
      }
      this.queue.push({ remaining: count, replies, raw, resolve, reject });
      this.outbox.push(payload);
      this.outboxBytes += payload.length;
      // Everything the HTTP requests of one event-loop turn send on this connection goes out in a single
      // write: on loopback each write syscall also pays for delivering the data to Redis, so batching
      // is what keeps many concurrent requests cheap.
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.flushScheduled = false;
    const out = this.outbox;
    const bytes = this.outboxBytes;
    this.outbox = [];
    this.outboxBytes = 0;
    if (this.closeError || out.length === 0) return;
    if (out.length === 1) {
      this.socket.write(out[0]!);
      return;
    }
    if (bytes <= ONE_BUFFER_BYTES) {
      // One buffer, one write: copying a turn's small payloads is cheaper than passing each through the
      // socket stream's write queue (a request object per write) and a writev of as many pieces.
      this.socket.write(Buffer.concat(out, bytes));
      return;
    }
    this.socket.cork();
    for (const payload of out) this.socket.write(payload);
    this.socket.uncork();
  };

  async call(args: readonly RespArg[]): Promise<RespValue> {
    const { values } = await this.send(encodeCommands([args]), 1);
    return values[0]!;
  }

  onClose(listener: (error: Error) => void): () => void {
    if (this.closeError) {
      listener(this.closeError);
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  close(): void {
    this.destroy(new RedisUnavailableError('ERR connection to Redis closed'));
  }

  /** Called by the watchdog: drop the connection if Redis has been silent for too long. */
  checkProgress(now: number): void {
    const limit = this.target.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS;
    if (this.inflight > 0 && now - this.waitingSince > limit) {
      this.destroy(
        new RedisUnavailableError(
          `ERR Redis at ${describe(this.target)} did not answer for ${limit / 1000} s; the connection was dropped`,
        ),
      );
    }
  }

  private onReply(value: RespValue): void {
    const pending = this.queue[this.head];
    if (!pending) {
      if (this.onPush) this.onPush(value);
      else this.destroy(new RedisUnavailableError('ERR Redis sent a reply nobody asked for'));
      return;
    }
    if (pending.raw) {
      pending.raw.push(new DecodedReply(value));
    } else {
      pending.replies.values.push(value);
      pending.replies.raws?.push(this.parser.currentRaw());
    }
    if (--pending.remaining > 0) return;
    this.settleHead();
  }

  /** The oldest command's replies are all there: take it off the queue and resolve it. */
  private settleHead(): void {
    const pending = this.queue[this.head]!;
    this.queue[this.head++] = undefined;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
      unwatch(this);
    } else if (this.head > 1024) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    pending.resolve(pending.raw ?? pending.replies);
  }

  private destroy(error: Error): void {
    if (this.closeError) return;
    this.closeError = error;
    unwatch(this);
    this.socket.destroy();
    const pending = this.queue;
    const head = this.head;
    this.queue = [];
    this.head = 0;
    for (let i = head; i < pending.length; i++) pending[i]?.reject(error);
    for (const listener of this.closeListeners) listener(error);
    this.closeListeners.clear();
  }
}

function describe(target: RedisTarget): string {
  return `${target.host}:${target.port}`;
}

function reason(error: Error): string {
  return (error as NodeJS.ErrnoException).code ?? error.message;
}

function lostError(target: RedisTarget, error?: Error): RedisUnavailableError {
  return new RedisUnavailableError(
    `ERR connection to Redis at ${describe(target)} lost${error ? `: ${reason(error)}` : ''}`,
  );
}
