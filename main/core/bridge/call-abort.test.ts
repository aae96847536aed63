// A call the renderer stops waiting for: its HTTP request to the service is aborted in main (a service that
// hangs does not keep a connection and a handler busy until the 30 s timeout), and no answer is sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call } from '../../../shared/bridge/define';
import { serviceRequest } from '../http/service-http';
import { testSession } from '../testing/bridge-session';

/** A service that never answers; it tells when a request's connection was closed by the caller. */
async function hangingService() {
  const arrived: (() => void)[] = [];
  const closed: (() => void)[] = [];
  let requests = 0;
  let aborted = 0;
  const server = http.createServer((req) => {
    requests += 1;
    arrived.splice(0).forEach((resolve) => resolve());
    req.socket.on('close', () => {
      aborted += 1;
      closed.splice(0).forEach((resolve) => resolve());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`,
    get aborted() {
      return aborted;
    },
    arrived: () => new Promise<void>((resolve) => (requests > 0 ? resolve() : arrived.push(resolve))),
    closed: () => new Promise<void>((resolve) => (aborted > 0 ? resolve() : closed.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setup() {
  const service = await hangingService();
  cleanups.push(service.close);
  const { session, frames } = testSession(
    { 'test.fetch': call<number>()(z.object({})) },
    { 'test.fetch': async () => (await serviceRequest({ url: service.url })).status },
  );
  return { service, session, frames };
}

describe('a call the renderer stops waiting for', () => {
  it('aborts its HTTP request on close and sends no result', async () => {
    const { service, session, frames } = await setup();
    const answered = session.receive({ type: 'call', id: 7, name: 'test.fetch', input: {} });
    await service.arrived();
    expect(service.aborted).toBe(0);
    session.close(7);
    await service.closed();
    await answered;
    expect(service.aborted).toBe(1);
    expect(frames).toEqual([]);
  });

  it('aborts the requests of every call in flight when the connection goes away', async () => {
    const { service, session, frames } = await setup();
    const answered = session.receive({ type: 'call', id: 1, name: 'test.fetch', input: {} });
    await service.arrived();
    session.dispose();
    await service.closed();
    await answered;
    expect(frames).toEqual([]);
  });

  it('leaves other calls alone: closing an id that is not a call in flight aborts nothing', async () => {
    const { service, session } = await setup();
    const answered = session.call('test.fetch', {}, 3);
    await service.arrived();
    session.close(4);
    // The hung call is still waiting; ending the connection is what stops it here.
    expect(service.aborted).toBe(0);
    session.dispose();
    expect(await answered).toBeUndefined();
  });
});
