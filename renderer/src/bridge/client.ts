// The renderer's one typed entry to main: `bridge.call('profiles.list', {})`, `bridge.open(...)` for a
// stream, `bridge.job(...)` for bulk work.
import { BridgeError } from '../../../shared/bridge/errors';
import type {
  CallName,
  EventOf,
  InputOf,
  JobEventOf,
  JobName,
  OutputOf,
  StartOf,
  StreamName,
} from '../../../shared/bridge/procedures';
import type { BridgeErrorData } from '../../../shared/bridge/errors';
import type { ConnectionState, Transport } from './transport';

export interface TypedStreamHandlers<E> {
  onEvents(events: E[], dropped: number): void;
  onEnd?(error?: BridgeErrorData): void;
}

/** An open job: `start` is the user's go (with the count they confirmed), `close` cancels it. */
export interface TypedJobHandle<N extends JobName> {
  start(options: StartOf<N>, confirmed: number): void;
  close(): void;
}

/** Told of every call that answered or failed (`bridge/recovery.ts`); not of a call the page stopped. */
export type OutcomeListener = (name: CallName, input: unknown, answered: boolean) => void;

export class BridgeClient {
  private readonly outcomeListeners = new Set<OutcomeListener>();

  constructor(private readonly transport: Transport) {}

  /** One call's answer; aborting `signal` stops waiting for it (main aborts its requests too). */
  async call<N extends CallName>(name: N, input: InputOf<N>, signal?: AbortSignal): Promise<OutputOf<N>> {
    const result = await this.transport.call(name, input, signal);
    if (result.ok || result.error.code !== 'CANCELLED') {
      for (const listener of this.outcomeListeners) listener(name, input, result.ok);
    }
    if (!result.ok) throw new BridgeError(result.error);
    return result.value as OutputOf<N>;
  }

  /** Listens to every call's outcome; returns the function that stops listening. */
  onOutcome(listener: OutcomeListener): () => void {
    this.outcomeListeners.add(listener);
    return () => this.outcomeListeners.delete(listener);
  }

  open<N extends StreamName>(
    name: N,
    input: InputOf<N>,
    handlers: TypedStreamHandlers<EventOf<N>>,
  ): () => void {
    return this.transport.open(name, input, {
      onEvents: (events, dropped) => handlers.onEvents(events as EventOf<N>[], dropped),
      onEnd: (error) => handlers.onEnd?.(error),
    });
  }

  job<N extends JobName>(
    name: N,
    input: InputOf<N>,
    handlers: TypedStreamHandlers<JobEventOf<N>>,
  ): TypedJobHandle<N> {
    return this.transport.job(name, input, {
      onEvents: (events) => handlers.onEvents(events as JobEventOf<N>[], 0),
      onEnd: (error) => handlers.onEnd?.(error),
    });
  }

  onConnection(listener: (state: ConnectionState) => void): () => void {
    return this.transport.onConnection(listener);
  }
}

/** A readable sentence for any error the UI catches. */
export function errorMessage(error: unknown): string {
  if (error instanceof BridgeError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}
