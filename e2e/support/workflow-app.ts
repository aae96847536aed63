// A real workflow app for the Workflows e2e specs: route functions served with the vendor's own serve()
// (`@upstash/workflow`) from a node:http server on 127.0.0.1, talking to the console's local stack. It
// produces runs of every step type (Run, parallel Runs, Call, SleepFor, SleepUntil, Wait, Notify,
// Invoke), failures at a named step — so the DLQ has entries to triage — and runs that wait an hour for an
// event or sleep an hour (the run page's pending states) or a week (the stack clock's advance).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, serve, type RouteFunction, type TriggerOptions } from '@upstash/workflow';
import { DEV_TOKEN } from './stack-api';

/* eslint-disable @typescript-eslint/no-explicit-any -- route payloads are any JSON */
export interface WorkflowApp {
  url: string;
  client: Client;
  /** Starts a run of the app's `route` (e.g. `/checkout`) with the vendor's client; answers its run id. */
  trigger(route: string, options?: Omit<TriggerOptions, 'url'>): Promise<string>;
  /** While false, the `charge` step of /checkout throws (500 with Upstash-Error-Step-Name: charge). */
  setHealthy(healthy: boolean): void;
  /** Polls the run's log at the stack until it reaches `state`; answers the run. */
  waitForRun(runId: string, state: string): Promise<Record<string, any>>;
  /** A /checkout run failed at its `charge` step (no retries), in the DLQ; the app is healthy again after. */
  failedCheckout(): Promise<string>;
  close(): Promise<void>;
}

export async function startWorkflowApp(stackUrl: string): Promise<WorkflowApp> {
  let healthy = true;
  const env = { QSTASH_URL: stackUrl, QSTASH_TOKEN: DEV_TOKEN };
  let baseUrl = '';

  const child: RouteFunction<any, any> = async (context) => {
    const doubled = await context.run('double', () => Number(context.requestPayload?.n ?? 1) * 2);
    return { doubled };
  };
  const routes: Record<string, RouteFunction<any, any>> = {
    '/order': async (context) => {
      const reserved = await context.run('reserve', () => ({ sku: 'A-1', qty: 2 }));
      const [picked, packed] = await Promise.all([
        context.run('pick', () => 'picked'),
        context.run('pack', () => 'packed'),
      ]);
      const quote = await context.call('quote', {
        url: `${baseUrl}/quote`,
        method: 'POST',
        body: JSON.stringify({ sku: reserved.sku }),
        headers: { 'content-type': 'application/json' },
      });
      await context.sleep('cool-down', 1);
      await context.sleepUntil('until', Math.floor(Date.now() / 1000));
      const approval = await context.waitForEvent('approval', `approve-${context.workflowRunId}`, {
        timeout: 2,
      });
      await context.notify('announce', `shipped-${context.workflowRunId}`, { ok: true });
      const invoked = await context.invoke('child', {
        workflow: { routeFunction: child, options: {}, workflowId: 'child' },
        body: { n: 21 },
      });
      return { picked, packed, quote: quote.body, approvalTimedOut: approval.timeout, child: invoked.body };
    },
    '/child': child,
    '/checkout': async (context) => {
      const cart = await context.run('load-cart', () => ({ total: 42 }));
      await context.run('charge', () => {
        if (!healthy) throw new Error(`payment gateway 503 for order ${Math.floor(Math.random() * 100000)}`);
        return 'paid';
      });
      return { charged: cart.total };
    },
    // Waits an hour for its approval event (the run page's "waiting for event" state).
    '/approval': async (context) => {
      await context.run('load-order', () => ({ order: context.requestPayload?.order ?? 1 }));
      const approval = await context.waitForEvent('approval', `approve-${context.workflowRunId}`, {
        timeout: '1h',
      });
      return { approved: approval.eventData };
    },
    // Sleeps an hour (the run page's "sleeping" state).
    '/nap': async (context) => {
      await context.run('prepare', () => 'ready');
      await context.sleep('nap', '1h');
    },
    // Sleeps a week (the stack clock's e2e: advancing 7 days completes it).
    '/week': async (context) => {
      await context.run('before', () => 'slept');
      await context.sleep('a-week', '7d');
      return context.run('after', () => 'woke up');
    },
    '/ship': async (context) => {
      await context.run('label', () => {
        if (!healthy) throw new Error('carrier API timed out after 30000 ms');
        return 'labelled';
      });
    },
  };
  const handlers = new Map<string, (request: Request) => Promise<Response>>();
  for (const [path, fn] of Object.entries(routes)) handlers.set(path, serve(fn, { env }).handler);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0]!;
        if (path === '/quote') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ price: 1999, currency: 'EUR' }));
          return;
        }
        const handler = handlers.get(path);
        if (!handler) {
          res.writeHead(404).end('no route');
          return;
        }
        const headers = new Headers();
        for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
          headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        const response = await handler(
          new Request(baseUrl + (req.url ?? '/'), {
            method: req.method,
            headers,
            body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
          }),
        );
        const out: Record<string, string> = {};
        response.headers.forEach((value, name) => (out[name] = value));
        res.writeHead(response.status, out);
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new Client({ baseUrl: stackUrl, token: DEV_TOKEN });
  return {
    url: baseUrl,
    client,
    trigger: async (route, options) =>
      (await client.trigger({ ...options, url: `${baseUrl}${route}` })).workflowRunId,
    setHealthy: (value) => (healthy = value),
    waitForRun: (runId, state) => waitForRun(stackUrl, runId, state),
    failedCheckout: async () => {
      healthy = false;
      try {
        const runId = (await client.trigger({ url: `${baseUrl}/checkout`, body: { i: 1 }, retries: 0 }))
          .workflowRunId;
        await waitForRun(stackUrl, runId, 'RUN_FAILED');
        return runId;
      } finally {
        healthy = true;
      }
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls the run's log until it reaches `state` (the stack runs the steps in real time). */
export async function waitForRun(
  stackUrl: string,
  runId: string,
  state: string,
  timeoutMs = 30_000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const response = await fetch(`${stackUrl}/v2/workflows/logs?workflowRunId=${runId}`, {
      headers: { authorization: `Bearer ${DEV_TOKEN}` },
    });
    const body = (await response.json()) as { runs?: Record<string, any>[] };
    last = body.runs?.[0];
    if (body.runs?.[0]?.workflowState === state) return body.runs[0];
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`run ${runId} did not reach ${state}: ${JSON.stringify(last)?.slice(0, 500)}`);
}
