// Dispatches bridge procedures to handlers: validates every input (and a job's start options) against the
// procedure's schema, enforces read-only profiles for procedures that write, and turns anything thrown
// into BridgeErrorData (never a stack trace).
import type { z } from 'zod';
import type { ProcedureDef } from '../../../shared/bridge/define';
import { BridgeError, type BridgeErrorData } from '../../../shared/bridge/errors';
import type { CallResult } from '../../../shared/bridge/frames';
import {
  type CallName,
  type EventOf,
  type JobEventOf,
  type JobName,
  type OutputOf,
  type ParsedInputOf,
  type ParsedStartOf,
  procedures,
  type StreamName,
} from '../../../shared/bridge/procedures';
import { withCallSignal } from './call-signal';

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

/** An open job, as its handler (main/core/jobs) answers it. */
export interface JobControl<Start = unknown> {
  /** The user's go, with the start options (validated) and the count the user confirmed. */
  start(options: Start, confirmed: number): void;
  /** Cancel (the renderer closed the job, or went away): stops scans at once, writes before the next chunk. */
  stop(): void;
}
/** Opens a job: it lists its target (events go to `sink`) and waits for `start`. */
export type JobHandler<N extends JobName> = (
  input: ParsedInputOf<N>,
  sink: StreamSink<JobEventOf<N>>,
) => JobControl<ParsedStartOf<N>>;

/** One handler per procedure: a missing handler is a compile error. */
export type Handlers = { [N in CallName]: CallHandler<N> } & { [N in StreamName]: StreamHandler<N> } & {
  [N in JobName]: JobHandler<N>;
};

/** What opening a stream or a job answers: how to stop it, and for a job how to start it. */
export interface OpenControl {
  stop(): void;
  start?(options: unknown, confirmed: number): void;
}

export interface RouterOptions {
  handlers: Handlers;
  /** Answers whether a profile refuses writes; consulted for every `write` procedure. */
  isReadOnly(profileId: string): boolean;
  logError(message: string, error: unknown): void;
  /** The procedure declarations; the real list unless a test supplies its own. */
  registry?: Record<string, ProcedureDef>;
}

export interface Router {
  /** `signal`: aborted when nobody waits for the answer any more; the call's HTTP requests stop with it. */
  call(name: string, rawInput: unknown, signal?: AbortSignal): Promise<CallResult>;
  /** Validates and opens a stream or a job; resolves to its control, or rejects with BridgeErrorData. */
  open(name: string, rawInput: unknown, sink: StreamSink<unknown>): Promise<OpenControl>;
}

export function createRouter(options: RouterOptions): Router {
  const registry: Record<string, ProcedureDef> = options.registry ?? procedures;
  const handlers = options.handlers as unknown as Record<string, (...args: unknown[]) => unknown>;

  function prepare(
    name: string,
    rawInput: unknown,
    kinds: readonly ProcedureDef['kind'][],
  ): { input: unknown; def: ProcedureDef } {
    const def = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (!def || !kinds.includes(def.kind)) {
      throw new BridgeError({
        code: 'UNKNOWN_PROCEDURE',
        message: `No ${kinds.join(' or ')} named "${name}".`,
      });
    }
    const parsed = def.input.safeParse(rawInput ?? {});
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
    return { input: parsed.data, def };
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
    async call(name, rawInput, signal) {
      try {
        const { input } = prepare(name, rawInput, ['call']);
        const value = await withCallSignal(signal, () => handlers[name]!(input));
        return { ok: true, value: value === undefined ? null : value };
      } catch (error) {
        return { ok: false, error: toErrorData(name, error) };
      }
    },
    async open(name, rawInput, sink) {
      try {
        const { input, def } = prepare(name, rawInput, ['stream', 'job']);
        if (def.kind === 'stream') return { stop: (await handlers[name]!(input, sink)) as () => void };
        const job = handlers[name]!(input, sink) as JobControl;
        const startSchema = def.kind === 'job' ? def.start : undefined;
        return {
          stop: () => job.stop(),
          start: (options, confirmed) => {
            const parsed = startSchema?.safeParse(options ?? {});
            if (!parsed?.success || !Number.isSafeInteger(confirmed) || confirmed < 0) {
              job.stop();
              sink.end(
                parsed && !parsed.success
                  ? invalidInput(parsed.error).toData()
                  : { code: 'INVALID_INPUT', message: 'A job starts with the count the user confirmed.' },
              );
              return;
            }
            job.start(parsed.data, confirmed);
          },
        };
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
