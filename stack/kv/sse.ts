// Server-sent event streams: /monitor, /subscribe/<channel>, /psubscribe/<pattern>.
//
// Slow consumers: Redis pushes MONITOR lines (and messages) as fast as commands run, and a client that
// reads slower than that would make the bridge buffer without bound. We keep reading from Redis (pausing
// the socket would only move the unbounded buffer into redis-server, whose client output limit for
// monitors is off by default) and, while more than `bufferBytes` are waiting to be written to the
// client, drop lines. When the client has caught up (buffer below half), one notice line says how many
// were dropped: `data: "DROPPED <n> lines: the client reads too slowly"`. It is quoted like the opening
// `data: "OK"` and has no commas, so neither a monitor parser nor the SDK's subscribe parser mistakes it
// for a command line or a message.
import type { ServerResponse } from 'node:http';

export interface SseOptions {
  /** Bytes waiting for a slow client before lines are dropped. */
  bufferBytes: number;
  /** Interval of `: ping` comments that detect clients that went away silently. */
  heartbeatMs: number;
}

/** One SSE event. A payload with line breaks becomes several `data:` lines, which EventSource rejoins. */
export function sseEvent(data: string): string {
  if (!data.includes('\n') && !data.includes('\r')) return `data: ${data}\n\n`;
  return (
    data
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}\n`)
      .join('') + '\n'
  );
}

export function droppedNotice(count: number): string {
  return `"DROPPED ${count} lines: the client reads too slowly"`;
}

export class SseStream {
  private queue: string[] = [];
  private queuedBytes = 0;
  private flushScheduled = false;
  private dropping = false;
  private dropped = 0;
  private ended = false;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    private readonly options: SseOptions,
  ) {
    this.heartbeat = setInterval(() => this.write(': ping\n\n'), options.heartbeatMs);
    this.heartbeat.unref();
    res.on('drain', () => this.recover());
  }

  /** Lines dropped since the stream opened, and the most bytes ever waiting for the client. */
  droppedTotal = 0;
  maxBuffered = 0;

  send(data: string): void {
    if (this.ended) return;
    const waiting = this.res.writableLength + this.queuedBytes;
    if (this.dropping || waiting > this.options.bufferBytes) {
      if (this.dropping && waiting <= this.options.bufferBytes / 2) {
        this.recover();
      } else {
        this.dropping = true;
        this.dropped++;
        this.droppedTotal++;
        return;
      }
    }
    this.enqueue(sseEvent(data));
  }

  /** Ends the stream with a final `event: error` (e.g. Redis went away). */
  fail(message: string): void {
    if (this.ended) return;
    if (this.res.destroyed) {
      this.stop();
      return;
    }
    this.enqueue(`event: error\n${sseEvent(message)}`);
    this.flush();
    this.stop();
    this.res.end();
  }

  stop(): void {
    this.ended = true;
    clearInterval(this.heartbeat);
    this.queue = [];
    this.queuedBytes = 0;
  }

  private recover(): void {
    if (!this.dropping || this.ended) return;
    if (this.res.writableLength + this.queuedBytes > this.options.bufferBytes / 2) return;
    this.dropping = false;
    this.enqueue(sseEvent(droppedNotice(this.dropped)));
    this.dropped = 0;
  }

  private enqueue(text: string): void {
    this.queue.push(text);
    this.queuedBytes += text.length;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // Lines that arrive together go out in one write.
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.queue.length === 0 || this.ended) return;
    const text = this.queue.length === 1 ? this.queue[0]! : this.queue.join('');
    this.queue = [];
    this.queuedBytes = 0;
    this.write(text);
  }

  private write(text: string): void {
    if (this.ended || this.res.destroyed) return;
    this.res.write(text);
    if (this.res.writableLength > this.maxBuffered) this.maxBuffered = this.res.writableLength;
  }
}
