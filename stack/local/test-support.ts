// What the local extension's tests share: a sink whose answers each test scripts by path and attempt, and a
// publish to it.
import { expect } from 'vitest';
import { startSink, type Sink, type SinkReply, type TestStack } from '../messages/test-support';

export interface ScriptedSink extends Sink {
  /** Answers by path and attempt (0 first); a path without one answers 200. */
  script: Record<string, (attempt: number) => SinkReply>;
  /** Forgets the script and the attempts counted (before each test). */
  reset(): void;
}

export async function startScriptedSink(): Promise<ScriptedSink> {
  const script: ScriptedSink['script'] = {};
  const attempts = new Map<string, number>();
  const sink = await startSink((request) => {
    const path = request.url.split('?')[0] as string;
    const attempt = attempts.get(path) ?? 0;
    attempts.set(path, attempt + 1);
    return script[path]?.(attempt) ?? {};
  });
  return Object.assign(sink, {
    script,
    reset() {
      for (const path of Object.keys(script)) delete script[path];
      attempts.clear();
    },
  });
}

/** Matches the sink's requests for `path` (query ignored). */
export const at =
  (path: string) =>
  (r: { url: string }): boolean =>
    r.url.split('?')[0] === path;

/** Publishes 'hi' to the sink's `path`; the message id. */
export async function publishTo(
  stack: TestStack,
  sink: Sink,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const response = await stack.api('POST', `/v2/publish/${sink.url}${path}`, { headers, body: 'hi' });
  expect(response.status).toBe(200);
  return response.json.messageId;
}
