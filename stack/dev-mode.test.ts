// The vendor SDK in dev mode (QSTASH_DEV=true) adopts a stack on port 8080: its health check (GET /v2/keys
// with the dev token) passes, so it never tries to download the vendor's dev server, and its Receiver (which
// uses the hard-coded dev keys) verifies our deliveries. The only test that uses port 8080.
import { rmSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startSink, tempDir, type Sink } from './messages/test-support';
import { spawnStack, type StackProcess } from './test-process';

const PORT = 8080;
let proc: StackProcess | undefined;
let sink: Sink;
const dataDir = tempDir('switchyard-devmode-');
const saved = {
  QSTASH_DEV: process.env.QSTASH_DEV,
  QSTASH_DEV_PORT: process.env.QSTASH_DEV_PORT,
  NODE_ENV: process.env.NODE_ENV,
};

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

beforeAll(async () => {
  if (!(await portIsFree(PORT))) {
    throw new Error(
      `port ${PORT} on 127.0.0.1 is already in use; this test needs it (the SDK's dev mode only looks there). ` +
        'Stop whatever listens on it and run the test again.',
    );
  }
  proc = spawnStack(['--port', String(PORT), '--kv-port', '0', '--data-dir', dataDir]);
  await proc.ready;
  sink = await startSink();
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await proc?.stop();
  await sink?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('is adopted by @upstash/qstash with QSTASH_DEV=true, without any download', async () => {
  process.env.QSTASH_DEV = 'true';
  delete process.env.QSTASH_DEV_PORT;
  process.env.NODE_ENV = 'test';
  const log = vi.spyOn(console, 'log');
  try {
    const { Client, Receiver } = await import('@upstash/qstash');
    // No URL, token or keys given: dev mode supplies them and checks the server on 127.0.0.1:8080.
    const client = new Client({ retry: false });
    const result = await client.publishJSON({ url: `${sink.url}/dev`, body: { dev: true } });
    expect(result.messageId).toMatch(/^msg_/);
    const printed = log.mock.calls.map((call) => call.map(String).join(' ')).join('\n');
    expect(printed).toContain('Server already running at http://127.0.0.1:8080');
    expect(printed).not.toContain('Downloading');

    const [delivery] = await sink.waitFor(1);
    const receiver = new Receiver();
    await expect(
      receiver.verify({
        signature: delivery?.headers['upstash-signature'] as string,
        body: '{"dev":true}',
        url: `${sink.url}/dev`,
      }),
    ).resolves.toBe(true);
  } finally {
    log.mockRestore();
  }
});
