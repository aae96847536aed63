// The sandboxed preload: exposes exactly one frozen object, `window.switchyard`, with three functions.
// No ipcRenderer, no Node, no generic send: the renderer can only call bridge procedures, open streams and
// open jobs (which it may start once, and close).
// Kept dependency-free (channel names only) so the bundle stays tiny.
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_CALL, IPC_CLOSE, IPC_OPEN, IPC_START, IPC_STREAM } from '../../shared/bridge/channels';
import type { CallResult, ServerFrame } from '../../shared/bridge/frames';

const streamListeners = new Map<number, (frame: ServerFrame) => void>();
let nextStreamId = 1;

ipcRenderer.on(IPC_STREAM, (_event, frame: ServerFrame) => {
  const listener = streamListeners.get(frame.id);
  if (!listener) return;
  if (frame.type === 'end') streamListeners.delete(frame.id);
  listener(frame);
});

const api = Object.freeze({
  /** `onCancel` receives the function that stops the call (the page stopped waiting for its answer). */
  call(name: string, input: unknown, onCancel?: (cancel: () => void) => void): Promise<CallResult> {
    const id = nextStreamId++;
    if (typeof onCancel === 'function') onCancel(() => ipcRenderer.send(IPC_CLOSE, id));
    return ipcRenderer.invoke(IPC_CALL, String(name), input, id) as Promise<CallResult>;
  },
  open(name: string, input: unknown, onFrame: (frame: ServerFrame) => void): () => void {
    return openStream(name, input, onFrame).close;
  },
  job(
    name: string,
    input: unknown,
    onFrame: (frame: ServerFrame) => void,
  ): { start(options: unknown, confirmed: number): void; close(): void } {
    const { id, close } = openStream(name, input, onFrame);
    return Object.freeze({
      start(options: unknown, confirmed: number) {
        if (streamListeners.has(id)) ipcRenderer.send(IPC_START, id, options, Number(confirmed));
      },
      close,
    });
  },
});

function openStream(name: string, input: unknown, onFrame: (frame: ServerFrame) => void) {
  const id = nextStreamId++;
  streamListeners.set(id, onFrame);
  ipcRenderer.send(IPC_OPEN, id, String(name), input);
  return {
    id,
    close: () => {
      if (streamListeners.delete(id)) ipcRenderer.send(IPC_CLOSE, id);
    },
  };
}

contextBridge.exposeInMainWorld('switchyard', api);
