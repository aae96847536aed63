// How the renderer reaches main. Two transports with one shape: Electron IPC through the preload's
// frozen `window.switchyard`, or a WebSocket to the browser host. Nothing above this file knows which.
import { type BridgeErrorData, isBridgeErrorData } from '../../../shared/bridge/errors';
import type { CallResult, ClientFrame, ServerFrame } from '../../../shared/bridge/frames';

export interface StreamHandlers {
  onEvents(events: unknown[], dropped: number): void;
  onEnd(error?: BridgeErrorData): void;
}

export type ConnectionState = 'connecting' | 'open' | 'closed';

/** An open job: its events go to the handlers; `start` is the user's go, `close` cancels it. */
export interface JobHandle {
  start(options: unknown, confirmed: number): void;
  close(): void;
}

export interface Transport {
  /**
   * Answers a call. Aborting `signal` stops waiting: the call answers CANCELLED at once and main aborts the
   * call's requests to the service.
   */
  call(name: string, input: unknown, signal?: AbortSignal): Promise<CallResult>;
  /** Opens a stream; the returned function closes it. */
  open(name: string, input: unknown, handlers: StreamHandlers): () => void;
  /** Opens a job (it lists its target and waits for `start`). */
  job(name: string, input: unknown, handlers: StreamHandlers): JobHandle;
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

/** What the Electron preload exposes (main/electron/preload.ts). */
export interface PreloadApi {
  call(name: string, input: unknown, onCancel?: (cancel: () => void) => void): Promise<CallResult>;
  open(name: string, input: unknown, onFrame: (frame: ServerFrame) => void): () => void;
  job(name: string, input: unknown, onFrame: (frame: ServerFrame) => void): JobHandle;
}

declare global {
  interface Window {
    switchyard?: PreloadApi;
  }
}

export function createIpcTransport(api: PreloadApi): Transport {
  const toHandlers = (handlers: StreamHandlers) => (frame: ServerFrame) => {
    if (frame.type === 'events') handlers.onEvents(frame.events, frame.dropped);
    else if (frame.type === 'end') handlers.onEnd(frame.error);
  };
  return {
    call: (name, input, signal) => {
      if (signal?.aborted) return Promise.resolve(STOPPED);
      const stopped = new Promise<CallResult>((resolve) =>
        signal?.addEventListener('abort', () => resolve(STOPPED), { once: true }),
      );
      const answer = api.call(name, input, signal && ((cancel) => signal.addEventListener('abort', cancel)));
      return Promise.race([answer, stopped]);
    },
    open: (name, input, handlers) => api.open(name, input, toHandlers(handlers)),
    job: (name, input, handlers) => api.job(name, input, toHandlers(handlers)),
    onConnection: (listener) => {
      listener('open');
      return () => {};
    },
  };
}

/** What a call answers once the page stopped waiting for it. */
const STOPPED: CallResult = {
  ok: false,
  error: { code: 'CANCELLED', message: 'Stopped waiting for an answer.' },
};

/** What calls in flight and open streams end with when the bridge socket drops (this very object). */
export const BRIDGE_LOST: BridgeErrorData = {
  code: 'UNREACHABLE',
  message: "Lost the connection to Switchyard's back end. Reconnecting…",
};

/**
 * WebSocket transport with automatic reconnection. Calls in flight when the socket drops fail with
 * UNREACHABLE; streams end with that error, and their owners reopen them once the socket is back.
 */
export function createWebSocketTransport(url: string): Transport {
  let socket: WebSocket | null = null;
  let state: ConnectionState = 'connecting';
  let nextId = 1;
  let retryDelay = 250;
  const pendingCalls = new Map<number, (result: CallResult) => void>();
  const streams = new Map<number, StreamHandlers>();
  const queue: ClientFrame[] = [];
  const listeners = new Set<(state: ConnectionState) => void>();

  function setState(next: ConnectionState): void {
    state = next;
    for (const listener of listeners) listener(next);
  }

  function connect(): void {
    setState('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      retryDelay = 250;
      setState('open');
      for (const frame of queue.splice(0)) ws.send(JSON.stringify(frame));
    };
    ws.onmessage = (message) => receive(JSON.parse(String(message.data)) as ServerFrame);
    ws.onclose = () => {
      socket = null;
      for (const resolve of pendingCalls.values()) resolve({ ok: false, error: BRIDGE_LOST });
      pendingCalls.clear();
      for (const handlers of streams.values()) handlers.onEnd(BRIDGE_LOST);
      streams.clear();
      setState('closed');
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 5000);
    };
  }

  function receive(frame: ServerFrame): void {
    if (frame.type === 'result') {
      const resolve = pendingCalls.get(frame.id);
      pendingCalls.delete(frame.id);
      resolve?.(frame.ok ? { ok: true, value: frame.value } : { ok: false, error: frame.error });
    } else if (frame.type === 'events') {
      streams.get(frame.id)?.onEvents(frame.events, frame.dropped);
    } else if (frame.type === 'end') {
      const handlers = streams.get(frame.id);
      streams.delete(frame.id);
      handlers?.onEnd(isBridgeErrorData(frame.error) ? frame.error : undefined);
    }
  }

  function send(frame: ClientFrame): void {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
    else queue.push(frame);
  }

  function openStream(name: string, input: unknown, handlers: StreamHandlers) {
    const id = nextId++;
    streams.set(id, handlers);
    send({ type: 'open', id, name, input });
    return {
      id,
      close: () => {
        if (!streams.delete(id)) return;
        send({ type: 'close', id });
      },
    };
  }

  connect();

  return {
    call(name, input, signal) {
      if (signal?.aborted) return Promise.resolve(STOPPED);
      const id = nextId++;
      return new Promise<CallResult>((resolve) => {
        pendingCalls.set(id, resolve);
        send({ type: 'call', id, name, input });
        signal?.addEventListener(
          'abort',
          () => {
            if (!pendingCalls.delete(id)) return;
            // main aborts the call's requests and answers nothing more for this id.
            send({ type: 'close', id });
            resolve(STOPPED);
          },
          { once: true },
        );
      });
    },
    open(name, input, handlers) {
      return openStream(name, input, handlers).close;
    },
    job(name, input, handlers) {
      const { id, close } = openStream(name, input, handlers);
      return {
        start: (options, confirmed) => {
          if (streams.has(id)) send({ type: 'start', id, options, confirmed });
        },
        close,
      };
    },
    onConnection(listener) {
      listeners.add(listener);
      listener(state);
      return () => listeners.delete(listener);
    },
  };
}

const SECRET_KEY = 'switchyard.bridgeSecret';

/**
 * The browser host prints a URL with `#secret=…`. The secret is moved out of the address bar into this
 * tab's session storage (so a reload still works) and never sent anywhere but the bridge socket.
 */
export function takeBrowserHostSecret(location: Location, history: History, storage: Storage): string | null {
  const match = /(?:^#|&)secret=([^&]+)/.exec(location.hash);
  if (match?.[1]) {
    storage.setItem(SECRET_KEY, match[1]);
    history.replaceState(null, '', `${location.pathname}${location.search}#/`);
    return match[1];
  }
  return storage.getItem(SECRET_KEY);
}
