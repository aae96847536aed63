// main logs structured JSON to stderr (pino); never to the renderer.
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(name: string, level = process.env.SWITCHYARD_LOG_LEVEL ?? 'info'): Logger {
  return pino({ name, level }, pino.destination(2));
}
