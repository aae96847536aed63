// Pub/sub: one bridge stream for several channels and patterns. The REST API takes one channel (or
// pattern) per SSE request, so main opens one request each and merges their messages into one stream;
// a subscription the service refuses becomes a `failed` event while the others stay open (the stream
// fails as a whole only when every one is refused). Publish is an ordinary command.
import type { KvPubSubEvent } from '../../../../shared/bridge/procedures/kv/live';
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

export function pubsubHandlers({ profiles }: HandlerDeps): {
  'kv.subscribe': StreamHandler<'kv.subscribe'>;
  'kv.publish': CallHandler<'kv.publish'>;
} {
  return {
    'kv.subscribe': async ({ profileId, channels, patterns }, sink: StreamSink<KvPubSubEvent>) => {
      const client = new KvClient(profiles.resolve(profileId));
      client.token(); // a missing token fails the open, not each subscription
      const targets = [
        ...new Set(channels.map((c) => `c:${c}`)),
        ...new Set(patterns.map((p) => `p:${p}`)),
      ].map((t) => ({ name: t.slice(2), pattern: t.startsWith('p:') }));
      let open = targets.length;
      // Each subscription ending on its own (the service closed it) is reported; the stream ends with the last.
      const subSink = (target: { name: string; pattern: boolean }): StreamSink<KvPubSubEvent> => ({
        push: (event) => sink.push(event),
        end: (error) => {
          if (error)
            sink.push({
              kind: 'failed',
              target: target.name,
              pattern: target.pattern,
              message: error.message,
            });
          if (--open === 0) sink.end(error);
        },
      });
      const started = await Promise.allSettled(
        targets.map((target) =>
          runEventStream(
            client,
            `/${target.pattern ? 'psubscribe' : 'subscribe'}/${encodeURIComponent(target.name)}`,
            subSink(target),
            (data) => pubSubEvent(data, target.name, target.pattern),
          ),
        ),
      );
      const stops = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      if (stops.length === 0) throw (started[0] as PromiseRejectedResult).reason;
      started.forEach((s, i) => {
        if (s.status === 'rejected') {
          open--;
          const reason = s.reason as Error;
          sink.push({
            kind: 'failed',
            target: targets[i]!.name,
            pattern: targets[i]!.pattern,
            message: reason.message,
          });
        }
      });
      return () => stops.forEach((stop) => stop());
    },
    'kv.publish': async ({ profileId, channel, message }) => {
      const client = new KvClient(profiles.resolve(profileId));
      return { receivers: await client.call<number>(['PUBLISH', channel, message]) };
    },
  };
}
