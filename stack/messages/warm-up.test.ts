// The warm-up before the ready line (stack/warm-up.ts) publishes and delivers real messages, on a scratch
// database and a private port. These tests hold it to its guarantee: the real database is byte for byte what
// it was, nothing of the rehearsal is left (rows, scratch files, engine state, logs), and a publish sent the
// moment the real port accepts connections is kept and delivered.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../kv/redis-server';
import { spawnStack, type StackProcess } from '../test-process';
import { SCRATCH_DB } from '../warm-up';
import { DEV_TOKEN, eventually, startSink, startTestStack, tempDir, type Sink } from './test-support';

let sink: Sink;

beforeAll(async () => {
  sink = await startSink();
});

afterAll(async () => {
  await sink?.close();
});

/** Every row of every table of the stack's database, read on a connection of its own. */
function snapshot(dataDir: string): Record<string, unknown[]> {
  const db = new Database(join(dataDir, 'stack.db'), { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all() as string[];
    const rows: Record<string, unknown[]> = {};
    for (const table of tables) {
      rows[table] = db
        .prepare(`SELECT * FROM "${table}"`)
        .all()
        .map((row) => JSON.stringify(row))
        .sort();
    }
    return rows;
  } finally {
    db.close();
  }
}

describe('in process', () => {
  it('rehearses real publishes yet leaves the real database and service exactly as they were', async () => {
    // A data dir with history: delivered messages, their log events, a queue.
    const before = await startTestStack({ kv: false });
    for (let i = 0; i < 3; i++) {
      expect(
        (await before.api('POST', `/v2/publish/${sink.url}/history-${i}`, { body: `${i}` })).status,
      ).toBe(200);
    }
    expect(
      (await before.api('POST', '/v2/queues', { body: '{"queueName":"kept","parallelism":2}' })).status,
    ).toBe(200);
    await sink.waitFor(3, { match: (r) => r.url.startsWith('/history-') });
    await eventually(async () => {
      const events = (await before.api('GET', '/v2/events')).json.events as { state: string }[];
      return events.filter((event) => event.state === 'DELIVERED').length === 3;
    }, 'three DELIVERED events');
    await before.close(false);
    const stored = snapshot(before.dataDir);
    expect(stored.messages).toHaveLength(3);

    const stack = await before.restart({ warmUp: true });
    try {
      // The rehearsal did run (and published through the real code paths) …
      expect(stack.stack.warmUp?.published).toBeGreaterThanOrEqual(50);
      expect(stack.stack.warmUp?.delivered).toBe(stack.stack.warmUp?.published);
      // … yet no row, sequence or setting of the real database changed, and its scratch files are gone.
      expect(snapshot(stack.dataDir)).toEqual(stored);
      expect(readdirSync(stack.dataDir).filter((name) => name.startsWith(SCRATCH_DB))).toEqual([]);
      expect(stack.stack.messages.engine.stats()).toEqual({ pending: 0, inflight: 0, scheduled: 0 });
      // The stats and list endpoints say the same.
      expect((await stack.api('GET', '/v2/events')).json.events).toHaveLength(stored.events?.length ?? -1);
      expect((await stack.api('GET', '/v2/dlq')).json.messages).toEqual([]);
      expect((await stack.api('GET', '/v2/queues')).json.map((q: { name: string }) => q.name)).toEqual([
        'kept',
      ]);
      expect((await stack.api('GET', '/v2/workflows/logs')).json.runs).toEqual([]);
      expect(sink.received.filter((r) => r.url.includes('warm-up'))).toEqual([]);

      const published = await stack.api('POST', `/v2/publish/${sink.url}/after-warm-up`, { body: 'hi' });
      expect(published.status).toBe(200);
      await sink.waitFor(1, { match: (r) => r.url === '/after-warm-up' });
    } finally {
      await stack.close();
    }
  });

  it('removes a scratch database left by a stack that died during its warm-up', async () => {
    const dataDir = tempDir();
    const stale = new Database(join(dataDir, SCRATCH_DB));
    stale.exec('CREATE TABLE leftover (x)');
    stale.close();
    const stack = await startTestStack({ kv: false, warmUp: true, dataDir });
    try {
      expect(existsSync(join(dataDir, SCRATCH_DB))).toBe(false);
      expect(stack.stack.warmUp?.published).toBeGreaterThan(0);
    } finally {
      await stack.close();
    }
  });
});

describe('the stack process', () => {
  const processes: StackProcess[] = [];
  const dirs: string[] = [];

  afterAll(async () => {
    await Promise.all(processes.map((proc) => proc.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** Resolves once something accepts TCP connections on the port (refused until the stack listens). */
  async function accepting(port: number, proc: StackProcess): Promise<void> {
    for (;;) {
      const connected = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (connected) return;
      if (proc.child.exitCode !== null) throw new Error(`the stack exited:\n${proc.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  it('keeps and delivers a publish sent the moment the port accepts connections', async () => {
    const dataDir = tempDir('switchyard-warm-up-');
    dirs.push(dataDir);
    const port = await freePort();
    const args = ['--port', String(port), '--kv-port', '0', '--data-dir', dataDir, '--log-level', 'info'];
    const proc = spawnStack(args, { timeoutMs: 30_000 });
    processes.push(proc);
    await accepting(port, proc);
    const response = await fetch(`http://127.0.0.1:${port}/v2/publish/${sink.url}/first-in`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}` },
      body: 'first',
    });
    expect(response.status).toBe(200);
    const { messageId } = (await response.json()) as { messageId: string };
    await proc.ready;
    // The warm-up ran in this process, before the port listened.
    expect(proc.stderr()).toMatch(/"published":[1-9]\d*.*warm-up rehearsed on a scratch database/);
    const [delivered] = await sink.waitFor(1, { match: (r) => r.url === '/first-in' });
    expect(delivered?.body.toString()).toBe('first');
    const deliveredEvents = async (url: string): Promise<unknown[]> => {
      const logs = await fetch(`${url}/v2/logs?messageId=${messageId}&state=DELIVERED`, {
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
      });
      return ((await logs.json()) as { events: unknown[] }).events;
    };
    await eventually(
      async () => (await deliveredEvents(`http://127.0.0.1:${port}`)).length === 1,
      'the DELIVERED event',
    );

    // Durable: after a kill -9, the same data dir still has the message, delivered.
    proc.child.kill('SIGKILL');
    await proc.exit;
    const again = spawnStack(['--port', '0', '--kv-port', '0', '--data-dir', dataDir], { timeoutMs: 30_000 });
    processes.push(again);
    const ready = await again.ready;
    expect(await deliveredEvents(ready.messages.url)).toHaveLength(1);
    expect(sink.received.filter((r) => r.url === '/first-in')).toHaveLength(1);
  });
});
