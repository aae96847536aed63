// The SSE endpoints (/monitor, /subscribe/<channel>, /psubscribe/<pattern>): one dedicated Redis
// connection per stream, closed when the client goes away; stream statistics for tests and the bench.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { HttpError } from '../http/server';
import type { Principal } from './execute';
import type { DailyQuota } from './quota';
import { DAILY_LIMIT_ERROR } from './quota';
import type { RespArg, RespValue } from './resp';
import { RespError } from './resp';
import type { SseOptions } from './sse';
import type { ClientLabels } from './client-labels';
import { MonitorView } from './monitor-view';
import type { BridgeScripts } from './scripts';
import { SseStream } from './sse';

export interface StreamStats {
  /** SSE streams open now. */
  open: number;
  /** Lines dropped for slow clients, over all streams. */
  dropped: number;
  /** The most bytes any stream ever had waiting for its client. */
  maxBuffered: number;
}

export type StreamKind = 'monitor' | 'subscribe' | 'psubscribe';

export interface StreamContext {
  quota: DailyQuota | undefined;
  sse: SseOptions;
  /** Response headers (sync token, CORS) for the given content type. */
  headers(contentType: string): Record<string, string>;
  /** The bridge's scripts, whose MONITOR lines show the client's command instead (monitor-view.ts). */
  scripts: Pick<BridgeScripts, 'isOwn'>;
  /** The REST caller each of the bridge's connections works for, named in MONITOR lines. */
  clientLabels?: Pick<ClientLabels, 'of' | 'hidden'>;
}

export interface Streams {
  open(
    principal: Principal,
    kind: StreamKind,
    channel: RespArg | undefined,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void>;
  stats(): StreamStats;
}

function text(value: RespValue | undefined): string {
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return value === undefined || value === null || value instanceof RespError ? '' : String(value);
}

export function createStreams(ctx: StreamContext): Streams {
  const openStreams = new Set<SseStream>();
  const closedStats = { dropped: 0, maxBuffered: 0 };

  async function open(
    principal: Principal,
    kind: 'monitor' | 'subscribe' | 'psubscribe',
    channel: RespArg | undefined,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    if (ctx.quota && ctx.quota.take(1) === 0) throw new HttpError(400, DAILY_LIMIT_ERROR);
    let gone = false;
    res.once('close', () => {
      gone = true;
    });
    const connection = await principal.backend.dedicatedConnection();
    if (gone) {
      connection.close();
      return;
    }
    res.once('close', () => connection.close());
    const command: RespArg[] =
      kind === 'monitor' ? ['MONITOR'] : [kind === 'subscribe' ? 'SUBSCRIBE' : 'PSUBSCRIBE', channel!];
    // Pushes can arrive in the same read as the command's own reply (a busy Redis writes MONITOR lines
    // right behind "+OK"), before the code after `await` runs: keep them for the stream instead of letting
    // the connection treat them as replies nobody asked for (which drops it).
    const early: RespValue[] = [];
    connection.onPush = (value) => early.push(value);
    let first: RespValue;
    try {
      first = await connection.call(command);
    } catch (error) {
      connection.close();
      throw error;
    }
    if (first instanceof RespError) {
      connection.close();
      throw new HttpError(400, first.message);
    }
    if (gone) return;
    res.writeHead(200, {
      ...ctx.headers('text/event-stream'),
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    res.flushHeaders();
    const sse = new SseStream(res, ctx.sse);
    openStreams.add(sse);
    res.once('close', () => {
      sse.stop();
      openStreams.delete(sse);
      closedStats.dropped += sse.droppedTotal;
      closedStats.maxBuffered = Math.max(closedStats.maxBuffered, sse.maxBuffered);
    });
    connection.onClose(() => sse.fail('ERR connection to Redis lost'));
    let push: (value: RespValue) => void;
    if (kind === 'monitor') {
      sse.send('"OK"');
      const view = new MonitorView(ctx.scripts, ctx.clientLabels);
      push = (value) => {
        if (typeof value !== 'string') return;
        const line = view.line(value);
        if (line !== undefined) sse.send(line);
      };
    } else {
      const [, name, count] = first as RespValue[];
      sse.send(`${kind},${text(name)},${text(count)}`);
      push = (value) => {
        if (!Array.isArray(value)) return;
        sse.send(value.map(text).join(','));
      };
    }
    for (const value of early) push(value);
    connection.onPush = push;
  }

  return {
    open,
    stats() {
      let { dropped, maxBuffered } = closedStats;
      for (const s of openStreams) {
        dropped += s.droppedTotal;
        maxBuffered = Math.max(maxBuffered, s.maxBuffered);
      }
      return { open: openStreams.size, dropped, maxBuffered };
    },
  };
}
