// The one list of every bridge procedure, by service: `messages.*` (procedures/messages/, one file per
// feature), `workflows.*` (procedures/workflows/), `kv.*` (procedures/kv/), and the console's own
// `profiles.*`, `stack.*` (the local stack's process, and its clock: `stack.clock.*`), `jobs.*` and
// `app.*`. This file only merges them and derives the types both sides use.
import type { z } from 'zod';
import type { CallDef, JobDef, ProcedureDef, StreamDef } from './define';
import type { JobEvent } from './job';
import { appProcedures } from './procedures/app';
import { clockProcedures } from './procedures/clock';
import { jobProcedures } from './procedures/jobs';
import { profileProcedures } from './procedures/profiles';
import { stackProcedures } from './procedures/stack';
import { messageProcedures } from './procedures/messages';
import { workflowProcedures } from './procedures/workflows';
import { kvProcedures } from './procedures/kv';

export const procedures = {
  ...appProcedures,
  ...profileProcedures,
  ...stackProcedures,
  ...jobProcedures,
  ...clockProcedures,
  ...messageProcedures,
  ...workflowProcedures,
  ...kvProcedures,
};

export type Procedures = typeof procedures;
export type ProcedureName = keyof Procedures;
export type CallName = { [K in ProcedureName]: Procedures[K] extends CallDef ? K : never }[ProcedureName];
export type StreamName = { [K in ProcedureName]: Procedures[K] extends StreamDef ? K : never }[ProcedureName];
export type JobName = { [K in ProcedureName]: Procedures[K] extends JobDef ? K : never }[ProcedureName];
/** What the caller passes (defaults may be omitted). */
export type InputOf<N extends ProcedureName> = z.input<Procedures[N]['input']>;
/** What the handler receives after validation (defaults applied). */
export type ParsedInputOf<N extends ProcedureName> = z.output<Procedures[N]['input']>;
export type OutputOf<N extends CallName> = Procedures[N] extends CallDef<z.ZodType, infer O> ? O : never;
export type EventOf<N extends StreamName> = Procedures[N] extends StreamDef<z.ZodType, infer E> ? E : never;
/** The summary of a job's `done` event. */
export type SummaryOf<N extends JobName> = Procedures[N] extends JobDef<z.ZodType, infer S> ? S : never;
export type JobEventOf<N extends JobName> = JobEvent<SummaryOf<N>>;
/** What the renderer's start of a job carries (before defaults). */
export type StartOf<N extends JobName> =
  Procedures[N] extends JobDef<z.ZodType, unknown, readonly string[], infer St> ? z.input<St> : never;
export type ParsedStartOf<N extends JobName> =
  Procedures[N] extends JobDef<z.ZodType, unknown, readonly string[], infer St> ? z.output<St> : never;

/** Every name some call or job lists in its `invalidates`. */
type InvalidatedName = {
  [K in ProcedureName]: Procedures[K] extends
    CallDef<z.ZodType, unknown, infer V> | JobDef<z.ZodType, unknown, infer V>
    ? V[number]
    : never;
}[ProcedureName];
/** Compiles only while every invalidated name is a call: a typo is named in the error. */
type OnlyCalls<N extends CallName> = N;
export type InvalidatedCall = OnlyCalls<InvalidatedName>;

/** The calls whose cached results a successful call or an ended job makes stale, as its declaration says. */
export function invalidatedBy(name: CallName | JobName): readonly InvalidatedCall[] {
  return (procedures[name] as ProcedureDef as CallDef | JobDef).invalidates as readonly InvalidatedCall[];
}
