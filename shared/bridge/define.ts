// The building blocks of the bridge contract. Every procedure is declared once (procedures.ts) with a zod
// schema for its input, a phantom type for its output and, for calls that change something, the queries
// it makes stale; main validates inputs with the schema, the renderer gets static types for both sides and
// applies the invalidations after a successful call.
import type { z } from 'zod';

/**
 * - `local`: touches only console state (profiles, settings, the local stack process).
 * - `read`: reads from a service. Allowed for read-only profiles.
 * - `write`: changes data at a service. main refuses these for read-only profiles, whatever the UI shows.
 */
export type Effect = 'local' | 'read' | 'write';

export interface CallDef<
  I extends z.ZodType = z.ZodType,
  O = unknown,
  V extends readonly string[] = readonly string[],
> {
  readonly kind: 'call';
  readonly input: I;
  readonly effect: Effect;
  /**
   * Calls whose cached results this one makes stale when it succeeds (every cached input of each). Names
   * only: procedures.ts checks at compile time that each is a call.
   */
  readonly invalidates: V;
  /** Phantom: never set at run time, carries the output type. */
  readonly output?: O;
}

export interface StreamDef<I extends z.ZodType = z.ZodType, E = unknown> {
  readonly kind: 'stream';
  readonly input: I;
  readonly effect: Effect;
  /** Phantom: never set at run time, carries the event type. */
  readonly event?: E;
}

export type ProcedureDef = CallDef | StreamDef;

export interface CallOptions<V extends readonly string[]> {
  invalidates?: V;
}

/**
 * `call<Output>()(inputSchema, effect, { invalidates: ['messages.queues.list'] })`: the two-step form lets
 * TypeScript infer the input type (and keep the invalidated names as literals).
 */
export function call<O>() {
  return <I extends z.ZodType, const V extends readonly string[] = readonly []>(
    input: I,
    effect: Effect = 'local',
    options: CallOptions<V> = {},
  ): CallDef<I, O, V> => ({
    kind: 'call',
    input,
    effect,
    invalidates: options.invalidates ?? ([] as readonly string[] as V),
  });
}

export function stream<E>() {
  return <I extends z.ZodType>(input: I, effect: Effect = 'read'): StreamDef<I, E> => ({
    kind: 'stream',
    input,
    effect,
  });
}
