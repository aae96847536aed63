// The per-turn start of request handlers (issue 18 item 4: a burst must not hold the event loop): the rule on
// its own, then a real burst over loopback against createHttpService.
import { once } from 'node:events';
import type http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { perTurn } from './per-turn';
import { closeServer, HANDLERS_PER_TURN, Router } from './server';
import { serveRouter } from './test-service';

/** Resolves in the next check phase, after the check-phase callbacks queued before it. */
const checkPhase = (): Promise<void> => new Promise((done) => setImmediate(done));

describe('perTurn', () => {
  it('starts a handler at once while the turn has room', () => {
    const admit = perTurn(4);
    const started: number[] = [];
    for (let i = 0; i < 3; i++) admit(() => started.push(i));
    expect(started).toEqual([0, 1, 2]);
  });

  it('starts the rest of a burst a turn-sized batch per turn, in arrival order', async () => {
    const admit = perTurn(4);
    const started: number[] = [];
    for (let i = 0; i < 10; i++) admit(() => started.push(i));
    // The poll phase used the whole turn's budget.
    expect(started).toEqual([0, 1, 2, 3]);
    await checkPhase();
    expect(started).toHaveLength(4);
    await checkPhase();
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await checkPhase();
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('keeps arrivals behind the ones already waiting', async () => {
    const admit = perTurn(2);
    const started: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) admit(() => started.push(name));
    await checkPhase();
    admit(() => started.push('late'));
    expect(started).toEqual(['a', 'b']);
    await checkPhase();
    await checkPhase();
    expect(started).toEqual(['a', 'b', 'c', 'd', 'late']);
  });
});

describe('a burst against createHttpService', () => {
  const BURST = 300;
  let server: http.Server;
  let port: number;
  /** Handler starts in each turn of the event loop, counted from one check phase to the next. */
  const startsPerTurn = new Map<number, number>();
  let turn = 0;
  let ticking = true;
  const tick = (): void => {
    turn++;
    if (ticking) setImmediate(tick);
  };

  beforeAll(async () => {
    const router = new Router().add('POST', '/work', async (ctx) => {
      startsPerTurn.set(turn, (startsPerTurn.get(turn) ?? 0) + 1);
      return { status: 200, body: { echo: (await ctx.body()).toString() } };
    });
    ({ server, port } = await serveRouter(router));
  });

  afterAll(() => {
    ticking = false;
    return closeServer(server, 0);
  });

  /** An open connection, and the whole answer the server sends on it before closing it. */
  async function connection(): Promise<{ socket: net.Socket; answer: Promise<string> }> {
    const socket = net.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const answer = once(socket, 'end').then(() => Buffer.concat(chunks).toString());
    return { socket, answer };
  }

  it('starts at most HANDLERS_PER_TURN handlers in one turn, and answers every request', async () => {
    let accepted = 0;
    const allAccepted = new Promise<void>((done) =>
      server.on('connection', () => {
        if (++accepted === BURST) done();
      }),
    );
    const connections = await Promise.all(Array.from({ length: BURST }, connection));
    await allAccepted;
    setImmediate(tick);
    // Every request written in one go: the server's next poll phase finds all of them readable at once.
    connections.forEach(({ socket }, i) => {
      const body = `#${i}`;
      socket.write(
        `POST /work HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
    });
    const answers = await Promise.all(connections.map(({ answer }) => answer));
    answers.forEach((answer, i) => {
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(answer.endsWith(JSON.stringify({ echo: `#${i}` }))).toBe(true);
    });
    expect([...startsPerTurn.values()].reduce((sum, count) => sum + count, 0)).toBe(BURST);
    expect(Math.max(...startsPerTurn.values())).toBeLessThanOrEqual(HANDLERS_PER_TURN);
  });
});
