// Every bridge procedure that makes main write a file, seen from the page: calls over the real browser
// host's WebSocket, as an untrusted page could send them. The page never chooses where main writes — no
// path, no `../`, no served folder — and nothing the host serves over HTTP ever holds a token.
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { CallResult, ServerFrame } from '../../shared/bridge/frames';
import { emptyComposer } from '../../shared/composer/model';
import { rawHttp } from '../../shared/testing/raw-http';
import { useTempDirs } from '../../shared/testing/temp-dir';
import { startTestHost, type TestHost } from './test-host';

const TOKEN = 'tok-PROD-0123456789abcdef';
const posix = process.platform !== 'win32';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** The page's side of the bridge: a socket opened as the console's own page opens it. */
async function pageBridge(started: TestHost) {
  const { host } = started;
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?secret=${host.secret}`, {
    headers: { Origin: host.origin },
  });
  cleanups.push(async () => ws.terminate());
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const call = (name: string, input: unknown) =>
    new Promise<CallResult>((resolve) => {
      const id = next++;
      const onMessage = (data: WebSocket.RawData) => {
        const frame = JSON.parse(String(data)) as ServerFrame;
        if (frame.type === 'result' && frame.id === id) {
          ws.off('message', onMessage);
          resolve(frame);
        }
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ type: 'call', id, name, input }));
    });
  return { call };
}

/** Every file under `dir` (relative paths), links included as they are. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (lstatSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

describe('files main writes at the page’s request (browser host)', () => {
  const tempDir = useTempDirs();

  async function start(options: { dataDir?: string } = {}) {
    const dir = tempDir();
    const started = await startTestHost(dir, options);
    cleanups.push(() => started.close());
    const bridge = await pageBridge(started);
    const created = await bridge.call('profiles.create', {
      settings: {
        name: 'Prod',
        env: 'prod',
        messagesUrl: 'https://qstash.example.com',
        kvUrl: '',
        readOnly: false,
        confirmDangerous: true,
      },
      secrets: { messageToken: TOKEN },
    });
    if (!created.ok) throw new Error(created.error.message);
    const profileId = (created.value as { id: string }).id;
    const rendererDir = join(dir, 'renderer');
    /** Every file the host serves, fetched over HTTP: none may hold the token. */
    const expectNothingServedHoldsToken = async () => {
      for (const file of tree(rendererDir)) {
        const res = await rawHttp(started.host.port, `/${file.split('\\').join('/')}`);
        expect(res.body, file).not.toContain(TOKEN);
      }
    };
    return { dir, rendererDir, bridge, profileId, started, expectNothingServedHoldsToken };
  }

  const webhook = (profileId: string, to: unknown) => ({
    profileId,
    model: emptyComposer({ url: 'https://example.com/hook' }),
    to,
  });
  const curl = (profileId: string, to: unknown) => ({
    profileId,
    model: emptyComposer({ url: 'https://example.com/hook' }),
    to,
  });

  it('refuses every path the page names, for every procedure, and writes nothing anywhere', async () => {
    const { dir, rendererDir, bridge, profileId, expectNothingServedHoldsToken } = await start();
    const before = tree(dir);
    const paths = [
      join(rendererDir, 'leak.txt'),
      join(rendererDir, 'assets', 'leak.js'),
      join(dir, 'data', 'exports', '..', '..', 'renderer', 'leak.txt'),
      '../renderer/leak.txt',
      '~/leak.txt',
      join(dir, 'anywhere.txt'),
    ];
    for (const path of paths) {
      for (const [name, input] of [
        ['messages.composer.copyWebhookUrl', webhook(profileId, { kind: 'file', path })],
        ['messages.composer.copyCurl', curl(profileId, { kind: 'file', path })],
        ['profiles.copyLocalEnv', { to: { kind: 'file', path } }],
        ['kv.monitor.export', { lines: [TOKEN], format: 'text', path }],
      ] as const) {
        const result = await bridge.call(name, input);
        expect(result, `${name} ${path}`).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      }
    }
    expect(tree(dir)).toEqual(before);
    await expectNothingServedHoldsToken();
  });

  it('refuses every suggested name that is not a plain file name', async () => {
    const { dir, bridge, profileId } = await start();
    const before = tree(dir);
    const names = [
      '../leak.txt',
      '../../renderer/leak.txt',
      '..',
      '.',
      'assets/leak.js',
      '/etc/leak',
      '..\\..\\renderer\\leak.txt',
      'C:leak',
      'leak\u0000.txt',
      '',
      ' leak.txt',
      'x'.repeat(201),
    ];
    for (const suggestedName of names) {
      for (const [name, input] of [
        ['messages.composer.copyWebhookUrl', webhook(profileId, { kind: 'file', suggestedName })],
        ['messages.composer.copyCurl', curl(profileId, { kind: 'file', suggestedName })],
        ['profiles.copyLocalEnv', { to: { kind: 'file', suggestedName } }],
        ['kv.monitor.export', { lines: ['x'], format: 'text', suggestedName }],
      ] as const) {
        const result = await bridge.call(name, input);
        expect(result, `${name} ${JSON.stringify(suggestedName)}`).toMatchObject({
          ok: false,
          error: { code: 'INVALID_INPUT' },
        });
      }
    }
    expect(tree(dir)).toEqual(before);
  });

  it('writes into the private exports folder: 0700, files 0600, never over a file, and not over HTTP', async () => {
    const { dir, rendererDir, bridge, profileId, started, expectNothingServedHoldsToken } = await start();
    const exportsDir = realpathSync(join(dir, 'data')) + '/exports';
    const info = await bridge.call('app.info', {});
    expect(info).toMatchObject({
      ok: true,
      value: { fileSaving: { kind: 'folder', folder: join(dir, 'data', 'exports') } },
    });

    const first = await bridge.call('messages.composer.copyWebhookUrl', webhook(profileId, { kind: 'file' }));
    const named = await bridge.call(
      'messages.composer.copyWebhookUrl',
      webhook(profileId, { kind: 'file', suggestedName: 'index.html' }),
    );
    const again = await bridge.call(
      'messages.composer.copyWebhookUrl',
      webhook(profileId, { kind: 'file', suggestedName: 'index.html' }),
    );
    const curlFile = await bridge.call('messages.composer.copyCurl', curl(profileId, { kind: 'file' }));
    const monitor = await bridge.call('kv.monitor.export', { lines: ['"SET" "a" "1"'], format: 'text' });
    const paths = [first, named, again, curlFile, monitor].map((result) => {
      expect(result.ok, JSON.stringify(result)).toBe(true);
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      return (result as { value: { path: string } }).value.path;
    });
    expect(paths).toEqual([
      join(exportsDir, 'switchyard-intake-url.txt'),
      join(exportsDir, 'index.html'),
      join(exportsDir, 'index-2.html'),
      join(exportsDir, 'switchyard-curl.sh'),
      expect.stringMatching(new RegExp(`^${exportsDir}/kv-monitor-.*\\.log$`)),
    ]);
    for (const path of paths.slice(0, 4)) expect(readFileSync(path, 'utf8')).toContain(TOKEN);
    if (posix) {
      expect(statSync(exportsDir).mode & 0o777).toBe(0o700);
      for (const path of paths) expect(statSync(path).mode & 0o777).toBe(0o600);
    }

    // Nothing under the served folder changed, nothing served holds the token, and no URL reaches the exports.
    expect(tree(rendererDir)).toEqual(['assets/app.js', 'index.html']);
    await expectNothingServedHoldsToken();
    for (const url of [
      '/index.html',
      '/../data/exports/index.html',
      '/%2e%2e/data/exports/switchyard-intake-url.txt',
      '/assets/..%2f..%2fdata%2fexports%2fswitchyard-intake-url.txt',
      '/data/exports/switchyard-intake-url.txt',
    ]) {
      expect((await rawHttp(started.host.port, url)).body, url).not.toContain(TOKEN);
    }
  });

  it('writes nothing when the exports folder would be inside the served folder', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'renderer', 'data');
    mkdirSync(dataDir, { recursive: true });
    const started = await startTestHost(dir, { dataDir });
    cleanups.push(() => started.close());
    const bridge = await pageBridge(started);
    const result = await bridge.call('kv.monitor.export', { lines: [TOKEN], format: 'text' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'NOT_CONFIGURED', message: expect.stringContaining('serves over HTTP') },
    });
    expect(tree(dataDir).filter((file) => file.startsWith('exports'))).toEqual([]);
  });
});
