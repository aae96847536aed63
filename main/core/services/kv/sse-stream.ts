// Runs one of the KV service's SSE streams for a bridge stream: opens it, waits for the service's first
// event (so a refusal — 401, a read-only token's NOPERM — fails the open with the service's own text),
// then maps every `data:` payload to events until the service ends the stream or the bridge stops it.
import { BridgeError, type BridgeErrorData } from '../../../../shared/bridge/errors';
import type { StreamSink } from '../../bridge/router';
import type { KvClient } from './client';

/** Opens `path` and pumps it into `sink`; resolves (once the stream is confirmed) to the stop function. */
export async function runEventStream<E>(
  client: KvClient,
  path: string,
  sink: StreamSink<E>,
  toEvent: (data: string) => E | undefined,
  onStop: () => void = () => {},
): Promise<() => void> {
  const abort = new AbortController();
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    abort.abort();
    onStop();
  };
  const events = client.events(path, abort.signal);
  let first: IteratorResult<string>;
  try {
    first = await events.next();
  } catch (error) {
    stop();
    throw error;
  }
  if (first.done) {
    stop();
    throw new BridgeError({ code: 'SERVICE_ERROR', message: `The KV service closed ${path} right away.` });
  }
  void (async () => {
    // The last payload that was no event: the service's `event: error` text when it ends the stream.
    let unknown: string | undefined;
    const handle = (data: string): void => {
      const event = toEvent(data);
      if (event === undefined) unknown = data;
      else if (!stopped) sink.push(event);
    };
    let error: BridgeErrorData | undefined;
    try {
      handle(first.value);
      for await (const data of { [Symbol.asyncIterator]: () => events }) handle(data);
      if (!stopped) {
        error = {
          code: 'SERVICE_ERROR',
          message: unknown ? `The KV service ended ${path}: ${unknown}` : `The KV service ended ${path}.`,
        };
      }
    } catch (caught) {
      error =
        caught instanceof BridgeError
          ? caught.toData()
          : {
              code: 'UNREACHABLE',
              message: `Lost the connection to the KV service (${path}: ${(caught as Error).message}).`,
            };
    }
    if (!stopped) {
      stop();
      sink.end(error);
    }
  })();
  return stop;
}
