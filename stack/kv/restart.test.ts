// redis-server killed under the service: requests fail fast with a JSON error and recover by themselves;
// the service restarts a redis-server it manages. And a restart of the service itself, for what it keeps
// in memory only: which hashes hold field times.
import { afterEach, describe, expect, it } from 'vitest';

import type { TestRedis, TestService } from './test-support';
import { commandAs, eventually, startTestRedis, startTestService, tempDir } from './test-support';

const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function readAll(res: Response): Promise<string> {
  return new Response(res.body).text();
}

describe('an external Redis (--redis-url) that dies and comes back', () => {
  it('fails fast with a clear JSON error while it is down, then recovers without a restart', async () => {
    const redis: TestRedis = await startTestRedis({ appendonly: true });
    const servers = [redis];
    const kv: TestService = await startTestService({ redisUrl: redis.url });
    cleanup.push(async () => {
      await kv.stop();
      for (const server of servers.reverse()) await server.stop();
    });
    const readOnly = { headers: { authorization: `Bearer ${kv.readOnlyToken}` } };
    expect((await kv.json('/set/r:k/1')).status).toBe(200);
    expect((await kv.json('/get/r:k', readOnly)).status).toBe(200);
    const stream = await kv.call('/subscribe/r-chan', { method: 'POST' });
    expect(stream.status).toBe(200);
    const streamText = readAll(stream);

    await redis.kill();

    // The open stream ends with an error event.
    expect(await streamText).toMatch(/event: error\ndata: ERR connection to Redis lost\n\n$/);
    for (const [path, init] of [
      ['/get/r:k', {}],
      ['/pipeline', { method: 'POST', body: '[["GET","r:k"]]' }],
      ['/pipeline', { method: 'POST', body: '[["ACL","RESTTOKEN","u","p"],["GET","r:k"]]' }],
      ['/multi-exec', { method: 'POST', body: '[["GET","r:k"]]' }],
      ['/monitor', { method: 'POST' }],
      ['/get/r:k', readOnly],
    ] as const) {
      const res = await kv.json(path, init);
      expect(res.status, path).toBe(503);
      expect((res.body as { error: string }).error, path).toMatch(
        /^ERR (cannot reach Redis at 127\.0\.0\.1:\d+: ECONNREFUSED|connection to Redis at .* lost).*retries by itself/,
      );
    }

    servers.push(await startTestRedis({ port: redis.port, dir: redis.dir, appendonly: true }));
    expect((await kv.json('/set/r:k/2')).body).toEqual({ result: 'OK' });
    // The new server forgot the read-only user; the service creates it again on the first refusal.
    expect(await kv.json('/get/r:k', readOnly)).toEqual({ status: 200, body: { result: '2' } });
    expect((await kv.json('/set/r:k/3', readOnly)).status).toBe(400);
  });
});

describe('a Redis that stops answering', () => {
  it('fails the waiting requests with a 503 instead of hanging, and recovers', async () => {
    const redis = await startTestRedis();
    const kv = await startTestService({ redisUrl: redis.url, replyTimeoutMs: 500 });
    cleanup.push(async () => {
      process.kill(redis.pid, 'SIGCONT');
      await kv.stop();
      await redis.stop();
    });
    expect((await kv.json('/set/hang:k/1')).status).toBe(200);
    process.kill(redis.pid, 'SIGSTOP');
    const res = await kv.json('/get/hang:k');
    expect(res.status).toBe(503);
    expect((res.body as { error: string }).error).toMatch(
      /^ERR Redis at 127\.0\.0\.1:\d+ did not answer for 0\.5 s/,
    );
    process.kill(redis.pid, 'SIGCONT');
    expect(await kv.json('/get/hang:k')).toEqual({ status: 200, body: { result: '1' } });
  });
});

describe('the redis-server the service manages', () => {
  it('is restarted when it dies, keeps its data, and requests never hang meanwhile', async () => {
    const kv = await startTestService();
    cleanup.push(() => kv.stop());
    expect((await kv.json('/set/m:k/kept')).body).toEqual({ result: 'OK' });
    const pid = kv.managed!.pid!;
    process.kill(pid, 'SIGKILL');

    const statuses = new Set<number>();
    await eventually(async () => {
      const res = await kv.json('/get/m:k');
      statuses.add(res.status);
      if (res.status !== 200) expect(res.status).toBe(503);
      return res.status === 200;
    });
    expect(kv.managed!.pid).not.toBe(pid);
    expect(kv.managed!.pid).toBeGreaterThan(0);
    // AOF: the write reached the file before Redis replied, so SIGKILL does not lose it.
    expect((await kv.json('/get/m:k')).body).toEqual({ result: 'kept' });
    expect([...statuses].every((s) => s === 200 || s === 503)).toBe(true);
    expect(
      (await kv.json('/get/m:k', { headers: { authorization: `Bearer ${kv.readOnlyToken}` } })).body,
    ).toEqual({
      result: 'kept',
    });
  });
});

describe('a Redis that is still loading its data after a restart', () => {
  it('answers 503 with Retry-After (temporary), not 400, on every command path', async () => {
    const first = await startTestRedis();
    const kv = await startTestService({ redisUrl: first.url });
    const servers = [first];
    cleanup.push(async () => {
      await kv.stop();
      for (const server of servers.reverse()) await server.kill();
    });
    // An uncompressed RDB of 2,000 keys of 2 KB: with a key-load delay of 0.2 s the new server stays in
    // LOADING for minutes, answering (LOADING …) between keys — a state that holds, not a race.
    expect(await kv.admin(['CONFIG', 'SET', 'rdbcompression', 'no'])).toBe('OK');
    expect(
      await kv.admin(['EVAL', "for i=1,2000 do redis.call('SET','l:'..i,string.rep('x',2000)) end", '0']),
    ).toBeNull();
    expect(await kv.admin(['SAVE'])).toBe('OK');
    await first.kill();
    servers.push(
      await startTestRedis({
        port: first.port,
        dir: first.dir,
        args: ['--key-load-delay', '200000', '--loading-process-events-interval-bytes', '1024'],
        // Logged once the server listens and starts reading the file.
        readyLine: 'Loading RDB produced by version',
      }),
    );

    for (const [path, init] of [
      ['/get/l:1', {}],
      ['/', { method: 'POST', body: '["GET","l:1"]' }],
      ['/pipeline', { method: 'POST', body: '[["GET","l:1"],["GET","l:2"]]' }],
      ['/multi-exec', { method: 'POST', body: '[["GET","l:1"]]' }],
    ] as const) {
      const res = await kv.call(path, init);
      const body = (await res.json()) as { error: string };
      expect(res.status, path).toBe(503);
      expect(res.headers.get('retry-after'), path).toBe('1');
      expect(body.error, path).toMatch(/loading/i);
    }
  });
});

describe('a restart of the service', () => {
  it('hides the bookkeeping of hash-field TTLs from the first request and still expires them', async () => {
    const data = tempDir();
    const first = await startTestService({ dataDir: data.dir });
    const before = (...command: string[]) => commandAs(first, first.token, ...command);
    await before('HSET', 'r:fields', 'keep', 'k', 'long', 'l', 'short', 's');
    await before('HSET', 'r:fields:all', 'only', 'o');
    expect(await before('HEXPIRE', 'r:fields', '100', 'FIELDS', '1', 'long')).toEqual({ result: [1] });
    expect(await before('HPEXPIRE', 'r:fields', '1500', 'FIELDS', '1', 'short')).toEqual({ result: [1] });
    expect(await before('HPEXPIRE', 'r:fields:all', '1500', 'FIELDS', '1', 'only')).toEqual({ result: [1] });
    await first.stop(true);

    // The new service learns which hashes hold field times from redis-server alone (its start-up scan).
    const second = await startTestService({ dataDir: data.dir });
    cleanup.push(async () => {
      await second.stop(true);
      data.remove();
    });
    const after = (...command: string[]) => commandAs(second, second.token, ...command);
    const fields = (await after('HKEYS', 'r:fields')).result as string[];
    // 'short' may have expired already on a slow machine; the bookkeeping field never shows.
    expect(fields.filter((field) => field !== 'short')).toEqual(['keep', 'long']);
    const [ttl] = (await after('HTTL', 'r:fields', 'FIELDS', '1', 'long')).result as number[];
    expect(ttl).toBeGreaterThan(90);
    // Deleted by the new service's sweeper, not only hidden; the key whose only field expired is gone.
    await eventually(async () => (await second.admin(['HEXISTS', 'r:fields', 'short'])) === 0);
    await eventually(async () => (await second.admin(['EXISTS', 'r:fields:all'])) === 0);
    expect(await after('HGETALL', 'r:fields')).toEqual({ result: ['keep', 'k', 'long', 'l'] });
  });
});
