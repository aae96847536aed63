// Routing with ctx.next(): a route that takes over a path for some requests hands the others on to the next
// route added for the same method and path (the workflow service's /v2/publish does this for the message
// service's), over real HTTP on loopback.
import type http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeServer, Router } from './server';
import { serveRouter } from './test-service';

let server: http.Server;
let url: string;

beforeAll(async () => {
  const router = new Router()
    // Takes the requests with ?mine=1; hands the rest on, and marks what it handed on.
    .add('POST', '/things/*', async (ctx) => {
      if (ctx.query.get('mine') === '1') return { status: 200, body: { by: 'first', rest: ctx.rest } };
      const reply = await ctx.next();
      return { ...reply, headers: { ...reply.headers, 'x-handed-on': 'yes' } };
    })
    .add('GET', '/things/*', () => ({ status: 200, body: { by: 'get' } }))
    // The next route of the same method and path reads the body the first one did not.
    .add('POST', '/things/*', async (ctx) => ({
      status: 201,
      body: { by: 'second', rest: ctx.rest, body: (await ctx.body()).toString() },
    }))
    // The last route for its path hands on to nothing.
    .add('POST', '/lonely', (ctx) => ctx.next());
  ({ server, url } = await serveRouter(router));
});

afterAll(() => closeServer(server, 0));

async function post(path: string, body = ''): Promise<{ status: number; json: unknown; handedOn: boolean }> {
  const response = await fetch(`${url}${path}`, { method: 'POST', body });
  return {
    status: response.status,
    json: await response.json(),
    handedOn: response.headers.get('x-handed-on') === 'yes',
  };
}

it('serves a request with the first route that takes it', async () => {
  expect(await post('/things/a/b?mine=1')).toEqual({
    status: 200,
    json: { by: 'first', rest: 'a/b' },
    handedOn: false,
  });
});

it('hands the others on to the next route of the same method and path, body unread', async () => {
  expect(await post('/things/x', 'payload')).toEqual({
    status: 201,
    json: { by: 'second', rest: 'x', body: 'payload' },
    handedOn: true,
  });
});

it('answers 404 when no route follows', async () => {
  const answer = await post('/lonely');
  expect(answer.status).toBe(404);
  expect(answer.json).toEqual({ error: 'not found: POST /lonely' });
});
