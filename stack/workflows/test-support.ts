// A real workflow app for the compatibility tests: route functions served with the vendor's own serve()
// (`@upstash/workflow` 1.3.3) from a node:http server on 127.0.0.1, pointed at an in-process stack, with the
// stack's signing keys so that the SDK verifies every delivery's signature itself.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, serve, type RouteFunction, type WorkflowServeOptions } from '@upstash/workflow';
import { StackClock } from '../clock';
import { eventually, startTestStack, type TestStack } from '../messages/test-support';

export interface WorkflowApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  client: Client;
  /** Requests the app received, by path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- route payloads and run records are any JSON */
export type Routes = Record<
  string,
  { fn: RouteFunction<any, any>; options?: WorkflowServeOptions<any, any> }
>;

/**
 * A route function whose one step, `step`, always throws what `error` makes: an Error is retried with backoff,
 * a WorkflowNonRetryableError fails the run at once.
 */
export function failingStep(step: string, error: () => Error): RouteFunction<any, any> {
  return async (context) => {
    await context.run(step, () => {
      throw error();
    });
  };
}

/** Where the app's SDK sends its requests, and the keys it verifies deliveries with. */
export interface StackTarget {
  url: string;
  token: string;
  currentSigningKey: string;
  nextSigningKey: string;
}

/** The runs' logs (the SDK's client.logs(), bodies untrimmed) once every one of them has succeeded. */
export function allSucceeded(
  app: WorkflowApp,
  ids: string[],
  timeoutMs: number,
): Promise<Awaited<ReturnType<Client['logs']>>['runs']> {
  return eventually(
    async () => {
      const logs = await Promise.all(
        ids.map(
          async (id) => (await app.client.logs({ workflowRunId: id, trimBody: 10_000 } as never)).runs[0],
        ),
      );
      return logs.every((log) => log?.workflowState === 'RUN_SUCCESS')
        ? logs.flatMap((log) => log ?? [])
        : undefined;
    },
    'every run succeeded',
    timeoutMs,
  );
}

/**
 * A stack on the production clock (the wall clock until advanced) with quick retries (backoff factor 0.001),
 * and an app serving `routes` on it.
 */
export async function startStackWithApp(
  routes: Routes,
  extra: Record<string, RouteHandler> = {},
  options: Parameters<typeof startWorkflowApp>[3] = {},
): Promise<{ stack: TestStack; app: WorkflowApp }> {
  const stack = await startTestStack({ clock: new StackClock() as never, backoffFactor: 0.001 });
  return { stack, app: await startWorkflowApp(stack, routes, extra, options) };
}

/**
 * Starts an app serving `routes` (paths like `/a`) against a stack (in-process, or a process's ready line).
 * `holdAnswerMs`: the app answers a delivery only this long after its handler finished (a slow app, or a
 * slow network): a kill of the stack then finds deliveries whose step already published its result.
 */
export async function startWorkflowApp(
  stack: TestStack | StackTarget,
  routes: Routes,
  extra: Record<string, RouteHandler> = {},
  options: {
    holdAnswerMs?: number;
    /** Sees every request the app receives (its path and body), before it is answered. */
    onRequest?: (path: string, body: Buffer) => void;
    /** A request this answers true for gets a 500 before the app sees it (a delivery failing on demand). */
    refuse?: (path: string, headers: http.IncomingHttpHeaders) => boolean;
  } = {},
): Promise<WorkflowApp> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0] as string;
        hits.set(path, (hits.get(path) ?? 0) + 1);
        const body = Buffer.concat(chunks);
        options.onRequest?.(path, body);
        if (options.refuse?.(path, req.headers)) {
          res.writeHead(500);
          res.end('refused by the test');
          return;
        }
        const custom = extra[path];
        if (custom) {
          const answer = await custom(req, body);
          res.writeHead(answer.status ?? 200, answer.headers ?? {});
          res.end(answer.body ?? '');
          return;
        }
        const handler = handlers.get(path);
        if (!handler) {
          res.writeHead(404);
          res.end('no route');
          return;
        }
        const headers = new Headers();
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
          headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
        }
        const request = new Request(app.url + (req.url ?? '/'), {
          method: req.method,
          headers,
          body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
        });
        const response = await handler(request);
        if (options.holdAnswerMs) await new Promise((resolve) => setTimeout(resolve, options.holdAnswerMs));
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => (out[name] = value));
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target: StackTarget = 'stack' in stack ? stack.stack.info.messages : stack;
  const env = {
    QSTASH_URL: target.url,
    QSTASH_TOKEN: target.token,
    QSTASH_CURRENT_SIGNING_KEY: target.currentSigningKey,
    QSTASH_NEXT_SIGNING_KEY: target.nextSigningKey,
  };
  const app: WorkflowApp = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    client: new Client({ baseUrl: target.url, token: target.token }),
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const handlers = new Map<string, (request: Request) => Promise<Response>>();
  for (const [path, route] of Object.entries(routes)) {
    handlers.set(path, serve(route.fn, { env, ...route.options }).handler);
  }
  return app;
}

export type RouteHandler = (
  req: http.IncomingMessage,
  body: Buffer,
) =>
  | Promise<{ status?: number; headers?: Record<string, string>; body?: string }>
  | { status?: number; headers?: Record<string, string>; body?: string };

/** The run record of one run from the SDK's own client.logs(), with bodies. */
export async function runLog(stack: TestStack, runId: string): Promise<Record<string, any>> {
  const response = await stack.api('GET', `/v2/workflows/logs?workflowRunId=${runId}&trimBody=100000`);
  if (response.status !== 200) throw new Error(`logs answered ${response.status}: ${response.text}`);
  return response.json.runs[0];
}

/** Waits (up to 20 s) until the run's record passes `reached` (which may throw to fail at once); answers it. */
export function runWhen(
  stack: TestStack,
  runId: string,
  reached: (log: Record<string, any>) => boolean,
  what = `run ${runId}`,
): Promise<Record<string, any>> {
  return eventually(
    async () => {
      const log = await runLog(stack, runId);
      return log && reached(log) ? log : undefined;
    },
    what,
    20_000,
  );
}
