// The least an HTTP layer in Node can cost a request on this machine: a keep-alive HTTP/1.1 responder on a
// bare node:net socket that finds each request's head, skips its Content-Length body and writes one fixed
// answer. It is a measuring stick for `bench kv` (issue 26), not a server: no chunked bodies, no header
// limits, no timeouts, every path answered alike. What node:http costs a request above this floor is the most
// that an HTTP layer of the project's own could save.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/** The answer the benches' no-op servers give: `{"result":"OK"}`, kept alive. */
const ANSWER = Buffer.from(
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\nKeep-Alive: timeout=60\r\n\r\n' +
    '{"result":"OK"}',
);

/**
 * How many whole requests `pending` holds, and how many of its bytes they take. A request is whole once its
 * head and its Content-Length body have arrived.
 */
export function wholeRequests(pending: Buffer): { count: number; bytes: number } {
  let count = 0;
  let at = 0;
  for (;;) {
    const headEnd = pending.indexOf(HEAD_END, at);
    if (headEnd === -1) break;
    const length = CONTENT_LENGTH.exec(pending.toString('latin1', at, headEnd + 2));
    const end = headEnd + HEAD_END.length + (length ? Number(length[1]) : 0);
    if (end > pending.length) break;
    count++;
    at = end;
  }
  return { count, bytes: at };
}

/**
 * A connection's reader: fed the socket's chunks, it keeps a partial request until the rest arrives and
 * hands `write` one buffer with an answer for each request that a chunk completed.
 */
export function answerRequests(write: (answers: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const { count, bytes } = wholeRequests(pending);
    if (count === 0) return;
    pending = pending.subarray(bytes);
    // One write a turn, as the answers of several pipelined requests would go out.
    write(count === 1 ? ANSWER : Buffer.concat(Array.from({ length: count }, () => ANSWER)));
  };
}

/** Listens on 127.0.0.1 until `close()`; every request is answered `{"result":"OK"}`, in order. */
export async function serveBareHttpFloor(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on(
      'data',
      answerRequests((answers) => socket.write(answers)),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
