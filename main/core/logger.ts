// main logs structured JSON to stderr (pino); never to the renderer.
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(name: string, level = process.env.SWITCHYARD_LOG_LEVEL ?? 'info'): Logger {
  // Synchronous writes: a line logged just before process.exit() (e.g. "stopped" on a signal) must not be
  // lost in an asynchronous write still in flight. Console logging is light; stderr writes are cheap.
  return pino({ name, level }, pino.destination({ dest: 2, sync: true }));
}

/** Writes out whatever the logger still holds; call it before process.exit(). */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
