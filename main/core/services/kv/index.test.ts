// The kv.* handlers (workbench and key browser) against the real local stack's KV service.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KV_DELETE_CHUNK } from '../../../../shared/bridge/procedures/kv/delete-job';
import { KV_SCAN_FIRST_COUNT, type KvScanEvent } from '../../../../shared/bridge/procedures/kv/key-browser';
import type {
  ParsedInputOf,
  StreamName,
  EventOf,
  CallName,
  OutputOf,
} from '../../../../shared/bridge/procedures';
import { procedures } from '../../../../shared/bridge/procedures';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { KvClient } from './client';
import { kvHandlers } from './index';
import { runJob, testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { routerWith } from '../test-stack/router';
import { kvProfile, useKvStack } from './kv-test-stack';
import { KvHistoryStore } from './history-store';
import { exportsFolderSaver } from '../../saving/exports-folder';

const env = useKvStack();
const dataDir = useSuiteTempDir('kv-handlers-');

let profile: ResolvedProfile;
const jobs = testJobRunner(join(dataDir, 'jobs'));
const handlers = kvHandlers({
  profiles: { resolve: () => profile },
  dataDir,
  jobs,
  saver: exportsFolderSaver({ folder: join(dataDir, 'exports'), servedFolders: [] }),
});
const use = (options: Parameters<typeof kvProfile>[1] = {}) => {
  profile = kvProfile(env.kv, options);
};

async function callKv<N extends CallName & keyof typeof handlers>(
  name: N,
  input: unknown,
): Promise<OutputOf<N>> {
  const parsed = procedures[name].input.parse(input) as ParsedInputOf<N>;
  return (handlers[name] as unknown as (i: ParsedInputOf<N>) => Promise<OutputOf<N>>)(parsed);
}

/** Opens a stream handler and collects its events until it ends. */
function collect<N extends StreamName & keyof typeof handlers>(
  name: N,
  input: unknown,
  stopWhen?: (event: EventOf<N>) => boolean,
): Promise<{ events: EventOf<N>[]; error?: unknown }> {
  const parsed = procedures[name].input.parse(input) as ParsedInputOf<N>;
  return new Promise((resolve) => {
    const events: EventOf<N>[] = [];
    const stopper: { stop?: () => void } = {};
    const sink = {
      push: (event: EventOf<N>) => {
        events.push(event);
        if (stopWhen?.(event)) {
          stopper.stop?.();
          resolve({ events });
        }
      },
      end: (error?: unknown) => resolve({ events, error }),
    };
    stopper.stop = (handlers[name] as (i: unknown, s: typeof sink) => () => void)(parsed, sink);
  });
}

const kv = () => new KvClient(kvProfile(env.kv));

describe('workbench', () => {
  it('runs a script in every format, with per-command timing and history', async () => {
    use();
    const json = await callKv('kv.run', {
      profileId: 'p',
      commands: [
        ['SET', 'wb:a', 'héllo'],
        ['GET', 'wb:a'],
        ['LPUSH', 'wb:a', 'x'],
      ],
      text: 'SET wb:a héllo\nGET wb:a\nLPUSH wb:a x',
    });
    expect(json.results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(json.results[1]!.result).toBe('héllo');
    expect(json.results[2]!.error).toMatch(/^WRONGTYPE/);
    expect(json.results.every((r) => r.ms > 0)).toBe(true);
    const b64 = await callKv('kv.run', { profileId: 'p', commands: [['GET', 'wb:a']], format: 'base64' });
    expect(Buffer.from(b64.results[0]!.result as string, 'base64').toString()).toBe('héllo');
    const raw = await callKv('kv.run', {
      profileId: 'p',
      commands: [['GET', 'wb:a'], ['NOPE']],
      format: 'resp2',
    });
    expect(Buffer.from(raw.results[0]!.raw!, 'base64').toString()).toBe('$6\r\nhéllo\r\n');
    expect(raw.results[1]).toMatchObject({ ok: false, error: expect.stringMatching(/^ERR/) });
    const history = await callKv('kv.history.list', { profileId: 'p' });
    expect(history[0]!.text).toBe('GET wb:a\nNOPE');
    expect(history.some((h) => h.text.startsWith('SET wb:a'))).toBe(true);
    // Kept by main on disk: a new store over the same file sees it.
    expect(new KvHistoryStore(join(dataDir, 'kv-history.json')).list('p').length).toBe(history.length);
    // A profile id the page makes up, even one every object has as a key, has no history.
    for (const profileId of ['nope', 'constructor', '__proto__']) {
      expect(await callKv('kv.history.list', { profileId })).toEqual([]);
      expect(await callKv('kv.history.clear', { profileId })).toEqual({ cleared: 0 });
    }
  });

  it('refuses dangerous commands without confirmation, and runs them with it', async () => {
    use();
    await kv().call(['SET', 'wb:danger', '1']);
    await expect(callKv('kv.run', { profileId: 'p', commands: [['FLUSHDB']] })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/FLUSHDB/),
    });
    const many = Array.from({ length: 11 }, (_, i) => `wb:many:${i}`);
    await expect(
      callKv('kv.pipeline', { profileId: 'p', mode: 'pipeline', rows: [['DEL', ...many]] }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(await kv().call(['EXISTS', 'wb:danger'])).toBe(1);
  });

  it('read-only: the server refuses writes with its own text; without a read-only token main refuses', async () => {
    use({ readOnly: true });
    const server = await callKv('kv.run', {
      profileId: 'p',
      commands: [
        ['GET', 'wb:a'],
        ['SET', 'wb:ro', '1'],
      ],
    });
    expect(server.access).toBe('readOnly');
    expect(server.results[0]!.ok).toBe(true);
    expect(server.results[1]!.error).toMatch(/NOPERM/);
    use({ readOnly: true, readOnlyToken: false });
    await expect(
      callKv('kv.run', { profileId: 'p', commands: [['SET', 'wb:ro', '1']] }),
    ).rejects.toMatchObject({
      code: 'READ_ONLY',
    });
    expect((await callKv('kv.run', { profileId: 'p', commands: [['GET', 'wb:a']] })).results[0]!.ok).toBe(
      true,
    );
    expect(await kv().call(['EXISTS', 'wb:ro'])).toBe(0);
  });

  it('pipeline and transaction keep a failing row in place; a refused transaction is discarded', async () => {
    use();
    const rows = [
      ['SET', 'wb:p', 'v'],
      ['INCR', 'wb:p'],
      ['GET', 'wb:p'],
    ];
    const pipe = await callKv('kv.pipeline', { profileId: 'p', mode: 'pipeline', rows });
    expect('entries' in pipe && pipe.entries.map((e) => e.error === undefined)).toEqual([true, false, true]);
    const tx = await callKv('kv.pipeline', { profileId: 'p', mode: 'transaction', rows });
    expect('entries' in tx && tx.entries[1]!.error).toMatch(/not an integer/);
    const raw = await callKv('kv.pipeline', { profileId: 'p', mode: 'pipeline', rows, format: 'resp2' });
    expect('raw' in raw && Buffer.from(raw.raw!, 'base64').toString()).toMatch(/^\+OK\r\n-ERR/);
    expect('entries' in raw && raw.entries[2]).toEqual({ result: 'v' });
    const discarded = await callKv('kv.pipeline', {
      profileId: 'p',
      mode: 'transaction',
      rows: [['SET', 'wb:q', '1'], ['NOPE']],
    });
    expect('discarded' in discarded && discarded.discarded).toMatch(/ERR/);
  });

  it('answers command docs (the server or the bundled table)', async () => {
    use();
    const { docs } = await callKv('kv.commandDocs', { profileId: 'p' });
    const set = docs.find((d) => d.name === 'SET');
    expect(set?.args).toMatch(/key/);
    expect(set?.summary).toBeTruthy();
  });
});

describe('key browser', () => {
  it('scans progressively with a cap, continues from the cursor, and filters by type', async () => {
    use();
    const client = kv();
    await client.call(['FLUSHDB']);
    const rows = Array.from({ length: 3000 }, (_, i) => ['SET', `scan:${i % 10}:${i}`, 'v']);
    rows.push(['RPUSH', 'scan:list', 'a'], ['HSET', 'scan:hash', 'f', 'v']);
    for (let i = 0; i < rows.length; i += 500) await client.pipelineEntries(rows.slice(i, i + 500));
    const first = await collect('kv.keys.scan', { profileId: 'p', match: 'scan:*', count: 200, limit: 1000 });
    const keys1 = first.events.flatMap((e: KvScanEvent) => e.keys);
    const last = first.events.at(-1)!;
    expect(last.capped).toBe(true);
    expect(keys1.length).toBeGreaterThanOrEqual(1000);
    // DBSIZE runs beside the first SCAN: its answer travels once, with whichever event follows it.
    expect(first.events.flatMap((e: KvScanEvent) => (e.dbsize === undefined ? [] : [e.dbsize]))).toEqual([
      3002,
    ]);
    // The local stack answers SCAN … WITHTYPE as the hosted service does: types come with the keys.
    expect(first.events[0]!.withType).toBe(true);
    expect(first.events[0]!.types?.length).toBe(first.events[0]!.keys.length);
    const rest = await collect('kv.keys.scan', {
      profileId: 'p',
      match: 'scan:*',
      count: 1000,
      cursor: last.cursor,
    });
    const all = new Set([...keys1, ...rest.events.flatMap((e: KvScanEvent) => e.keys)]);
    expect(all.size).toBe(3002);
    expect(rest.events.at(-1)!.done).toBe(true);
    // The first SCAN of a walk asks for a small page (shown at once), the next ones for the COUNT asked.
    const big = await collect('kv.keys.scan', { profileId: 'p', match: 'scan:*', count: 1000 });
    const pages = big.events.filter((e: KvScanEvent) => e.keys.length > 0 || e.done);
    expect(pages[0]!.calls).toBe(1);
    expect(pages[0]!.keys.length).toBeLessThanOrEqual(2 * KV_SCAN_FIRST_COUNT);
    expect(pages[1]!.keys.length).toBeGreaterThan(2 * KV_SCAN_FIRST_COUNT);
    expect(new Set(big.events.flatMap((e: KvScanEvent) => e.keys)).size).toBe(3002);
    const lists = await collect('kv.keys.scan', { profileId: 'p', match: 'scan:*', type: 'list' });
    expect(lists.events.flatMap((e: KvScanEvent) => e.keys)).toEqual(['scan:list']);
    const meta = await callKv('kv.keys.meta', { profileId: 'p', keys: ['scan:list', 'scan:hash', 'nope'] });
    expect(meta.map((m) => m.type)).toEqual(['list', 'hash', 'none']);
    expect(meta[2]!.ttlMs).toBe(-2);
  });

  it('looks up, reads and edits every type', async () => {
    use();
    const client = kv();
    await client.call(['DEL', 'e:s', 'e:h', 'e:l', 'e:set', 'e:z', 'e:x', 'e:s2', 'e:s3']);
    const edit = (e: object) => callKv('kv.keys.edit', { profileId: 'p', edit: e });
    await edit({
      op: 'string.set',
      key: 'e:s',
      value: Buffer.from([0, 255, 1]).toString('base64'),
      base64: true,
      create: true,
    });
    await expect(edit({ op: 'string.set', key: 'e:s', value: 'x', create: true })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const s = await callKv('kv.keys.value', { profileId: 'p', key: 'e:s', type: 'string' });
    expect(s.type === 'string' && Buffer.from(s.base64, 'base64')).toEqual(Buffer.from([0, 255, 1]));
    await edit({ op: 'hash.set', key: 'e:h', field: 'f1', value: 'v1' });
    await edit({ op: 'hash.set', key: 'e:h', field: 'f2', value: 'v2' });
    await edit({ op: 'hash.delete', key: 'e:h', field: 'f1' });
    const h = await callKv('kv.keys.value', { profileId: 'p', key: 'e:h', type: 'hash' });
    expect(h).toMatchObject({ entries: [['f2', 'v2']], cursor: '', total: 1 });
    for (const v of ['a', 'b', 'c']) await edit({ op: 'list.push', key: 'e:l', side: 'right', value: v });
    await edit({ op: 'list.set', key: 'e:l', index: 0, value: 'A' });
    await edit({ op: 'list.remove', key: 'e:l', index: 1 });
    const l1 = await callKv('kv.keys.value', { profileId: 'p', key: 'e:l', type: 'list', count: 1 });
    expect(l1).toMatchObject({ items: [{ index: 0, value: 'A' }], cursor: '1', total: 2 });
    const l2 = await callKv('kv.keys.value', {
      profileId: 'p',
      key: 'e:l',
      type: 'list',
      cursor: '1',
      count: 1,
    });
    expect(l2).toMatchObject({ items: [{ index: 1, value: 'c' }], cursor: '' });
    await edit({ op: 'set.add', key: 'e:set', member: 'm1' });
    await edit({ op: 'set.add', key: 'e:set', member: 'm2' });
    await edit({ op: 'set.remove', key: 'e:set', member: 'm1' });
    expect(await callKv('kv.keys.value', { profileId: 'p', key: 'e:set', type: 'set' })).toMatchObject({
      members: ['m2'],
    });
    await edit({ op: 'zset.add', key: 'e:z', member: 'z1', score: '2.5' });
    await edit({ op: 'zset.add', key: 'e:z', member: 'z2', score: '1' });
    await expect(edit({ op: 'zset.add', key: 'e:z', member: 'z3', score: 'abc' })).rejects.toThrow(
      /not a number/,
    );
    await edit({ op: 'zset.remove', key: 'e:z', member: 'z2' });
    expect(await callKv('kv.keys.value', { profileId: 'p', key: 'e:z', type: 'zset' })).toMatchObject({
      entries: [{ member: 'z1', score: '2.5' }],
    });
    const id = (await edit({ op: 'stream.add', key: 'e:x', fields: [['a', '1']] })).result as string;
    await edit({ op: 'stream.add', key: 'e:x', fields: [['b', '2']] });
    const x1 = await callKv('kv.keys.value', { profileId: 'p', key: 'e:x', type: 'stream', count: 1 });
    expect(x1).toMatchObject({ entries: [{ id, fields: [['a', '1']] }], total: 2 });
    const x2 = await callKv('kv.keys.value', {
      profileId: 'p',
      key: 'e:x',
      type: 'stream',
      count: 1,
      cursor: x1.type === 'stream' ? x1.cursor : '',
    });
    expect(x2.type === 'stream' && x2.entries[0]!.fields).toEqual([['b', '2']]);
    await edit({ op: 'stream.delete', key: 'e:x', id });
    const info = await callKv('kv.keys.lookup', { profileId: 'p', key: 'e:x' });
    expect(info).toMatchObject({ exists: true, type: 'stream', size: 1, ttlMs: -1 });
    expect(info.memory).toBeGreaterThan(0);
    expect(
      (await callKv('kv.keys.expire', { profileId: 'p', key: 'e:x', ttlSeconds: 100 })).ttlMs,
    ).toBeGreaterThan(90_000);
    expect((await callKv('kv.keys.expire', { profileId: 'p', key: 'e:x', ttlSeconds: null })).ttlMs).toBe(-1);
    await callKv('kv.keys.rename', { profileId: 'p', key: 'e:s', to: 'e:s2' });
    await expect(callKv('kv.keys.rename', { profileId: 'p', key: 'e:s2', to: 'e:h' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await callKv('kv.keys.duplicate', { profileId: 'p', key: 'e:s2', to: 'e:s3' });
    expect(await client.call(['GET', 'e:s3'])).toBe(await client.call(['GET', 'e:s2']));
    expect(await callKv('kv.keys.delete', { profileId: 'p', keys: ['e:s2', 'e:s3'] })).toEqual({
      deleted: 2,
    });
    expect((await callKv('kv.keys.lookup', { profileId: 'p', key: 'e:s2' })).exists).toBe(false);
  });

  it('JSON documents: type, size and text as stored; edits by path; changes that cannot apply say why', async () => {
    use();
    const client = kv();
    await client.call(['DEL', 'e:json', 'e:jarr']);
    const doc = '{"b":1,"10":"ten","big":12345678901234567890,"tags":["x"],"address":{"city":"London"}}';
    await client.call(['JSON.SET', 'e:json', '$', doc]);
    await client.call(['JSON.SET', 'e:jarr', '$', '[1,2,3]']);
    expect(await callKv('kv.keys.lookup', { profileId: 'p', key: 'e:json' })).toMatchObject({
      exists: true,
      type: 'ReJSON-RL',
      size: 5,
    });
    expect((await callKv('kv.keys.lookup', { profileId: 'p', key: 'e:jarr' })).size).toBe(3);
    const value = await callKv('kv.keys.value', { profileId: 'p', key: 'e:json', type: 'ReJSON-RL' });
    expect(value).toEqual({ type: 'json', text: doc, length: doc.length, truncated: false });

    const edit = (e: object) => callKv('kv.keys.edit', { profileId: 'p', edit: e });
    await edit({ op: 'json.set', key: 'e:json', path: '$.address.city', value: '"Paris"' });
    await edit({ op: 'json.set', key: 'e:json', path: '$["new one"]', value: '{"n": 1.10}', nx: true });
    await edit({ op: 'json.append', key: 'e:json', path: '$.tags', value: '"y"' });
    await edit({ op: 'json.delete', key: 'e:json', path: '$.b' });
    expect(await client.call(['JSON.GET', 'e:json'])).toBe(
      '{"10":"ten","big":12345678901234567890,"tags":["x","y"],"address":{"city":"Paris"},"new one":{"n":1.10}}',
    );
    // NX on a member that exists, a parent that is gone, invalid JSON: refused with the reason, nothing changes.
    await expect(
      edit({ op: 'json.set', key: 'e:json', path: '$.big', value: '1', nx: true }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('already exists') });
    await expect(
      edit({ op: 'json.set', key: 'e:json', path: '$.gone.city', value: '1' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('Nothing at $.gone.city'),
    });
    await expect(edit({ op: 'json.set', key: 'e:json', path: '$.big', value: '{oops' })).rejects.toThrow(
      /not valid JSON/,
    );
    await expect(edit({ op: 'json.set', key: 'e:json', path: 'big', value: '1' })).rejects.toThrow(
      /a JSONPath starts with \$/,
    );
    expect(await client.call(['JSON.GET', 'e:json', '$.big'])).toBe('[12345678901234567890]');
  });

  it('delete by pattern is a job: the preview is the SCAN listing, then UNLINK in chunks; a match-all pattern is refused', async () => {
    use();
    const client = kv();
    const rows = Array.from({ length: 1200 }, (_, i) => ['SET', `bulk:${i}`, 'v']);
    for (let i = 0; i < rows.length; i += 600) await client.pipelineEntries(rows.slice(i, i + 600));
    await client.call(['SET', 'keep:1', 'v']);
    await client.call(['HSET', 'bulk:hash', 'f', 'v']);
    const router = routerWith(handlers);
    const input = { profileId: 'p', target: { filters: { pattern: 'bulk:*', type: 'string' } } };

    // The preview alone deletes nothing.
    const preview = await runJob(router, 'kv.keys.job', input, { start: false });
    expect(preview.found).toBe(1200);
    expect(await client.call(['EXISTS', 'bulk:0', 'bulk:1199'])).toBe(2);

    const run = await runJob(router, 'kv.keys.job', input);
    expect(run.error).toBeUndefined();
    const chunks = run.events.filter((event) => event.type === 'progress' && event.processed > 0);
    expect(chunks).toHaveLength(Math.ceil(1200 / KV_DELETE_CHUNK));
    expect(run.summary).toMatchObject({ status: 'done', action: 'delete', total: 1200, succeeded: 1200 });
    expect(await client.call(['EXISTS', 'bulk:0', 'bulk:1199'])).toBe(0);
    // The type filter and the pattern both held.
    expect(await client.call(['EXISTS', 'keep:1', 'bulk:hash'])).toBe(2);
    expect(jobs.journal.list()[0]).toMatchObject({ service: 'kv', procedure: 'kv.keys.job', status: 'done' });

    const job = procedures['kv.keys.job'].input;
    // Every key, however it is spelled (no key is empty, so `?*` takes them all); `???` only three-byte ones.
    for (const pattern of ['**', '?*', '*?*', ' *? ']) {
      expect(() => job.parse({ profileId: 'p', target: { filters: { pattern } } }), pattern).toThrow(
        /every key/,
      );
    }
    expect(job.parse({ profileId: 'p', target: { filters: { pattern: '???' } } })).toBeTruthy();
    expect(() => job.parse({ profileId: 'p', target: { filters: { pattern: ' ' } } })).toThrow();
    expect(() => job.parse({ profileId: 'p', target: { all: true } })).toThrow();
  });
});
