// The stack as a real process: its ready line, logs on stderr only, credentials, clean shutdown on signals,
// refusal of unsafe or conflicting starts, and the message service staying up when KV cannot start.
import { existsSync, rmSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { DEV_TOKEN, startSink, tempDir } from './messages/test-support';
import { CLI, freePort, spawnStack, type StackProcess } from './test-process';

const running: StackProcess[] = [];
const dirs: string[] = [];

function start(args: string[]): StackProcess {
  const proc = spawnStack(args);
  running.push(proc);
  return proc;
}

function dir(): string {
  const path = tempDir('switchyard-cli-');
  dirs.push(path);
  return path;
}

/** Publishes `body` through the running process's message API to a fresh sink and waits for it there. */
async function expectDelivery(messages: { url: string; token: string }, path: string, body: string) {
  const sink = await startSink();
  try {
    const response = await fetch(`${messages.url}/v2/publish/${sink.url}/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${messages.token}` },
      body,
    });
    expect(response.status).toBe(200);
    const [delivery] = await sink.waitFor(1);
    expect(delivery?.body.toString()).toBe(body);
  } finally {
    await sink.close();
  }
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((proc) => proc.stop()));
  for (const path of dirs.splice(0)) rmSync(path, { recursive: true, force: true });
});

describe('npm run stack', () => {
  it('prints one ready line with URLs, dev credentials and the data dir; logs JSON to stderr; stops on SIGTERM', async () => {
    const dataDir = dir();
    const proc = start(['--port', '0', '--kv-port', '0', '--data-dir', dataDir]);
    const ready = await proc.ready;
    expect(proc.stdoutLines[0]?.startsWith('{"ready":true')).toBe(true);
    expect(ready).toMatchObject({
      ready: true,
      messages: {
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
        token: DEV_TOKEN,
        currentSigningKey: 'sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r',
        nextSigningKey: 'sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs',
      },
      dataDir,
    });
    expect('url' in ready.kv || 'error' in ready.kv).toBe(true);
    expect(existsSync(join(dataDir, 'stack.db'))).toBe(true);

    await expectDelivery(ready.messages, 'via-cli', 'from the process');

    const { code } = await proc.stop();
    expect(code).toBe(0);
    expect(proc.stdoutLines.filter((line) => line !== '')).toHaveLength(1);
    const logLines = proc.stderr().trim().split('\n');
    expect(logLines.length).toBeGreaterThan(2);
    for (const line of logLines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(proc.stderr()).toContain('"msg":"stopped"');
    expect(existsSync(join(dataDir, 'stack.lock'))).toBe(false);
  });

  it('stops cleanly on SIGINT too', async () => {
    const proc = start(['--port', '0', '--kv-port', '0', '--data-dir', dir()]);
    await proc.ready;
    proc.child.kill('SIGINT');
    expect((await proc.exit).code).toBe(0);
  });

  it('generates, persists and reuses random credentials', async () => {
    const dataDir = dir();
    const first = start(['--port', '0', '--kv-port', '0', '--data-dir', dataDir, '--random-credentials']);
    const ready = await first.ready;
    expect(ready.messages.token).not.toBe(DEV_TOKEN);
    const decoded = JSON.parse(Buffer.from(ready.messages.token, 'base64').toString()) as Record<
      string,
      string
    >;
    expect(Object.keys(decoded)).toEqual(['UserID', 'Password']);
    expect(ready.messages.currentSigningKey).toMatch(/^sig_\w{20,}$/);
    expect(ready.messages.currentSigningKey).not.toBe('sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r');
    const unauthorized = await fetch(`${ready.messages.url}/v2/keys`, {
      headers: { authorization: `Bearer ${DEV_TOKEN}` },
    });
    expect(unauthorized.status).toBe(401);
    await first.stop();

    const second = start(['--port', '0', '--kv-port', '0', '--data-dir', dataDir, '--random-credentials']);
    expect((await second.ready).messages).toMatchObject({
      token: ready.messages.token,
      currentSigningKey: ready.messages.currentSigningKey,
    });
    await second.stop();

    const third = start(['--port', '0', '--kv-port', '0', '--data-dir', dataDir]);
    expect((await third.ready).messages.token).toBe(DEV_TOKEN);
  });

  it('refuses a non-loopback host with the well-known credentials', async () => {
    const proc = start(['--host', '0.0.0.0', '--port', '0', '--kv-port', '0', '--data-dir', dir()]);
    const { code } = await proc.exit;
    expect(code).toBe(2);
    expect(proc.stderr()).toContain('refusing to bind 0.0.0.0 with the well-known dev credentials');
    expect(proc.stderr()).toContain('--random-credentials');
    expect(proc.stdoutLines).toEqual([]);
  });

  it('refuses a second stack on the same data dir', async () => {
    const dataDir = dir();
    const first = start(['--port', '0', '--kv-port', '0', '--data-dir', dataDir]);
    await first.ready;
    const second = start(['--port', '0', '--kv-port', '0', '--data-dir', dataDir]);
    expect((await second.exit).code).toBe(2);
    expect(second.stderr()).toMatch(/another stack \(pid \d+\) is using the data dir/);
  });

  it('names the process holding its port and suggests --port 0 (issue 19 item 10)', async () => {
    const server = net.createServer();
    const port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
    );
    try {
      const proc = start(['--port', String(port), '--kv-port', '0', '--data-dir', dir()]);
      expect((await proc.exit).code).toBe(2);
      const said = proc.stderr().trim().split('\n').pop();
      expect(said).toContain(`stack: port ${port} is already in use by pid ${process.pid} (`);
      expect(said).toContain('npm run stack -- --port 0 --kv-port 0');
      expect(proc.stdoutLines).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('on the port of a running stack, says so and prints its URLs', async () => {
    // Fixed ports, as the console's own stack has (8080 and 8079).
    const [port, kvPort] = [await freePort(), await freePort()];
    const first = start(['--port', String(port), '--kv-port', String(kvPort), '--data-dir', dir()]);
    await first.ready;
    const second = start(['--port', String(port), '--kv-port', '0', '--data-dir', dir()]);
    expect((await second.exit).code).toBe(2);
    expect(second.stderr()).toContain(
      `stack: port ${port} is already in use by another Switchyard local stack (pid ${first.child.pid}): ` +
        `use it — messages and workflows at http://127.0.0.1:${port}, KV at http://127.0.0.1:${kvPort}`,
    );
    expect(second.stderr()).toContain('--port 0 --kv-port 0');
  });

  it('refuses unknown or malformed flags with the usage', async () => {
    for (const args of [
      ['--bogus'],
      ['--port', 'abc'],
      ['--max-body', 'huge'],
      ['--backoff-factor', '-1'],
      ['--port'],
    ]) {
      const proc = start(args);
      const { code } = await proc.exit;
      expect(code, args.join(' ')).toBe(2);
      expect(proc.stderr()).toContain('usage: npm run stack');
    }
  });

  it('keeps serving messages when KV cannot start, and says why in the ready line', async () => {
    const proc = start([
      '--port',
      '0',
      '--kv-port',
      '0',
      '--data-dir',
      dir(),
      '--redis-url',
      'redis://127.0.0.1:1',
    ]);
    const ready = await proc.ready;
    expect(ready.kv).toEqual({ error: expect.any(String) });
    const keys = await fetch(`${ready.messages.url}/v2/keys`, {
      headers: { authorization: `Bearer ${ready.messages.token}` },
    });
    expect(keys.status).toBe(200);
  });

  it('runs with --durability full (commits in the writer thread) and stops cleanly', async () => {
    const proc = start(['--port', '0', '--kv-port', '0', '--data-dir', dir(), '--durability', 'full']);
    const ready = await proc.ready;
    await expectDelivery(ready.messages, 'full', 'fsynced');
    expect((await proc.stop()).code).toBe(0);
  });

  it('honours --max-body', async () => {
    const proc = start(['--port', '0', '--kv-port', '0', '--data-dir', dir(), '--max-body', '1kb']);
    const ready = await proc.ready;
    const publish = (size: number) =>
      fetch(`${ready.messages.url}/v2/publish/http://127.0.0.1:1/x`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ready.messages.token}`, 'upstash-delay': '1d' },
        body: 'x'.repeat(size),
      });
    expect((await publish(1024)).status).toBe(200);
    const big = await publish(1025);
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'request body is larger than the limit of 1024 bytes' });
  });

  it('never starts a stack when loaded as a worker thread with an unknown role', async () => {
    const worker = new Worker(CLI, { workerData: { role: 'something-else' } });
    const error = await new Promise<Error>((resolve) => worker.once('error', resolve));
    expect(error.message).toContain("unknown role 'something-else'");
    await worker.terminate();
  });
});
