// Pub/sub: one bridge stream for several channels and patterns. The REST API takes one channel (or
// pattern) per SSE request, so main opens one request each and merges their messages into one stream.
// Each subscription lives on its own: one the service refuses (401, 400 …) becomes a `failed` event
// (`refused`) while the others stay open; one whose connection drops (the service restarted, a proxy cut
// it, the network went) becomes `failed` (`lost`) and is subscribed again by itself after 1 s, 2 s, 4 s …
// at most 30 s (`reconnecting` events) for as long as the page keeps it subscribed (as redis clients do: an
// outage of any length ends without a click; the page shows each try and since when it was lost), with the
// profile resolved afresh each time (a restarted local stack may listen elsewhere), while the others keep
// streaming. The open fails as a whole only when every
// subscription fails at once; the stream ends only when every one was refused (or the page stops it).
// Publish is an ordinary command.
import { BridgeError, type BridgeErrorData } from '../../../../shared/bridge/errors';
import type { KvPubSubEvent } from '../../../../shared/bridge/procedures/kv/live';
import { reconnectDelay } from '../../../../shared/reconnect-delay';
import type { CallHandler, StreamHandler, StreamSink } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import { KvClient } from './client';
import { runEventStream } from './sse-stream';

const DROPPED = /^"DROPPED (\d+) lines/;

/**
 * One `data:` payload of a subscription as an event. The service writes `message,<channel>,<payload>`
 * and `pmessage,<pattern>,<channel>,<payload>` unquoted; since main knows the channel (or pattern) it
 * subscribed to, commas in those names are no problem — only a comma in the channel a pattern matched is
 * ambiguous (the first comma ends it, as in the vendor's SDK).
 */
export function pubSubEvent(
  data: string,
  target: string,
  pattern: boolean,
  now: () => number = Date.now,
): KvPubSubEvent | undefined {
  const dropped = DROPPED.exec(data);
  if (dropped) return { kind: 'serverDropped', count: Number(dropped[1]) };
  const kind = pattern ? 'psubscribe' : 'subscribe';
  if (data.startsWith(`${kind},${target},`)) {
    return {
      kind: 'subscribed',
      target,
      pattern,
      count: Number(data.slice(kind.length + target.length + 2)) || 0,
    };
  }
  if (!pattern && data.startsWith(`message,${target},`)) {
    return { kind: 'message', channel: target, payload: data.slice(9 + target.length), at: now() };
  }
  if (pattern && data.startsWith(`pmessage,${target},`)) {
    const rest = data.slice(10 + target.length);
    const comma = rest.indexOf(',');
    if (comma === -1) return undefined;
    return {
      kind: 'message',
      channel: rest.slice(0, comma),
      pattern: target,
      payload: rest.slice(comma + 1),
      at: now(),
    };
  }
  return undefined;
}

/**
 * Whether a subscription that ended with `error` is worth opening again: its connection was lost (reset,
 * refused, timed out, or the stream ended without an error status) or the service said it is busy or
 * briefly unavailable (429, 502–504). An error status such as 401 or 400 is a refusal: it would answer the same.
 */
export function subscriptionLost(error: BridgeErrorData): boolean {
  if (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT') return true;
  if (error.code !== 'SERVICE_ERROR') return false;
  return error.status === undefined || error.status === 429 || (error.status >= 502 && error.status <= 504);
}

interface Target {
  name: string;
  pattern: boolean;
}

/** Why a subscription could not open, as data: the service's error, or an unexpected one's text. */
function dataOf(error: unknown): BridgeErrorData {
  return error instanceof BridgeError
    ? error.toData()
    : { code: 'INTERNAL', message: String((error as Error)?.message ?? error) };
}

export interface PubSubOptions {
  /** The wait before the `attempt`-th try to reconnect a lost subscription; tests shorten it. */
  delay?: (attempt: number) => number;
}

export function pubsubHandlers(
  { profiles }: HandlerDeps,
  { delay = reconnectDelay }: PubSubOptions = {},
): {
  'kv.subscribe': StreamHandler<'kv.subscribe'>;
  'kv.publish': CallHandler<'kv.publish'>;
} {
  return {
    'kv.subscribe': async ({ profileId, channels, patterns }, sink: StreamSink<KvPubSubEvent>) => {
      new KvClient(profiles.resolve(profileId)).token(); // a missing token fails the open, not each subscription
      const targets: Target[] = [
        ...new Set(channels.map((c) => `c:${c}`)),
        ...new Set(patterns.map((p) => `p:${p}`)),
      ].map((t) => ({ name: t.slice(2), pattern: t.startsWith('p:') }));
      let closed = false;
      let refused = 0;
      /** Each open subscription's stop function (at most one per target). */
      const stops = new Map<Target, () => void>();
      const timers = new Set<NodeJS.Timeout>();

      /** Opens one subscription; `attempt` > 0 when it is a reconnect after a loss. Rejects if it fails to open. */
      const open = async (target: Target, attempt: number): Promise<void> => {
        let reconnecting = attempt > 0;
        const subSink: StreamSink<KvPubSubEvent> = {
          push: (event) => {
            if (closed) return;
            if (event.kind === 'subscribed' && reconnecting) {
              reconnecting = false;
              sink.push({ ...event, reconnectedAt: Date.now() });
            } else sink.push(event);
          },
          end: (error) => {
            stops.delete(target);
            if (!closed) ended(target, error ?? { code: 'SERVICE_ERROR', message: 'The stream ended.' }, 0);
          },
        };
        const stop = await runEventStream(
          new KvClient(profiles.resolve(profileId)),
          `/${target.pattern ? 'psubscribe' : 'subscribe'}/${encodeURIComponent(target.name)}`,
          subSink,
          (data) => pubSubEvent(data, target.name, target.pattern),
        );
        if (closed) stop();
        else stops.set(target, stop);
      };

      /** A subscription failed after `attempts` tries to reconnect it: opened again later, or ended for good. */
      const ended = (target: Target, error: BridgeErrorData, attempts: number): void => {
        const lost = subscriptionLost(error);
        if (attempts === 0 || !lost) {
          const reason = lost ? 'lost' : 'refused';
          sink.push({
            kind: 'failed',
            target: target.name,
            pattern: target.pattern,
            reason,
            message: error.message,
          });
        }
        if (!lost) {
          if (++refused === targets.length) {
            closed = true;
            sink.end(error);
          }
          return;
        }
        const attempt = attempts + 1;
        const inMs = delay(attempt);
        sink.push({
          kind: 'reconnecting',
          target: target.name,
          pattern: target.pattern,
          attempt,
          inMs,
          message: error.message,
        });
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (closed) return;
          open(target, attempt).catch((caught: unknown) => {
            if (!closed) ended(target, dataOf(caught), attempt);
          });
        }, inMs);
        timers.add(timer);
      };

      const started = await Promise.allSettled(targets.map((target) => open(target, 0)));
      if (started.every((s) => s.status === 'rejected')) {
        closed = true;
        throw (started[0] as PromiseRejectedResult).reason;
      }
      started.forEach((s, i) => {
        if (s.status === 'rejected') ended(targets[i]!, dataOf(s.reason), 0);
      });
      return () => {
        closed = true;
        timers.forEach((timer) => clearTimeout(timer));
        stops.forEach((stop) => stop());
      };
    },
    'kv.publish': async ({ profileId, channel, message }) => {
      const client = new KvClient(profiles.resolve(profileId));
      return { receivers: await client.call<number>(['PUBLISH', channel, message]) };
    },
  };
}
