// The endpoints the workflow SDK's serve() speaks: publishes carrying Upstash-Workflow-RunId (on /v2/batch and
// /v2/publish — everything else is handed back to the message service), run completion and cancel from
// inside, lazy fetch, wait / notify / waiters, and the webhook URLs of context.createWebhook.
import { performance } from 'node:perf_hooks';
import { tryParseDuration } from '../../shared/duration';
import { HOP_BY_HOP, normalizeHeaderName } from '../../shared/headers';
import { HttpError, type Handler, type Reply, type RequestContext, type Router } from '../http/server';
import {
  checkHeaders,
  collectHeaders,
  destinationQuery,
  headersFromRecord,
  parseConfig,
  parseDestination,
  planPublish,
  PublishError,
  requestHeaders,
  type HeaderInput,
} from '../messages/publish-request';
import type { RunRecord, WaiterRecord } from '../store/workflow-store';
import {
  callKey,
  checkRunId,
  first,
  ownHeaders,
  planned,
  planStep,
  runConfig,
  stepKeyOfBody,
  WF,
  type WorkflowMeta,
} from './plan';
import { rawSteps } from './records';
import type { PlannedAppend, WorkflowRuntime } from './runtime';
import { agentOf, canceledEvent, triggerOrigin } from './origin';
import { RUN_NOT_ACTIVE, type AppendResult } from './write-ops';
import { type BatchItem, checkBatchItem, prepareBatch } from '../messages/routes-publish';
import type { ServiceContext } from '../messages/service-context';

function badRequest(error: unknown): never {
  if (error instanceof PublishError) throw new HttpError(error.status, error.message);
  if (error instanceof Error && error.message.includes(RUN_NOT_ACTIVE)) {
    throw new HttpError(400, `${error.message}: it has finished, was cancelled, or never existed`);
  }
  throw error;
}

const MAX_WAIT_MS = 365 * 86_400_000;

/** Workflow items of one batch planned per turn of the event loop (see workflowBatch). */
const PLANS_PER_TURN = 64;

/** Plans one workflow publish: a trigger (new run), a step, or a context.call message. */
function planItem(
  runtime: WorkflowRuntime,
  destinationText: string,
  headers: HeaderInput,
  body: Buffer,
  callerIp: string,
  /** The token the request authenticated with: Header-Forward must not pass it on to a third party. */
  token: string | undefined,
): PlannedAppend {
  const now = runtime.clock.now();
  // As for any publish: a batch item's headers come in JSON, where no request-head limit stops a 200 KB value.
  checkHeaders(headers, destinationText);
  const runId = checkRunId(first(headers, WF.runId));
  const destination = parseDestination(destinationText);
  if (destination.kind !== 'url') {
    throw new PublishError(400, 'a workflow message must be published to a URL');
  }
  const patch = parseConfig(headers, now);
  const callType = first(headers, WF.callType) ?? 'step';
  if (first(headers, WF.init) === 'true') {
    let payload = body;
    let invoker: RunRecord['invoker'];
    if (first(headers, WF.invoke) === 'true') {
      // context.invoke: the child's payload and the parent's coordinates come wrapped in a JSON body.
      let wrapped: Record<string, unknown>;
      try {
        wrapped = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw new PublishError(400, 'invalid invoke body: expected JSON');
      }
      if (typeof wrapped.workflowRunId !== 'string' || typeof wrapped.workflowUrl !== 'string') {
        throw new PublishError(400, 'invalid invoke body: workflowRunId and workflowUrl are required');
      }
      payload = Buffer.from(typeof wrapped.body === 'string' ? wrapped.body : '', 'utf8');
      invoker = {
        workflowRunId: wrapped.workflowRunId,
        workflowUrl: wrapped.workflowUrl,
        workflowRunCreatedAt: Number(wrapped.workflowRunCreatedAt),
        headers: (wrapped.headers ?? {}) as Record<string, string[]>,
        step: (wrapped.step ?? {}) as Record<string, unknown>,
      };
    }
    const config = runConfig(patch, ownHeaders(patch));
    const run = {
      runId,
      url: first(headers, WF.url) ?? destination.url,
      createdAt: now,
      callerIp: callerIp || undefined,
      config,
      ...(invoker ? { invoker } : {}),
      origin: triggerOrigin(headers, now, callerIp || undefined, invoker !== undefined),
    };
    const message = planStep(
      run,
      { forward: {}, notBefore: patch.notBefore, delayMs: patch.delayMs },
      body,
      now,
      {
        url: destination.url,
      },
    );
    return {
      item: {
        create: run,
        entry: { messageId: message.row.id, callType: 'step', body: payload },
        stepState: 'STEP_PROGRESS',
      },
      message,
    };
  }
  const run = runtime.activeRuns.get(runId);
  if (!run)
    throw new PublishError(
      400,
      `${RUN_NOT_ACTIVE}: ${runId}: it has finished, was cancelled, or never existed`,
    );
  if (callType === 'toCallback') {
    // context.call: a plain delivery to the third party, with its own settings; its callback is ours to send.
    const [plan] = planPublish(destination, undefined, headers, body, { now, callerIp, token });
    if (!plan) throw new PublishError(400, 'invalid call message');
    const { spec } = plan;
    const meta: WorkflowMeta = {
      kind: 'call',
      runId: run.runId,
      createdAt: run.createdAt,
      runSeq: run.seq,
      callback: spec.callback,
      callbackConfig: spec.callbackConfig,
    };
    delete spec.callback;
    delete spec.callbackConfig;
    delete spec.failureCallback;
    delete spec.failureCallbackConfig;
    spec.meta = { wf: meta };
    const message = planned(spec, plan.dueAt, body, now);
    const stepIdHeader = meta.callbackConfig?.['upstash-forward-upstash-workflow-stepid'];
    const stepId = stepIdHeader !== undefined ? Number(stepIdHeader) : undefined;
    const stepName = meta.callbackConfig?.['upstash-forward-upstash-workflow-stepname'];
    const request = {
      url: spec.url,
      method: spec.method,
      header: spec.header,
      body: body.toString('base64'),
      ...(stepId !== undefined ? { stepId } : {}),
      ...(stepName !== undefined ? { stepName } : {}),
    };
    return {
      item: {
        runSeq: run.seq,
        entry: {
          messageId: message.row.id,
          callType: 'toCallback',
          body: Buffer.from(JSON.stringify(request)),
          // A call published twice would call the third party twice.
          stepKey: callKey(stepId),
        },
      },
      message,
    };
  }
  const message = planStep(run, patch, body, now, { url: destination.url });
  return {
    item: {
      runSeq: run.seq,
      entry: { messageId: message.row.id, callType: 'step', body, stepKey: stepKeyOfBody(body) },
      stepState: 'STEP_PROGRESS',
    },
    message,
  };
}

function isWorkflowHeaders(headers: HeaderInput): boolean {
  return headers.has(WF.runId);
}

/**
 * What a workflow publish answers, as the message service answers a publish to a URL (`url` is the URL called,
 * or the destination as sent when nothing is delivered) and a duplicate: for a trigger of an active run or a
 * step the run has already logged, the id of the message that was there first and `deduplicated`.
 */
function answer(
  planned: PlannedAppend,
  result: AppendResult,
  destination: string,
): { messageId: string; url: string; deduplicated?: true } {
  const url = planned.message?.row.url ?? destination;
  if (result?.deduplicated) return { messageId: result.messageId, url, deduplicated: true };
  return { messageId: planned.item.entry.messageId, url };
}

/** True for a batch item carrying a workflow run id: the workflow service appends it to its run's log. */
function isWorkflowItem(item: unknown): boolean {
  const headers = (item as { headers?: unknown } | null)?.headers;
  return (
    typeof headers === 'object' &&
    headers !== null &&
    Object.keys(headers).some((name) => normalizeHeaderName(name) === WF.runId)
  );
}

/**
 * A batch with workflow items. Every item is checked first: a malformed item of either kind refuses the whole
 * batch before anything is appended. Then the workflow items (appended to their runs) and the plain items (the
 * message service's publishes) commit in one transaction — all of the batch or none of it — and the answers
 * come back in request order.
 */
async function workflowBatch(
  runtime: WorkflowRuntime,
  messages: ServiceContext,
  ctx: RequestContext,
  items: unknown[],
  arrivedAt: number,
): Promise<Reply> {
  const workflowIndexes: number[] = [];
  const plainIndexes: number[] = [];
  const plainItems: BatchItem[] = [];
  items.forEach((item, index) => {
    if (isWorkflowItem(item)) workflowIndexes.push(index);
    else {
      plainItems.push(checkBatchItem(item, index));
      plainIndexes.push(index);
    }
  });
  const planOne = (index: number): PlannedAppend => {
    const item = items[index] as { destination?: unknown; headers?: unknown; body?: unknown };
    try {
      if (typeof item.destination !== 'string') throw new PublishError(400, "'destination' must be a string");
      // context.call passes a JSON body through as it is; any other body is a string.
      const body =
        item.body === undefined || item.body === null
          ? ''
          : typeof item.body === 'string'
            ? item.body
            : JSON.stringify(item.body);
      const headers = headersFromRecord((item.headers ?? {}) as Record<string, string>);
      return planItem(
        runtime,
        item.destination,
        headers,
        Buffer.from(body, 'utf8'),
        ctx.remoteAddress,
        ctx.token,
      );
    } catch (error) {
      if (error instanceof PublishError)
        throw new HttpError(error.status, `invalid batch item ${index}: ${error.message}`);
      throw error;
    }
  };
  // Planned a slice per turn of the event loop: the 1,000 triggers of one `Client.trigger([...])` planned in one
  // go held the loop 90–175 ms, over the 100 ms any single request may. The batch still commits as one.
  const plans: PlannedAppend[] = [];
  for (let k = 0; k < workflowIndexes.length; k++) {
    if (k > 0 && k % PLANS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    plans.push(planOne(workflowIndexes[k] as number));
  }
  const plain = prepareBatch(messages, plainItems, ctx);
  const append = runtime.appendCall(plans, runtime.clock.now());
  let committed: unknown[];
  try {
    committed = await runtime.writer.commitAll([append.call, ...plain.calls]);
  } catch (error) {
    badRequest(error);
  }
  const results = append.committed(committed[0]);
  const answers: unknown[] = new Array(items.length);
  plans.forEach((plan, index) => {
    if (plan.message) runtime.timing.arrived('workflow', plan.message.row.id, arrivedAt);
    const item = items[workflowIndexes[index] as number] as { destination: string };
    answers[workflowIndexes[index] as number] = answer(plan, results[index] ?? null, item.destination);
  });
  plain.answer(committed.slice(1)).forEach((item, index) => {
    for (const published of [item].flat())
      if ('messageId' in published) runtime.timing.arrived('message', published.messageId, arrivedAt);
    answers[plainIndexes[index] as number] = item;
  });
  return { status: 200, body: answers };
}

/**
 * Takes over /v2/batch and /v2/publish for workflow messages; everything else goes on to the message service's
 * routes (added after these: ctx.next()).
 */
export function publishRoutes(router: Router, runtime: WorkflowRuntime, messages: ServiceContext): void {
  const delegate = async (ctx: RequestContext, arrivedAt: number): Promise<Reply> => {
    const reply = await ctx.next();
    const body = reply.body;
    for (const item of Array.isArray(body) ? body : [body]) {
      const messageId = (item as { messageId?: unknown } | null)?.messageId;
      if (typeof messageId === 'string') runtime.timing.arrived('message', messageId, arrivedAt);
    }
    return reply;
  };
  router.add('POST', '/v2/batch', async (ctx) => {
    const arrivedAt = performance.now();
    const parsed = await ctx.json();
    if (Array.isArray(parsed) && parsed.some(isWorkflowItem)) {
      return workflowBatch(runtime, messages, ctx, parsed, arrivedAt);
    }
    return delegate(ctx, arrivedAt);
  });
  router.add('POST', '/v2/publish/*', async (ctx) => {
    const arrivedAt = performance.now();
    const headers = requestHeaders(ctx);
    if (!isWorkflowHeaders(headers)) return delegate(ctx, arrivedAt);
    const query = destinationQuery(ctx.rawQuery);
    const destination = ctx.rest + (query && /^[a-z][a-z0-9+.-]*(:|%3a)/i.test(ctx.rest) ? `?${query}` : '');
    let plan: PlannedAppend;
    try {
      plan = planItem(runtime, destination, headers, await ctx.body(), ctx.remoteAddress, ctx.token);
    } catch (error) {
      badRequest(error);
    }
    let results;
    try {
      results = await runtime.append([plan]);
    } catch (error) {
      badRequest(error);
    }
    if (plan.message) runtime.timing.arrived('workflow', plan.message.row.id, arrivedAt);
    const body = answer(plan, results[0] ?? null, destination);
    // A duplicate publish is accepted and not delivered again: 202, as the message service answers one.
    return { status: body.deduplicated ? 202 : 200, body };
  });
}

function waiterView(waiter: WaiterRecord): Record<string, unknown> {
  return {
    url: waiter.url,
    deadline: Math.floor(waiter.deadline / 1_000),
    headers: waiter.headers,
    timeoutUrl: waiter.timeoutUrl,
    timeoutHeaders: waiter.timeoutHeaders,
    workflowRunId: undefined,
  };
}

/** The run endpoints of the SDK: completion, cancel from inside, lazy fetch. */
export function runRoutes(router: Router, runtime: WorkflowRuntime): void {
  router.add('DELETE', '/v2/workflows/runs/:id', async (ctx) => {
    const runId = checkRunIdParam(ctx.params.id);
    // Without `cancel` this is the API's "Cancel Workflow Run" (a user's curl, as the vendor documents it); the SDKs
    // always say which they mean, and end a run that returned with `?cancel=false`.
    const cancelParam = ctx.query.get('cancel') ?? 'true';
    if (cancelParam !== 'true' && cancelParam !== 'false') {
      throw new HttpError(400, `invalid cancel '${cancelParam}': expected true or false`);
    }
    const cancel = cancelParam === 'true';
    const run = runtime.store.activeRun(runId);
    // Finishing a run that has already ended (the SDK finishes again when a delivery it finished in is
    // delivered again) succeeds and changes nothing: the SDK expects success.
    const finishedAlready = (): Reply => ({ status: 200, body: {} });
    if (!run) {
      const known = runtime.store.latestRun(runId);
      if (known && !cancel) return finishedAlready();
      if (!known && cancel) throw new HttpError(404, `workflow run '${runId}' not found`);
      // The SDK reads 400 as "already ended" (a 404 would make it fail and retry).
      throw new HttpError(400, `workflow run '${runId}' is not active (${known?.state ?? 'unknown'})`);
    }
    const body = (await ctx.body()).toString('utf8');
    const ended = await runtime.finish(
      run,
      cancel ? 'RUN_CANCELED' : 'RUN_SUCCESS',
      cancel ? null : body,
      null,
      cancel ? canceledEvent(ctx, 'run', runtime.clock.now()) : undefined,
    );
    if (!ended) {
      if (!cancel) return finishedAlready();
      throw new HttpError(400, `workflow run '${runId}' is not active`);
    }
    return { status: 200, body: {} };
  });
  router.add('GET', '/v2/workflows/runs/:id', (ctx) => {
    const runId = checkRunIdParam(ctx.params.id);
    const run = runtime.store.activeRun(runId);
    if (!run) throw new HttpError(404, `workflow run '${runId}' not found or not active`);
    return { status: 200, body: rawSteps(runtime.store.log(run.seq)) };
  });
}

function checkRunIdParam(value: string | undefined): string {
  try {
    return checkRunId(value, 'workflow run id');
  } catch (error) {
    badRequest(error);
  }
}

/** POST /v2/wait, notify, waiters and webhook URLs. */
export function waitRoutes(router: Router, runtime: WorkflowRuntime): void {
  router.add('POST', '/v2/wait/:eventId', async (ctx) => {
    const eventId = ctx.params.eventId as string;
    const headers = collectHeaders(ctx.req.rawHeaders);
    const runId = checkRunIdParam(first(headers, WF.runId));
    const body = (await ctx.json()) as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, 'invalid wait body: expected a JSON object');
    }
    if (typeof body.url !== 'string') throw new HttpError(400, "invalid wait body: 'url' must be a string");
    if (typeof body.step !== 'object' || body.step === null) {
      throw new HttpError(400, "invalid wait body: 'step' must be an object");
    }
    const timeout =
      typeof body.timeout === 'string' || typeof body.timeout === 'number' ? String(body.timeout) : '7d';
    const parsed = tryParseDuration(timeout, { bareNumberAsSeconds: true });
    if (!parsed.ok || parsed.ms > MAX_WAIT_MS) {
      throw new HttpError(
        400,
        `invalid wait timeout '${timeout}': ${parsed.ok ? 'longer than 365d' : parsed.error}`,
      );
    }
    const run = runtime.store.activeRun(runId);
    if (!run) throw new HttpError(400, `${RUN_NOT_ACTIVE}: ${runId}`);
    const step = body.step as Record<string, unknown>;
    const requestHeaders: Record<string, string[]> = {};
    for (const [name, values] of headers) if (name.startsWith('upstash-')) requestHeaders[name] = values;
    const waiting = await runtime.waiters.wait(run, {
      eventId,
      kind: step.stepType === 'WaitForWebhook' ? 'webhook' : 'wait',
      timeoutMs: parsed.ms,
      url: body.url,
      headers: requestHeaders,
      timeout,
      timeoutUrl: typeof body.timeoutUrl === 'string' ? body.timeoutUrl : undefined,
      timeoutHeaders: (body.timeoutHeaders ?? undefined) as Record<string, string[]> | undefined,
      step,
    });
    if (!waiting) throw new HttpError(400, `${RUN_NOT_ACTIVE}: ${runId}`);
    return { status: 200, body: {} };
  });

  const notify = async (ctx: RequestContext, runId: string | undefined): Promise<Reply> => {
    const eventId = ctx.params.eventId as string;
    const data = await ctx.body();
    let run: RunRecord | undefined;
    if (runId !== undefined) {
      run = runtime.store.activeRun(checkRunIdParam(runId));
      if (!run) throw new HttpError(404, `workflow run '${runId}' not found or not active`);
    }
    const agent = agentOf(collectHeaders(ctx.req.rawHeaders));
    const served = await runtime.waiters.notify(eventId, data, run, (time, kept) => ({
      kind: 'notified',
      time,
      eventId,
      scoped: runId !== undefined,
      ...(kept ? { kept } : {}),
      ...(agent ? { agent } : {}),
      ...(ctx.remoteAddress ? { callerIp: ctx.remoteAddress } : {}),
    }));
    // No `error` for a waiter that was served: the Go SDK reads that field into a Go `error`, and a string there
    // (even "") fails its whole Notify — the real service leaves it out.
    const response = served.map(({ waiter, messageId, run: owner }) => ({
      waiter: waiterView(waiter),
      messageId,
      workflowRunId: owner?.runId,
      workflowCreatedAt: owner?.createdAt,
    }));
    return { status: 200, body: response };
  };
  router.add('POST', '/v2/notify/:eventId', (ctx) => notify(ctx, undefined));
  router.add('POST', '/v2/notify/:runId/:eventId', (ctx) => notify(ctx, ctx.params.runId));
  router.add('GET', '/v2/waiters/:eventId', (ctx) => ({
    status: 200,
    body: runtime.store.waitersFor(ctx.params.eventId as string, 'wait').map(waiterView),
  }));

  const hook: Handler = async (ctx) => {
    const run = runtime.store.activeRun(ctx.params.runId as string);
    if (!run) throw new HttpError(404, `workflow run '${ctx.params.runId}' not found or not active`);
    const eventId = ctx.params.eventId as string;
    const raw = await ctx.body();
    // A Map: a caller may send any header name, `constructor` and `__proto__` included.
    const header = new Map<string, string[]>();
    for (let i = 0; i + 1 < ctx.req.rawHeaders.length; i += 2) {
      const name = ctx.req.rawHeaders[i] as string;
      if (HOP_BY_HOP.has(name.toLowerCase())) continue;
      const values = header.get(name);
      if (values) values.push(ctx.req.rawHeaders[i + 1] as string);
      else header.set(name, [ctx.req.rawHeaders[i + 1] as string]);
    }
    const request = Buffer.from(
      JSON.stringify({
        method: ctx.method,
        header: Object.fromEntries(header),
        body: raw.toString('base64'),
        // The SDK rebuilds the request as `${proto}://${host}${url}`.
        proto: 'http',
        host: ctx.req.headers.host ?? '',
        url: ctx.req.url ?? '',
      }),
    );
    await runtime.waiters.webhook(run, eventId, request, (time, kept) => ({
      kind: 'webhookCalled',
      time,
      eventId,
      method: ctx.method,
      ...(ctx.remoteAddress ? { callerIp: ctx.remoteAddress } : {}),
      ...(kept ? { kept: true } : {}),
    }));
    return { status: 200, body: { workflowRunId: run.runId, eventId } };
  };
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
    router.add(method, '/v2/workflows/hooks/:userId/:runId/:eventId', hook, { open: true });
  }
}
