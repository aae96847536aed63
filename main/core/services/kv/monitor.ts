// The live monitor: main holds the service's `/monitor` SSE request (with the profile's token) and turns
// each line into a parsed event for the bridge, which buffers them (bounded, oldest dropped and counted)
// and delivers them in ~50 ms batches. Lines main itself caused are tagged (own-traffic.ts). Closing the
// bridge stream aborts the request, which closes the service's MONITOR connection.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join } from 'node:path';
import { BridgeError } from '../../../../shared/bridge/errors';
import type { KvMonitorEvent } from '../../../../shared/bridge/procedures/kv/live';
import { parseMonitorLine } from '../../../../shared/kv/monitor';
import type { CallHandler, StreamHandler, StreamSink } from '../../bridge/router';
import type { ProfilesService } from '../../profiles/profiles-service';
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

export function monitorHandlers({ profiles, exportDir }: { profiles: ProfilesService; exportDir: string }): {
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
    'kv.monitor.export': ({ lines, format, path }) => {
      const target = path ? checkedExportPath(path) : defaultExportPath(exportDir, format);
      const text = lines.join('\n') + '\n';
      try {
        mkdirSync(dirname(target), { recursive: true });
        // 'wx': never overwrite a file that is already there.
        writeFileSync(target, text, { flag: 'wx', mode: 0o600 });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new BridgeError({
          code: 'INVALID_INPUT',
          message:
            code === 'EEXIST'
              ? `${target} already exists: choose another name (exports never overwrite a file).`
              : `Could not write ${target}: ${(error as Error).message}`,
          fields: path ? { path: code === 'EEXIST' ? 'already exists' : 'cannot be written' } : undefined,
        });
      }
      return { path: target, lines: lines.length, bytes: Buffer.byteLength(text) };
    },
  };
}

const EXPORT_EXTENSIONS = ['.log', '.txt', '.jsonl'];

function checkedExportPath(path: string): string {
  const problem = !isAbsolute(path)
    ? 'must be an absolute path'
    : !EXPORT_EXTENSIONS.includes(extname(path).toLowerCase())
      ? `must end in ${EXPORT_EXTENSIONS.join(', ')}`
      : !isDirectory(dirname(path))
        ? `its folder ${dirname(path)} does not exist`
        : undefined;
  if (problem) {
    throw new BridgeError({
      code: 'INVALID_INPUT',
      message: `Export path ${problem}.`,
      fields: { path: problem },
    });
  }
  return path;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function defaultExportPath(dir: string, format: 'text' | 'jsonl'): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(dir, `kv-monitor-${stamp}.${format === 'jsonl' ? 'jsonl' : 'log'}`);
}
