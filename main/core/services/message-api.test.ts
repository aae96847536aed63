import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResolvedProfile } from '../profiles/profiles-service';
import { encodeQuery, MessageApi } from './message-api';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(status: number, body: string) {
  const seen: { url?: string; auth?: string; method?: string }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization, method: req.method });
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function profile(messagesUrl: string, token?: string): ResolvedProfile {
  return {
    id: 'p',
    settings: { name: 'Test', env: 'dev', messagesUrl, kvUrl: '', readOnly: false, confirmDangerous: true },
    secret: (name) => (name === 'messageToken' ? token : undefined),
  };
}

describe('MessageApi', () => {
  it('sends the bearer token to the profile’s base URL with repeated query parameters', async () => {
    const api = await serve(200, '{"messages":[]}');
    const result = await new MessageApi(profile(`${api.url}/`, 'tok')).json<{ messages: unknown[] }>({
      path: '/v2/dlq',
      query: { label: ['a', 'b'], cursor: undefined, count: 10 },
    });
    expect(result.body).toEqual({ messages: [] });
    expect(api.seen[0]).toEqual({
      url: '/v2/dlq?label=a&label=b&count=10',
      auth: 'Bearer tok',
      method: 'GET',
    });
  });

  it('turns an error status into SERVICE_ERROR with the service’s own text', async () => {
    const api = await serve(400, '{"error":"invalid destination url: endpoint has invalid scheme"}');
    await expect(
      new MessageApi(profile(api.url, 'tok')).request({ path: '/v2/publish/x', method: 'POST' }),
    ).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
      status: 400,
      message: 'invalid destination url: endpoint has invalid scheme',
    });
  });

  it('says what is missing when the profile lacks a URL or a token', async () => {
    await expect(new MessageApi(profile('', 'tok')).request({ path: '/v2/keys' })).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringMatching(/no message API URL/),
    });
    await expect(
      new MessageApi(profile('http://127.0.0.1:1')).request({ path: '/v2/keys' }),
    ).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringMatching(/no message token/),
    });
  });

  it('encodes queries without empty values', () => {
    expect(encodeQuery({ a: '', b: null, c: undefined, d: 'x y', e: [1, 2] })).toBe('?d=x+y&e=1&e=2');
    expect(encodeQuery({})).toBe('');
  });
});
