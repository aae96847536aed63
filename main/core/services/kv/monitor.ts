// The live monitor: main holds the service's `/monitor` SSE request (with the profile's token) and turns
// each line into a parsed event for the bridge, which buffers them (bounded, oldest dropped and counted)
// and delivers them in ~50 ms batches. Lines main itself caused are tagged (own-traffic.ts). Closing the
// bridge stream aborts the request, which closes the service's MONITOR connection.
import type { KvMonitorEvent } from '../../../../shared/bridge/procedures/kv/live';
import { parseMonitorLine } from '../../../../shared/kv/monitor';
import type { CallHandler, StreamHandler, StreamSink } from '../../bridge/router';
import type { HandlerDeps } from '../handler-deps';
import type { FileSaver } from '../../saving/file-saver';
import { KvClient } from './client';
import { ownTraffic } from './own-traffic';
import { runEventStream } from './sse-stream';

const DROPPED = /^"DROPPED (\d+) lines/;

/** One SSE `data:` payload of `/monitor` as an event, or undefined for text that is none of them. */
export function monitorEvent(data: string, isOwn: (command: string) => boolean): KvMonitorEvent | undefined {
  if (data === '"OK"') return { kind: 'open' };
  const dropped = DROPPED.exec(data);
  if (dropped) return { kind: 'serverDropped', count: Number(dropped[1]) };
  const parsed = parseMonitorLine(data);
  if (!parsed) return undefined;
  return {
    kind: 'line',
    raw: data,
    at: parsed.at,
    db: parsed.db,
    client: parsed.client,
    args: parsed.args,
    // Script-internal lines (`lua`) are never what main sent.
    own: parsed.client !== 'lua' && isOwn(parsed.command),
  };
}

export function monitorHandlers({ profiles, saver }: HandlerDeps & { saver: FileSaver }): {
  'kv.monitor': StreamHandler<'kv.monitor'>;
  'kv.monitor.export': CallHandler<'kv.monitor.export'>;
} {
  return {
    'kv.monitor': async ({ profileId }, sink: StreamSink<KvMonitorEvent>) => {
      const profile = profiles.resolve(profileId);
      const client = new KvClient(profile);
      // Watching starts before the request, so nothing main sends from now on goes untagged.
      const watcher = ownTraffic.watch(profile.settings.kvUrl);
      try {
        return await runEventStream(
          client,
          '/monitor',
          sink,
          (data) => monitorEvent(data, watcher.isOwn),
          () => watcher.close(),
        );
      } catch (error) {
        watcher.close();
        throw error;
      }
    },
    'kv.monitor.export': async ({ lines, format, suggestedName }) => {
      const text = lines.join('\n') + '\n';
      const saved = await saver.save({
        text,
        suggestedName,
        defaultName: defaultExportName(format),
        what: 'the monitor lines',
      });
      if ('canceled' in saved) return saved;
      return { path: saved.path, lines: lines.length, bytes: Buffer.byteLength(text) };
    },
  };
}

function defaultExportName(format: 'text' | 'jsonl'): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return `kv-monitor-${stamp}.${format === 'jsonl' ? 'jsonl' : 'log'}`;
}
