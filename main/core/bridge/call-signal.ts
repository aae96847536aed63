// The abort signal of the bridge call being handled, for whatever that call does on its way: the renderer
// may stop waiting for a call (a service that does not answer), and the session then aborts the call's
// signal. Handlers take only their input, so the signal travels with the call's async context instead, and
// `service-http.ts` aborts the HTTP request of a call nobody waits for any more.
import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<AbortSignal>();

/** Runs `handle` (a call's handler) with `signal` as its call signal. */
export function withCallSignal<T>(signal: AbortSignal | undefined, handle: () => T): T {
  return signal ? storage.run(signal, handle) : handle();
}

/** The signal of the bridge call whose work is running, if any. */
export function currentCallSignal(): AbortSignal | undefined {
  return storage.getStore();
}
