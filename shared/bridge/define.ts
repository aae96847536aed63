// The building blocks of the bridge contract. Every procedure is declared once (procedures.ts) as one of
// three kinds — a call (one answer), a stream (events until either side closes it) or a job (bulk work:
// main lists what it will touch, waits for the user's go, then works through it in chunks; see
// job-events.ts) — with a zod schema for its input, a phantom type for its output and, for the kinds that
// change something, the queries it makes stale. main validates inputs with the schema, the renderer gets
// static types for both sides and applies the invalidations when a call succeeds or a job ends.
import { z } from 'zod';

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

export interface JobDef<
  I extends z.ZodType = z.ZodType,
  S = unknown,
  V extends readonly string[] = readonly string[],
  St extends z.ZodType = z.ZodType,
> {
  readonly kind: 'job';
  readonly input: I;
  readonly effect: Effect;
  /** Calls whose cached results are stale once the job ends (done, cancelled or failed: chunks were sent). */
  readonly invalidates: V;
  /**
   * What the user's go carries (the overrides a retry takes, restart or resume): chosen while the preview
   * is on screen, so changing them never lists the target again. Validated by main like the input.
   */
  readonly start: St;
  /** Phantom: never set at run time, carries the summary type of the job's `done` event. */
  readonly summary?: S;
}

export type ProcedureDef = CallDef | StreamDef | JobDef;

export interface CallOptions<V extends readonly string[]> {
  invalidates?: V;
}

export interface JobOptions<V extends readonly string[], St extends z.ZodType> {
  invalidates?: V;
  start?: St;
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

/**
 * `job<Summary>()(inputSchema, 'write', { invalidates: ['messages.dlq.list'], start: overridesSchema })`:
 * bulk work as a kind of its own. The input names the target (ids, a filter, or an explicit "all"); main
 * lists it for the preview, and writes nothing before the renderer's start (with the `start` options).
 */
export function job<S>() {
  return <
    I extends z.ZodType,
    const V extends readonly string[] = readonly [],
    St extends z.ZodType = z.ZodObject<Record<never, never>>,
  >(
    input: I,
    effect: Effect = 'write',
    options: JobOptions<V, St> = {},
  ): JobDef<I, S, V, St> => ({
    kind: 'job',
    input,
    effect,
    invalidates: options.invalidates ?? ([] as readonly string[] as V),
    start: options.start ?? (z.object({}).strict() as unknown as St),
  });
}
