// URL groups (`/v2/topics…`), queues (`/v2/queues…`) and signing keys (`/v2/keys…`).
import { canonicalHeaderName, H, isValidHeaderName } from '../../shared/headers';
import { checkName } from '../../shared/messages/names';
import type { HeaderMap, Queue } from '../../shared/messages/types';
import { HttpError, type Reply, type RequestContext, type Router } from '../http/server';
import type { QueueRecord } from '../store/queues';
import {
  checkHeaders,
  checkUrl,
  type HeaderInput,
  headersFromRecord,
  parseConfig,
  PublishError,
} from './publish-request';
import type { ServiceContext } from './service-context';

const OK: Reply = { status: 200, raw: '' };

function groupName(ctx: RequestContext): string {
  const name = ctx.params.name as string;
  const problem = checkName('URL group', name);
  if (problem) throw new HttpError(400, problem);
  return name;
}

function queueName(ctx: RequestContext): string {
  const name = ctx.params.name as string;
  const problem = checkName('queue', name);
  if (problem) throw new HttpError(400, problem);
  return name;
}

function objectBody(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, `expected a JSON object ${what}`);
  }
  return value as Record<string, unknown>;
}

function endpointList(body: unknown, requireUrl: boolean): { name?: string; url?: string }[] {
  const shape = requireUrl
    ? '{"endpoints": [{"url": "https://…", "name"?: "…"}]}'
    : '{"endpoints": [{"url"?: …, "name"?: …}]}';
  const endpoints = objectBody(body, shape).endpoints;
  if (!Array.isArray(endpoints) || endpoints.length === 0) {
    throw new HttpError(400, `'endpoints' must be a non-empty list: ${shape}`);
  }
  return endpoints.map((item: unknown, index) => {
    const endpoint = objectBody(item, `for endpoint ${index}`);
    const out: { name?: string; url?: string } = {};
    if (endpoint.name !== undefined && endpoint.name !== null && endpoint.name !== '') {
      if (typeof endpoint.name !== 'string')
        throw new HttpError(400, `endpoint ${index}: 'name' must be a string`);
      const problem = checkName('URL group', endpoint.name);
      if (problem) throw new HttpError(400, `endpoint ${index}: ${problem.replace('URL group', 'endpoint')}`);
      out.name = endpoint.name;
    }
    if (endpoint.url !== undefined && endpoint.url !== null) {
      if (typeof endpoint.url !== 'string')
        throw new HttpError(400, `endpoint ${index}: 'url' must be a string`);
      try {
        out.url = checkUrl(endpoint.url, 'endpoint');
      } catch (error) {
        if (error instanceof PublishError) throw new HttpError(400, `endpoint ${index}: ${error.message}`);
        throw error;
      }
    }
    if (requireUrl && out.url === undefined) throw new HttpError(400, `endpoint ${index}: 'url' is required`);
    if (!requireUrl && out.url === undefined && out.name === undefined) {
      throw new HttpError(400, `endpoint ${index}: give its 'url' or its 'name'`);
    }
    return out;
  });
}

function groupHeaders(body: unknown, now: number): HeaderMap {
  const headers = objectBody(body, 'like {"headers": {"Upstash-Retries": "3"}}').headers;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new HttpError(400, "'headers' must be an object of strings or lists of strings");
  }
  const out: HeaderMap = {};
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (!isValidHeaderName(name)) throw new HttpError(400, `invalid header name '${name}'`);
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0 || values.some((v) => typeof v !== 'string')) {
      throw new HttpError(400, `header '${name}' must be a string or a non-empty list of strings`);
    }
    out[canonicalHeaderName(name)] = values as string[];
  }
  // Values that can be sent, within a publish's header size: the same rule as every publish path. And each
  // setting as a publish reads it: a bad default (`Upstash-Retries: x`) taken here made every later publish to
  // the group fail with an error about a header its sender never sent.
  const input = headersFromRecord(out);
  try {
    checkHeaders(input, '');
    parseConfig(withFlowControlPartner(input), now);
  } catch (error) {
    if (error instanceof PublishError) throw new HttpError(400, `invalid default headers: ${error.message}`);
    throw error;
  }
  return out;
}

/**
 * A group may hold one half of flow control (the key, or the value) while each publish gives the other: the
 * half it holds is checked with a stand-in for the missing one.
 */
function withFlowControlPartner(headers: HeaderInput): HeaderInput {
  const hasKey = headers.has(H.flowControlKey);
  if (hasKey === headers.has(H.flowControlValue)) return headers;
  const completed: HeaderInput = new Map(headers);
  if (hasKey) completed.set(H.flowControlValue, ['parallelism=1']);
  else completed.set(H.flowControlKey, ['key']);
  return completed;
}

function toQueue(record: QueueRecord, lag: number): Queue {
  return {
    name: record.name,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    parallelism: record.parallelism,
    lag,
    paused: record.paused,
  };
}

export function resourceRoutes(router: Router, service: ServiceContext): void {
  const { store, writer, engine, clock } = service;
  const notFoundGroup = (name: string): HttpError => new HttpError(404, `URL group '${name}' not found`);
  const notFoundQueue = (name: string): HttpError => new HttpError(404, `queue '${name}' not found`);

  // ---------------------------------------------------------------- URL groups
  router.add('GET', '/v2/topics', () => ({ body: store.urlGroups.list() }));
  router.add('GET', '/v2/topics/:name', (ctx) => {
    const name = groupName(ctx);
    const group = store.urlGroups.get(name);
    if (!group) throw notFoundGroup(name);
    return { body: group };
  });
  router.add('POST', '/v2/topics/:name/endpoints', async (ctx) => {
    const name = groupName(ctx);
    const endpoints = endpointList(await ctx.json(), true) as { name?: string; url: string }[];
    await writer.commit('addEndpoints', name, endpoints, clock.now());
    return OK;
  });
  router.add('DELETE', '/v2/topics/:name/endpoints', async (ctx) => {
    const name = groupName(ctx);
    const endpoints = endpointList(await ctx.json(), false);
    const found = await writer.commit('removeEndpoints', name, endpoints, clock.now());
    if (!found) throw notFoundGroup(name);
    return OK;
  });
  router.add('DELETE', '/v2/topics/:name', async (ctx) => {
    const name = groupName(ctx);
    if (!(await writer.commit('deleteUrlGroup', name))) throw notFoundGroup(name);
    return OK;
  });
  router.add('PATCH', '/v2/topics/:name', async (ctx) => {
    const name = groupName(ctx);
    const headers = groupHeaders(await ctx.json(), clock.now());
    if (!(await writer.commit('setUrlGroupHeaders', name, headers, clock.now()))) throw notFoundGroup(name);
    return OK;
  });

  // ---------------------------------------------------------------- queues
  router.add('POST', '/v2/queues', async (ctx) => {
    const body = objectBody(await ctx.json(), 'like {"queueName": "…", "parallelism": 1, "paused": false}');
    if (typeof body.queueName !== 'string') throw new HttpError(400, "'queueName' must be a string");
    const problem = checkName('queue', body.queueName);
    if (problem) throw new HttpError(400, problem);
    const parallelism = body.parallelism ?? 1;
    if (
      typeof parallelism !== 'number' ||
      !Number.isInteger(parallelism) ||
      parallelism < 1 ||
      parallelism > 1000
    ) {
      throw new HttpError(400, "'parallelism' must be a whole number from 1 to 1000");
    }
    const paused = body.paused ?? false;
    if (typeof paused !== 'boolean') throw new HttpError(400, "'paused' must be true or false");
    const name = body.queueName;
    await writer.commit('upsertQueue', name, parallelism, paused, clock.now());
    engine.configureQueue(name, parallelism, paused);
    return OK;
  });
  router.add('GET', '/v2/queues', () => ({
    body: store.queues.list().map((queue) => toQueue(queue, engine.queueLag(queue.name))),
  }));
  router.add('GET', '/v2/queues/:name', (ctx) => {
    const name = queueName(ctx);
    const queue = store.queues.get(name);
    if (!queue) throw notFoundQueue(name);
    return { body: toQueue(queue, engine.queueLag(name)) };
  });
  router.add('DELETE', '/v2/queues/:name', async (ctx) => {
    const name = queueName(ctx);
    await writer.commit('deleteQueue', name);
    engine.forgetQueue(name);
    return OK;
  });
  for (const action of ['pause', 'resume'] as const) {
    router.add('POST', `/v2/queues/:name/${action}`, async (ctx) => {
      const name = queueName(ctx);
      const queue = await writer.commit('setQueuePaused', name, action === 'pause', clock.now());
      if (!queue) throw notFoundQueue(name);
      engine.configureQueue(name, queue.parallelism, queue.paused);
      return OK;
    });
  }

  // ---------------------------------------------------------------- signing keys
  router.add('GET', '/v2/keys', () => ({ body: service.signingKeys.keys() }));
  router.add('POST', '/v2/keys/rotate', () => ({ body: service.signingKeys.rotate() }));
}
