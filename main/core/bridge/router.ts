// Dispatches bridge procedures to handlers: validates every input against the procedure's schema,
// enforces read-only profiles for procedures that write, and turns anything thrown into BridgeErrorData
// (never a stack trace).
import type { z } from 'zod';
import type { CallDef, ProcedureDef, StreamDef } from '../../../shared/bridge/define';
import { BridgeError, type BridgeErrorData } from '../../../shared/bridge/errors';
import type { CallResult } from '../../../shared/bridge/frames';
import {
  type CallName,
  type EventOf,
  type OutputOf,
  type ParsedInputOf,
  procedures,
  type StreamName,
} from '../../../shared/bridge/procedures';

export interface StreamSink<E> {
  push(event: E): void;
  /** Ends the stream from the source side (optionally with an error). */
  end(error?: BridgeErrorData): void;
}

export type CallHandler<N extends CallName> = (input: ParsedInputOf<N>) => Promise<OutputOf<N>> | OutputOf<N>;
/** Starts a stream; returns the function that stops it (called once, on close from either side). */
export type StreamHandler<N extends StreamName> = (
  input: ParsedInputOf<N>,
  sink: StreamSink<EventOf<N>>,
) => (() => void) | Promise<() => void>;

/** One handler per procedure: a missing handler is a compile error. */
export type Handlers = { [N in CallName]: CallHandler<N> } & { [N in StreamName]: StreamHandler<N> };

export interface RouterOptions {
  handlers: Handlers;
  /** Answers whether a profile refuses writes; consulted for every `write` procedure. */
  isReadOnly(profileId: string): boolean;
  logError(message: string, error: unknown): void;
  /** The procedure declarations; the real list unless a test supplies its own. */
  registry?: Record<string, ProcedureDef>;
}

export interface Router {
  call(name: string, rawInput: unknown): Promise<CallResult>;
  /** Validates and starts a stream; resolves to its stop function, or rejects with BridgeErrorData. */
  open(name: string, rawInput: unknown, sink: StreamSink<unknown>): Promise<() => void>;
}

export function createRouter(options: RouterOptions): Router {
  const registry: Record<string, ProcedureDef> = options.registry ?? procedures;
  const handlers = options.handlers as unknown as Record<string, (...args: unknown[]) => unknown>;

  function prepare(name: string, rawInput: unknown, kind: 'call' | 'stream'): { input: unknown } {
    const def = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (!def || def.kind !== kind) {
      throw new BridgeError({ code: 'UNKNOWN_PROCEDURE', message: `No ${kind} named "${name}".` });
    }
    const parsed = (def as CallDef | StreamDef).input.safeParse(rawInput ?? {});
    if (!parsed.success) throw invalidInput(parsed.error);
    if (def.effect === 'write') {
      const profileId = (parsed.data as { profileId?: unknown }).profileId;
      if (typeof profileId !== 'string') {
        throw new Error(`procedure ${name} writes but its input has no profileId`);
      }
      if (options.isReadOnly(profileId)) {
        throw new BridgeError({
          code: 'READ_ONLY',
          message:
            'This profile is read-only: Switchyard will not send changes with it. Turn off "Read-only" in the profile to allow writes.',
        });
      }
    }
    return { input: parsed.data };
  }

  function toErrorData(name: string, error: unknown): BridgeErrorData {
    if (error instanceof BridgeError) return error.toData();
    options.logError(`bridge procedure ${name} failed`, error);
    return {
      code: 'INTERNAL',
      message: `Switchyard hit an unexpected error in "${name}". Details are in the console log.`,
    };
  }

  return {
    async call(name, rawInput) {
      try {
        const { input } = prepare(name, rawInput, 'call');
        const value = await handlers[name]!(input);
        return { ok: true, value: value === undefined ? null : value };
      } catch (error) {
        return { ok: false, error: toErrorData(name, error) };
      }
    },
    async open(name, rawInput, sink) {
      try {
        const { input } = prepare(name, rawInput, 'stream');
        return (await handlers[name]!(input, sink)) as () => void;
      } catch (error) {
        throw toErrorData(name, error);
      }
    },
  };
}

function invalidInput(error: z.ZodError): BridgeError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.') || '(input)';
    fields[path] ??= issue.message;
  }
  const summary = Object.entries(fields)
    .map(([path, message]) => `${path}: ${message}`)
    .join('; ');
  return new BridgeError({ code: 'INVALID_INPUT', message: `Invalid input — ${summary}`, fields });
}
