// Wire frames of the bridge, shared by both transports (WebSocket in the browser host, IPC in Electron).
// Plain JSON-serialisable data; no zod here so the Electron preload stays tiny.
import type { BridgeErrorData } from './errors';

export type CallResult = { ok: true; value: unknown } | { ok: false; error: BridgeErrorData };

/** renderer → main */
export type ClientFrame =
  | { type: 'call'; id: number; name: string; input: unknown }
  /** Opens a stream or a job. */
  | { type: 'open'; id: number; name: string; input: unknown }
  /**
   * The user's go for an open job whose preview is on screen: its start options, and the count the user
   * confirmed (main refuses a start whose count is not the one it listed).
   */
  | { type: 'start'; id: number; options: unknown; confirmed: number }
  /**
   * Closes a stream, cancels a job (its scans and its writes), or stops a call in flight: main aborts its
   * requests and sends no `result` for it.
   */
  | { type: 'close'; id: number };

/** main → renderer */
export type ServerFrame =
  | ({ type: 'result'; id: number } & CallResult)
  /** A batch of stream events; `dropped` counts events discarded since the previous batch (buffer full). */
  | { type: 'events'; id: number; events: unknown[]; dropped: number }
  /** The stream ended: by request, by its source, or with an error. No frames follow for this id. */
  | { type: 'end'; id: number; error?: BridgeErrorData };
