// The building blocks of the bridge contract. Every procedure is declared once (procedures.ts) with a zod
// schema for its input and a phantom type for its output; main validates inputs with the schema, the
// renderer gets static types for both sides.
import type { z } from 'zod';

/**
 * - `local`: touches only console state (profiles, settings, the local stack process).
 * - `read`: reads from a service. Allowed for read-only profiles.
 * - `write`: changes data at a service. main refuses these for read-only profiles, whatever the UI shows.
 */
export type Effect = 'local' | 'read' | 'write';

export interface CallDef<I extends z.ZodType = z.ZodType, O = unknown> {
  readonly kind: 'call';
  readonly input: I;
  readonly effect: Effect;
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

/** `call<Output>()(inputSchema, effect)`: the two-step form lets TypeScript infer the input type. */
export function call<O>() {
  return <I extends z.ZodType>(input: I, effect: Effect = 'local'): CallDef<I, O> => ({
    kind: 'call',
    input,
    effect,
  });
}

export function stream<E>() {
  return <I extends z.ZodType>(input: I, effect: Effect = 'read'): StreamDef<I, E> => ({
    kind: 'stream',
    input,
    effect,
  });
}
