// The floor of an HTTP-in / HTTP-out message service, for `bench messages` (issue 26).
//
// Issue 26 asks the stack for a CPU per message of at most 0.67 × BullMQ's and 1.5 × its throughput, and names
// the physical floor of a message: two loopback HTTP exchanges and one batched SQLite write. This relay is that
// floor and nothing more, run as its own process as the stack is: it answers each publish once the message
// is in a group-committed SQLite insert (WAL, synchronous NORMAL — the stack's default durability), then posts
// the body to the destination in the path with undici's Agent (the stack's delivery client, with the same
// connection cap). No signature, no logs or events, no retries, no callbacks, no auth.
//
// Measured in the same rounds as the stack and BullMQ, it tells how much of the stack's cost is the design's
// floor on this machine, and whether a target is reachable by any server of this shape built on Node's http and
// undici.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent } from 'undici';
import { CONNECTIONS_PER_ORIGIN } from '../../stack/messages/delivery';

/** The argument that makes `bench messages` run this relay instead of the benchmark. */
export const RELAY_FLOOR_ARG = '--relay-floor';

/** Prints `{"url": …}` once listening; serves until SIGTERM. */
export async function runRelayFloor(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-relay-floor-'));
  const db = new Database(join(dir, 'relay.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE messages (seq INTEGER PRIMARY KEY, id TEXT NOT NULL, url TEXT NOT NULL, body BLOB)');
  const insert = db.prepare('INSERT INTO messages (id, url, body) VALUES (?, ?, ?)');

  // Group commit: every publish of one event-loop turn goes into one transaction, answered after it.
  type Pending = { id: string; url: string; body: Buffer; stored: () => void };
  let pending: Pending[] = [];
  const commit = db.transaction((batch: Pending[]) => {
    for (const message of batch) insert.run(message.id, message.url, message.body);
  });
  const store = (message: Pending): void => {
    // The first message of a turn schedules the turn's commit; the others join it.
    if (pending.push(message) > 1) return;
    setImmediate(() => {
      const batch = pending;
      pending = [];
      commit(batch);
      for (const message of batch) message.stored();
    });
  };

  const agent = new Agent({
    connections: CONNECTIONS_PER_ORIGIN,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
  });
  const deliver = (destination: URL, id: string, body: Buffer): void => {
    agent.dispatch(
      {
        origin: destination.origin,
        path: destination.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'upstash-message-id': id },
        body,
      },
      {
        onConnect: () => undefined,
        onHeaders: () => true,
        onData: () => true,
        onComplete: () => undefined,
        onError: (error) => console.error(`relay floor: delivery failed: ${error.message}`),
      },
    );
  };

  let sequence = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = (req.url ?? '').replace(/^\/v2\/publish\//, '');
      const id = `msg_${++sequence}`;
      const body = Buffer.concat(chunks);
      store({
        id,
        url,
        body,
        stored: () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ messageId: id }));
          deliver(new URL(url), id, body);
        },
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
  server.closeAllConnections();
  server.close();
  await agent.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
