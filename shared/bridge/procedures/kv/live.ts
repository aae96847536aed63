// Live KV traffic: the MONITOR stream, pub/sub subscriptions and publish, and the export of what the
// monitor kept. Main holds the SSE requests (`/monitor`, `/subscribe/<channel>`, `/psubscribe/<pattern>`)
// with the profile's token; the renderer only sees parsed events, batched by the bridge.
import { z } from 'zod';
import { call, stream } from '../../define';
import { suggestedFileNameSchema } from '../app';

const profileId = z.string().min(1).max(100);

/** One command the server ran, as MONITOR reported it. */
export interface KvMonitorLine {
  kind: 'line';
  /** The line as the server sent it (what an export writes). */
  raw: string;
  /** Server timestamp, milliseconds since the epoch. */
  at: number;
  db: number;
  /**
   * Who sent it: on the local stack the REST caller's IP and token user (`127.0.0.1 read-only`), else
   * `0.0.0.0:0` (the hosted service masks addresses); `lua` for commands a script ran.
   */
  client: string;
  /** The command name first, then its arguments. */
  args: string[];
  /** Sent by this console (see main/core/services/kv/own-traffic.ts for how that is known). */
  own: boolean;
}

export type KvMonitorEvent =
  | KvMonitorLine
  /** The server confirmed the monitor (its `"OK"` line). */
  | { kind: 'open' }
  /** The server itself dropped lines because the stream was read too slowly. */
  | { kind: 'serverDropped'; count: number };

export type KvPubSubEvent =
  /**
   * A subscription is active: `count` is the server's subscription count on that connection. After a lost
   * connection, `reconnectedAt` is when it was subscribed again (messages published in between are gone:
   * pub/sub keeps no history).
   */
  | { kind: 'subscribed'; target: string; pattern: boolean; count: number; reconnectedAt?: number }
  | {
      kind: 'message';
      channel: string;
      /** The pattern that matched, for pattern subscriptions. */
      pattern?: string;
      payload: string;
      /** When main received it (the service sends no timestamp). */
      at: number;
    }
  | { kind: 'serverDropped'; count: number }
  /**
   * One subscription ended (the others stay open), with the service's own text. `lost`: it was open (or
   * could not reach the service) and its connection dropped — main subscribes it again by itself
   * (`reconnecting` events follow). `refused`: the service answered with an error status (401, 400 …) —
   * asking again would get the same answer, so it stays ended.
   */
  | { kind: 'failed'; target: string; pattern: boolean; reason: 'lost' | 'refused'; message: string }
  /**
   * A lost subscription is to be opened again in `inMs` (1 s, 2 s, 4 s … at most 30 s while it keeps
   * failing); `attempt` counts the tries since it was lost, `message` says why the last one failed.
   */
  | {
      kind: 'reconnecting';
      target: string;
      pattern: boolean;
      attempt: number;
      inMs: number;
      message: string;
    };

const channelName = z.string().min(1, 'a channel name is required').max(1024);

export const kvLiveProcedures = {
  'kv.monitor': stream<KvMonitorEvent>()(z.object({ profileId }), 'read'),
  /** Several channels and patterns in one stream; each is its own SSE request to the service. */
  'kv.subscribe': stream<KvPubSubEvent>()(
    z
      .object({
        profileId,
        channels: z.array(channelName).max(20).default([]),
        patterns: z.array(channelName).max(20).default([]),
      })
      .refine(
        (input) => input.channels.length + input.patterns.length > 0,
        'subscribe to at least one channel or pattern',
      ),
    'read',
  ),
  'kv.publish': call<{ receivers: number }>()(
    z.object({ profileId, channel: channelName, message: z.string().max(1_000_000) }),
    'write',
  ),
  /**
   * Writes monitor lines to a new file in the place main picks (app.info's `fileSaving`: a save dialog in
   * the desktop app, the private exports folder in the browser host); the page may suggest a file name.
   */
  'kv.monitor.export': call<{ path: string; lines: number; bytes: number } | { canceled: true }>()(
    z.strictObject({
      lines: z.array(z.string().max(1_000_000)).min(1, 'there is nothing to export').max(200_000),
      format: z.enum(['text', 'jsonl']).default('text'),
      suggestedName: suggestedFileNameSchema.optional(),
    }),
    'local',
  ),
};
