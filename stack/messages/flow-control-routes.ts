// Flow-control management, as `@upstash/qstash`'s `client.flowControl` calls it: `GET /v2/flowControl`
// (the docs' list, with `?search=`), `GET /v2/flowControl/{key}`, `POST /v2/flowControl/{key}/pause|resume|
// pin|unpin|resetRate`, `GET /v2/globalParallelism`. Two local-only extensions for the console, outside
// `/v2/`: a key's recent history (`GET /local/flowControl/{key}/history`) and why a message is held
// (`GET /local/flowControl/{key}/messages/{messageId}`). The state itself is the engine's gate (flow-gate.ts).
import {
  checkFlowControlPin,
  type FlowControlHistory,
  type FlowControlMessageHold,
  type FlowControlInfo,
  type FlowControlPin,
  MAX_FLOW_CONTROL_KEY_LENGTH,
} from '../../shared/messages/flow-control';
import { tryParseDuration } from '../../shared/duration';
import { HttpError, type Reply, type RequestContext, type Router } from '../http/server';
import type { FlowKeyRecord } from '../store/flow-keys';
import { HISTORY_BUCKET_MS } from './flow-history';
import type { ServiceContext } from './service-context';

const OK: Reply = { status: 200, raw: '' };

function flowKey(ctx: RequestContext): string {
  const key = ctx.params.key as string;
  if (key.length > MAX_FLOW_CONTROL_KEY_LENGTH) {
    throw new HttpError(
      400,
      `invalid flow-control key: must be 1 to ${MAX_FLOW_CONTROL_KEY_LENGTH} characters`,
    );
  }
  return key;
}

const unknownKey = (key: string): HttpError => new HttpError(404, `flow-control key '${key}' not found`);

/** A whole number from the query (the SDK sends numbers), or a duration such as `1m` for `period`. */
function numberParam(ctx: RequestContext, name: 'parallelism' | 'rate' | 'period'): number | undefined {
  const text = ctx.query.get(name);
  if (text === null || text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  if (name === 'period') {
    const parsed = tryParseDuration(text, { bareNumberAsSeconds: true });
    if (parsed.ok && parsed.ms % 1_000 === 0) return parsed.ms / 1_000;
  }
  throw new HttpError(
    400,
    name === 'period'
      ? `invalid period '${text}': give whole seconds (e.g. 60) or a duration such as 1m`
      : `invalid ${name} '${text}': must be a whole number`,
  );
}

function boolParam(ctx: RequestContext, name: 'parallelism' | 'rate'): boolean {
  const text = ctx.query.get(name);
  if (text === null || text === '' || text === 'false') return false;
  if (text === 'true') return true;
  throw new HttpError(400, `invalid ${name} '${text}': must be true or false`);
}

export function flowControlRoutes(router: Router, service: ServiceContext): void {
  const { engine } = service;
  const flows = engine.flowControl;
  const { writer } = service;

  const info = (key: string): FlowControlInfo => {
    const found = flows.info(key);
    if (!found) throw unknownKey(key);
    return found;
  };
  /** Applies a change to the key in memory, then answers once its row is committed. */
  const change = async (key: string, record: FlowKeyRecord | undefined): Promise<Reply> => {
    if (!record) throw unknownKey(key);
    await writer.commit('saveFlowKeys', [record]);
    return OK;
  };

  router.add('GET', '/v2/flowControl', (ctx) => {
    const search = (ctx.query.get('search') ?? '').toLowerCase();
    const keys = flows.keys().filter((key) => search === '' || key.toLowerCase().includes(search));
    // The docs' list item spells the waitlist `waitlistSize`; the SDK's record spells it `waitListSize`.
    return {
      body: keys.map((key) => {
        const record = info(key);
        return { ...record, waitlistSize: record.waitListSize };
      }),
    };
  });
  router.add('GET', '/v2/flowControl/:key', (ctx) => ({ body: info(flowKey(ctx)) }));
  for (const [action, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    router.add('POST', `/v2/flowControl/:key/${action}`, (ctx) => {
      const key = flowKey(ctx);
      return change(key, flows.setPaused(key, paused));
    });
  }
  router.add('POST', '/v2/flowControl/:key/pin', (ctx) => {
    const key = flowKey(ctx);
    const pin: FlowControlPin = {
      parallelism: numberParam(ctx, 'parallelism'),
      rate: numberParam(ctx, 'rate'),
      period: numberParam(ctx, 'period'),
    };
    const problem = checkFlowControlPin(pin);
    if (problem) throw new HttpError(400, problem);
    if (pin.rate === undefined && pin.period !== undefined && info(key).rateMax === 0) {
      throw new HttpError(400, `flow-control key '${key}' has no rate: pin a rate with the period`);
    }
    return change(key, flows.pin(key, pin));
  });
  router.add('POST', '/v2/flowControl/:key/unpin', (ctx) => {
    const key = flowKey(ctx);
    const unpin = { parallelism: boolParam(ctx, 'parallelism'), rate: boolParam(ctx, 'rate') };
    if (!unpin.parallelism && !unpin.rate) {
      throw new HttpError(400, 'unpin needs parallelism=true, rate=true or both');
    }
    return change(key, flows.unpin(key, unpin));
  });
  // `/reset` is what the vendor's changelog (February 2026) calls it, saying it resets the parallelism count
  // too: here that count is the deliveries in flight, exact, so there is nothing of it to reset.
  for (const action of ['resetRate', 'reset']) {
    router.add('POST', `/v2/flowControl/:key/${action}`, (ctx) => {
      const key = flowKey(ctx);
      return change(key, flows.resetRate(key));
    });
  }
  // `/v2/flowControl//pause` (what the SDK sends for an empty key) and unknown actions.
  router.add('POST', '/v2/flowControl/*', (ctx) => {
    if (ctx.rest.startsWith('/')) throw new HttpError(400, 'flow-control key must not be empty');
    throw new HttpError(
      404,
      `not found: POST /v2/flowControl/${ctx.rest} (actions: pause, resume, pin, unpin, resetRate, reset)`,
    );
  });
  router.add('GET', '/v2/globalParallelism', () => ({ body: engine.globalParallelism() }));

  // ---------------------------------------------------------------- local-only extensions (not in the cloud)
  router.add('GET', '/local/flowControl/:key/history', (ctx) => {
    const key = flowKey(ctx);
    const history = flows.history(key);
    if (!history) throw unknownKey(key);
    const body: FlowControlHistory = {
      flowControlKey: key,
      bucketMs: HISTORY_BUCKET_MS,
      points: history.points(),
    };
    return { body };
  });
  router.add('GET', '/local/flowControl/:key/messages/:messageId', (ctx) => {
    const key = flowKey(ctx);
    const { isPaused } = info(key);
    const messageId = ctx.params.messageId as string;
    const hold = engine.flowHold(messageId);
    const body: FlowControlMessageHold = {
      flowControlKey: key,
      messageId,
      waiting: hold?.key === key,
      ahead: hold?.key === key ? hold.ahead : 0,
      isPaused,
    };
    return { body };
  });
}
