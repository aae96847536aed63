// The one list of every bridge procedure, by service: `messages.*` (procedures/messages/, one file per
// feature), `workflows.*` (procedures/workflows/), `profiles.*`, `stack.*`, `app.*`. This file only merges them
// and derives the types both sides use.
import type { z } from 'zod';
import type { CallDef, StreamDef } from './define';
import { appProcedures } from './procedures/app';
import { profileProcedures } from './procedures/profiles';
import { stackProcedures } from './procedures/stack';
import { messageProcedures } from './procedures/messages';
import { workflowProcedures } from './procedures/workflows';
import { kvProcedures } from './procedures/kv';

export const procedures = {
  ...appProcedures,
  ...profileProcedures,
  ...stackProcedures,
  ...messageProcedures,
  ...workflowProcedures,
  ...kvProcedures,
};

export type Procedures = typeof procedures;
export type ProcedureName = keyof Procedures;
export type CallName = { [K in ProcedureName]: Procedures[K] extends CallDef ? K : never }[ProcedureName];
export type StreamName = { [K in ProcedureName]: Procedures[K] extends StreamDef ? K : never }[ProcedureName];
/** What the caller passes (defaults may be omitted). */
export type InputOf<N extends ProcedureName> = z.input<Procedures[N]['input']>;
/** What the handler receives after validation (defaults applied). */
export type ParsedInputOf<N extends ProcedureName> = z.output<Procedures[N]['input']>;
export type OutputOf<N extends CallName> = Procedures[N] extends CallDef<z.ZodType, infer O> ? O : never;
export type EventOf<N extends StreamName> = Procedures[N] extends StreamDef<z.ZodType, infer E> ? E : never;

/** Every name some call lists in its `invalidates`. */
type InvalidatedName = {
  [K in ProcedureName]: Procedures[K] extends CallDef<z.ZodType, unknown, infer V> ? V[number] : never;
}[ProcedureName];
/** Compiles only while every invalidated name is a call: a typo is named in the error. */
type OnlyCalls<N extends CallName> = N;
export type InvalidatedCall = OnlyCalls<InvalidatedName>;

/** The calls whose cached results a successful `name` makes stale, as its declaration says. */
export function invalidatedBy(name: CallName): readonly InvalidatedCall[] {
  return (procedures[name] as CallDef).invalidates as readonly InvalidatedCall[];
}
