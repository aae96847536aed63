// How long a live stream that lost its service waits before it is opened again: 1 s, then 2, 4, … at most
// 30 s while it keeps failing. Shared by the renderer (a whole stream, use-reconnect.tsx) and main (one
// pub/sub subscription, main/core/services/kv/pubsub.ts).

/** How long to wait before the `failures`-th attempt in a row (1 s, 2 s, 4 s … 30 s). */
export function reconnectDelay(failures: number): number {
  return Math.min(1000 * 2 ** Math.max(0, failures - 1), 30_000);
}
