// The destination that messages are delivered to in e2e tests: the stack tests' recording sink
// (stack/messages/test-sink.ts), seen by path — requests to one path, answers scripted per path (e.g. fail
// twice, then 200).
import type { IncomingHttpHeaders } from 'node:http';
import { type Received, startSink as startRecordingSink } from '../../stack/messages/test-sink';

export interface ReceivedRequest {
  method: string;
  /** Path and query as received. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export type Responder = (
  request: ReceivedRequest,
  countForPath: number,
) => { status: number; body?: string; headers?: Record<string, string> };

export interface Sink {
  /** Base URL, e.g. http://127.0.0.1:43123 */
  url: string;
  /** Requests to one path (ignoring the query string). */
  receivedAt(path: string): ReceivedRequest[];
  /** Resolves when at least `count` requests to `path` have arrived. */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  respond(responder: Responder): void;
  close(): Promise<void>;
}

const pathOf = (url: string) => url.split('?')[0]!;

function asRequest(request: Received): ReceivedRequest {
  const { method, url, headers, body, receivedAt } = request;
  return { method, path: url, headers, body: body.toString('utf8'), receivedAt };
}

export async function startSink(responder: Responder = () => ({ status: 200, body: 'ok' })): Promise<Sink> {
  let current = responder;
  const sink = await startRecordingSink((request) => {
    const count = sink.received.filter((r) => pathOf(r.url) === pathOf(request.url)).length;
    const answer = current(asRequest(request), count);
    return {
      ...answer,
      body: answer.body ?? '',
      headers: { 'content-type': 'text/plain', ...answer.headers },
    };
  });
  const toPath = (path: string) => (request: Received) => pathOf(request.url) === path;
  return {
    url: sink.url,
    receivedAt: (path) => sink.received.filter(toPath(path)).map(asRequest),
    waitFor: (path, count = 1, timeoutMs = 30_000) =>
      sink.waitFor(count, { timeoutMs, match: toPath(path) }).then(
        (requests) => requests.map(asRequest),
        (error: Error) => Promise.reject(new Error(`${error.message} (to ${path}, within ${timeoutMs} ms)`)),
      ),
    respond: (next) => {
      current = next;
    },
    close: () => sink.close(),
  };
}
