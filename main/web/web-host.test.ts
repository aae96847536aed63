import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerFrame } from '../../shared/bridge/frames';
import { rawHttp } from '../../shared/testing/raw-http';
import { useTempDirs } from '../../shared/testing/temp-dir';
import { startTestHost, type TestHost } from './test-host';
import type { WebHost } from './web-host';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe('browser host', () => {
  const tempDir = useTempDirs();

  async function start(): Promise<TestHost> {
    const started = await startTestHost(tempDir());
    cleanups.push(() => started.close());
    return started;
  }

  /** Opens a socket with the given headers; resolves 'open' or the HTTP status of the refusal. */
  function connect(
    url: string,
    headers: Record<string, string>,
  ): Promise<{ ws?: WebSocket; refused?: number }> {
    return new Promise((resolve) => {
      const ws = new WebSocket(url, { headers });
      ws.on('open', () => resolve({ ws }));
      ws.on('unexpected-response', (_req, res) => resolve({ refused: res.statusCode }));
      ws.on('error', () => resolve({ refused: -1 }));
      cleanups.push(async () => ws.terminate());
    });
  }

  function socketUrl(host: WebHost, secret: string | null = host.secret): string {
    return `ws://127.0.0.1:${host.port}/bridge${secret === null ? '' : `?secret=${secret}`}`;
  }

  it('prints a loopback URL carrying the secret in its fragment', async () => {
    const { host } = await start();
    expect(host.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/#secret=[A-Za-z0-9_-]{32}$`));
  });

  it('accepts the console’s own page and answers calls', async () => {
    const { host } = await start();
    const { ws } = await connect(socketUrl(host), { Origin: host.origin });
    expect(ws).toBeDefined();
    const reply = new Promise<ServerFrame>((resolve) =>
      ws!.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    ws!.send(JSON.stringify({ type: 'call', id: 1, name: 'app.info', input: {} }));
    expect(await reply).toMatchObject({ type: 'result', id: 1, ok: true, value: { host: 'browser' } });
  });

  it('refuses a socket without the secret or with a wrong one', async () => {
    const { host } = await start();
    expect(await connect(socketUrl(host, null), { Origin: host.origin })).toEqual({ refused: 403 });
    expect(await connect(socketUrl(host, 'x'.repeat(32)), { Origin: host.origin })).toEqual({ refused: 403 });
  });

  it('refuses a secret given more than once, whichever comes first', async () => {
    const { host } = await start();
    const base = `ws://127.0.0.1:${host.port}/bridge`;
    const wrong = 'x'.repeat(host.secret.length);
    for (const query of [
      `?secret=${host.secret}&secret=${wrong}`,
      `?secret=${wrong}&secret=${host.secret}`,
      `?secret=${host.secret}&secret=${host.secret}`,
      `?secret=${host.secret}&secret=`,
    ]) {
      expect(await connect(`${base}${query}`, { Origin: host.origin }), query).toEqual({ refused: 403 });
    }
    // One value, the right one, still opens it.
    const { ws } = await connect(`${base}?secret=${host.secret}`, { Origin: host.origin });
    expect(ws).toBeDefined();
  });

  it('refuses a foreign Origin (another site’s page in the same browser)', async () => {
    const { host } = await start();
    expect(await connect(socketUrl(host), { Origin: 'https://evil.example' })).toEqual({ refused: 403 });
    expect(await connect(socketUrl(host), { Origin: `http://127.0.0.1:${host.port + 1}` })).toEqual({
      refused: 403,
    });
    expect(await connect(socketUrl(host), {})).toEqual({ refused: 403 });
  });

  it('refuses a Host that is not the loopback address and port (DNS rebinding)', async () => {
    const { host } = await start();
    expect(
      await connect(socketUrl(host), { Origin: host.origin, Host: `evil.example:${host.port}` }),
    ).toEqual({ refused: 403 });
    expect(await connect(socketUrl(host), { Origin: host.origin, Host: `127.0.0.1:1` })).toEqual({
      refused: 403,
    });
  });

  it('stops a connection’s streams when its socket closes', async () => {
    const { host, core } = await start();
    const { ws } = await connect(socketUrl(host), { Origin: host.origin });
    const firstBatch = new Promise<ServerFrame>((resolve) =>
      ws!.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    ws!.send(JSON.stringify({ type: 'open', id: 5, name: 'stack.watch', input: {} }));
    expect(await firstBatch).toMatchObject({ type: 'events', id: 5 });
    expect(core.stack.listenerCount('change')).toBe(1);
    ws!.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(core.stack.listenerCount('change')).toBe(0);
  });

  it('closes a socket that sends something other than bridge frames', async () => {
    const { host } = await start();
    const { ws } = await connect(socketUrl(host), { Origin: host.origin });
    const closed = new Promise<number>((resolve) => ws!.once('close', (code) => resolve(code)));
    ws!.send('not json');
    expect(await closed).toBe(1003);
  });

  it('serves the renderer with a strict CSP and nothing outside its folder', async () => {
    const { host } = await start();
    const get = async (path: string) => {
      const { status, headers, body } = await rawHttp(host.port, path);
      return { status, csp: headers['content-security-policy'], body };
    };
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.csp).toContain("script-src 'self'");
    expect(index.csp).not.toContain('unsafe-eval');
    expect((await get('/assets/app.js')).status).toBe(200);
    for (const path of ['/../outside.txt', '/%2e%2e/outside.txt', '/assets/..%2f..%2foutside.txt']) {
      const res = await get(path);
      expect(res.body, path).not.toContain('must not be served');
    }
  });
});
