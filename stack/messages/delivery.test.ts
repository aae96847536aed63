// The HTTP transport against real servers on loopback: a burst to one destination reuses a bounded set of
// connections, and a destination that holds every one of its connections open does not hold up another.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTIONS_PER_ORIGIN, HttpTransport, type OutgoingRequest } from './delivery';

interface Destination {
  url: string;
  /** Distinct client sockets the server saw (by remote port). */
  connections: Set<number>;
  server: Server;
}

async function destination(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<Destination> {
  const connections = new Set<number>();
  const server = createServer((request, response) => {
    connections.add(request.socket.remotePort as number);
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, connections, server };
}

const post = (url: string): OutgoingRequest => ({
  url,
  method: 'POST',
  headers: { 'content-type': 'text/plain' },
  body: Buffer.from('hello'),
  timeoutMs: 30_000,
});

describe('HttpTransport', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  function track(transport: HttpTransport, ...servers: Destination[]): void {
    cleanups.push(async () => {
      await transport.close();
      for (const { server } of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }

  it(`delivers a burst to one origin over at most ${CONNECTIONS_PER_ORIGIN} connections`, async () => {
    const sink = await destination((_request, response) => response.end('ok'));
    const transport = new HttpTransport();
    track(transport, sink);

    const burst = 4 * CONNECTIONS_PER_ORIGIN;
    const responses = await Promise.all(Array.from({ length: burst }, () => transport.send(post(sink.url))));

    expect(responses.map((response) => response.status)).toEqual(Array(burst).fill(200));
    expect(responses.every((response) => response.body.toString() === 'ok')).toBe(true);
    expect(sink.connections.size).toBeGreaterThan(0);
    expect(sink.connections.size).toBeLessThanOrEqual(CONNECTIONS_PER_ORIGIN);
  });

  it('keeps delivering to other origins while one holds all its connections open', async () => {
    // The slow destination answers nothing until the test ends its responses; `untilHeld(n)` waits for the
    // n-th request it holds.
    const held: ServerResponse[] = [];
    const waiting: { count: number; resolve: () => void }[] = [];
    const untilHeld = (count: number): Promise<void> =>
      new Promise((resolve) => {
        waiting.push({ count, resolve });
        settle();
      });
    const settle = (): void => {
      for (const waiter of waiting.filter(({ count }) => held.length >= count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    const slow = await destination((_request, response) => {
      held.push(response);
      settle();
    });
    const fast = await destination((_request, response) => response.end('fast'));
    const transport = new HttpTransport();
    track(transport, slow, fast);

    // One more than the cap: the last one waits in the pool's queue for a connection.
    const slowSends = Array.from({ length: CONNECTIONS_PER_ORIGIN + 1 }, () =>
      transport.send(post(slow.url)),
    );
    await untilHeld(CONNECTIONS_PER_ORIGIN);

    const answer = await transport.send(post(fast.url));
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('fast');
    expect(held).toHaveLength(CONNECTIONS_PER_ORIGIN);

    // Freeing the held connections lets the queued delivery through on one of them.
    for (const response of held.splice(0)) response.end('late');
    await untilHeld(1);
    held[0]?.end('last');
    const slowAnswers = await Promise.all(slowSends);
    expect(slowAnswers.map((response) => response.status)).toEqual(
      Array(CONNECTIONS_PER_ORIGIN + 1).fill(200),
    );
    expect(slow.connections.size).toBe(CONNECTIONS_PER_ORIGIN);
  });
});
