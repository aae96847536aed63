// One renderer connection (an Electron window or a browser-host socket). Both transports feed frames
// in and carry frames out; the session owns the connection's open streams and jobs, and stops them all
// when the connection goes away (a job's scans and writes with it).
import type { BridgeErrorData } from '../../../shared/bridge/errors';
import type { CallResult, ClientFrame, ServerFrame } from '../../../shared/bridge/frames';
import type { OpenControl, Router } from './router';
import { StreamChannel, type StreamChannelOptions } from './stream-channel';

interface OpenStream {
  channel: StreamChannel;
  control: OpenControl | null;
  /** close() arrived while the handler was still starting. */
  closeRequested: boolean;
}

export class BridgeSession {
  private readonly streams = new Map<number, OpenStream>();
  /** Calls still being answered, by id: a `close` for one of them means the renderer stopped waiting. */
  private readonly calls = new Map<number, AbortController>();
  private disposed = false;

  constructor(
    private readonly router: Router,
    private readonly send: (frame: ServerFrame) => void,
    private readonly channelOptions: StreamChannelOptions = {},
  ) {}

  get openStreamCount(): number {
    return this.streams.size;
  }

  /** Handles one frame from the renderer. Calls answer with a `result` frame. */
  async receive(frame: ClientFrame): Promise<void> {
    switch (frame.type) {
      case 'call': {
        const result = await this.call(frame.name, frame.input, frame.id);
        if (result) this.send({ type: 'result', id: frame.id, ...result });
        return;
      }
      case 'open':
        return this.open(frame.id, frame.name, frame.input);
      case 'start':
        return this.start(frame.id, frame.options, frame.confirmed);
      case 'close':
        return this.close(frame.id);
    }
  }

  /**
   * Answers a call; with an `id`, `close(id)` stops it (its HTTP requests are aborted) and it answers nothing
   * (undefined), as after `dispose()`: nobody waits for that answer.
   */
  async call(name: string, input: unknown, id?: number): Promise<CallResult | undefined> {
    if (this.disposed) return undefined;
    const controller = new AbortController();
    if (id !== undefined) {
      if (this.calls.has(id) || this.streams.has(id))
        return { ok: false, error: { code: 'INVALID_INPUT', message: `id ${id} is already in use` } };
      this.calls.set(id, controller);
    }
    try {
      const result = await this.router.call(name, input, controller.signal);
      return this.disposed || controller.signal.aborted ? undefined : result;
    } finally {
      if (id !== undefined && this.calls.get(id) === controller) this.calls.delete(id);
    }
  }

  async open(id: number, name: string, input: unknown): Promise<void> {
    if (this.disposed) return;
    if (this.streams.has(id)) {
      this.send({
        type: 'end',
        id,
        error: { code: 'INVALID_INPUT', message: `stream id ${id} is already open` },
      });
      return;
    }
    const channel = new StreamChannel(id, (frame) => this.deliver(frame), this.channelOptions);
    const entry: OpenStream = { channel, control: null, closeRequested: false };
    this.streams.set(id, entry);
    const sink = {
      push: (event: unknown) => channel.push(event),
      end: (error?: BridgeErrorData) => this.finish(id, error),
    };
    try {
      entry.control = await this.router.open(name, input, sink);
    } catch (error) {
      this.streams.delete(id);
      channel.end(error as BridgeErrorData);
      return;
    }
    if (this.disposed || channel.isEnded) {
      // The connection went away, or the source ended itself, while the handler was starting.
      this.stopSource(entry);
    } else if (entry.closeRequested) {
      this.finish(id);
    }
  }

  /** The renderer's go for an open job (ignored for a stream or an id that is not open). */
  start(id: number, options: unknown, confirmed: number): void {
    const start = this.streams.get(id)?.control?.start;
    start?.(options, confirmed);
  }

  /** The renderer asked to stop a stream (or cancel a job), or stopped waiting for a call. */
  close(id: number): void {
    const call = this.calls.get(id);
    if (call) {
      this.calls.delete(id);
      call.abort();
      return;
    }
    const entry = this.streams.get(id);
    if (!entry) return;
    if (!entry.control) {
      entry.closeRequested = true;
      return;
    }
    this.finish(id);
  }

  /** The connection is gone: stop every source, send nothing more. */
  dispose(): void {
    this.disposed = true;
    for (const call of this.calls.values()) call.abort();
    this.calls.clear();
    for (const entry of this.streams.values()) {
      entry.channel.discard();
      this.stopSource(entry);
    }
    this.streams.clear();
  }

  private finish(id: number, error?: BridgeErrorData): void {
    const entry = this.streams.get(id);
    if (!entry) return;
    this.streams.delete(id);
    entry.channel.end(error);
    this.stopSource(entry);
  }

  private stopSource(entry: OpenStream): void {
    const control = entry.control;
    entry.control = { stop: () => {} };
    try {
      control?.stop();
    } catch {
      // A failing stop function must not keep the other streams open.
    }
  }

  private deliver(frame: ServerFrame): void {
    if (!this.disposed) this.send(frame);
  }
}
