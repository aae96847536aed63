import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type BridgeError,
  jobWaitsThrough,
  mayHaveActed,
  mayPass,
  neverSent,
} from '../../../shared/bridge/errors';
import { encodeQuery, ServiceApi } from './service-api';
import { networkError } from './service-http';

const servers: Server[] = [];
const unexpected = (): never => {
  throw new Error('the request was expected to fail');
};
afterEach(() => servers.splice(0).forEach((server) => server.close()));

async function serve(status: number, body: string, headers: Record<string, string> = {}) {
  const seen: { url?: string; auth?: string; method?: string }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, auth: req.headers.authorization, method: req.method });
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function endpoint(baseUrl: string, token?: string): ServiceApi {
  return new ServiceApi({
    baseUrl,
    token,
    profileName: 'Test',
    service: 'message API',
    tokenName: 'message token',
  });
}

describe('ServiceApi', () => {
  it('sends the bearer token to the profile’s base URL with repeated query parameters', async () => {
    const api = await serve(200, '{"messages":[]}');
    const result = await endpoint(`${api.url}/`, 'tok').json<{ messages: unknown[] }>({
      path: '/api/dlq',
      query: { label: ['a', 'b'], cursor: undefined, count: 10 },
    });
    expect(result.body).toEqual({ messages: [] });
    expect(api.seen[0]).toEqual({
      url: '/api/dlq?label=a&label=b&count=10',
      auth: 'Bearer tok',
      method: 'GET',
    });
  });

  it('turns an error status into SERVICE_ERROR with the service’s own text', async () => {
    const api = await serve(400, '{"error":"invalid destination url: endpoint has invalid scheme"}');
    await expect(
      endpoint(api.url, 'tok').request({ path: '/api/publish/x', method: 'POST' }),
    ).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
      status: 400,
      message: 'invalid destination url: endpoint has invalid scheme',
    });
  });

  it('a 429 or 503 carries how long the service asked to wait (Retry-After, or a rate-limit reset time)', async () => {
    const asked = async (status: number, headers: Record<string, string>) => {
      const api = await serve(status, '{"error":"slow down"}', headers);
      const error = await endpoint(api.url, 'tok')
        .request({ path: '/v2/logs' })
        .catch((caught: unknown) => caught);
      return (error as { retryAfterMs?: number }).retryAfterMs;
    };
    expect(await asked(429, { 'retry-after': '7' })).toBe(7000);
    expect(await asked(503, { 'retry-after': '1' })).toBe(1000);
    // The message service's per-second limit says when it resets, as a unix time in seconds.
    const reset = await asked(429, { 'burst-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60) });
    expect(reset).toBeGreaterThan(55_000);
    expect(reset).toBeLessThanOrEqual(60_000);
    // Only a 429 or 503 is a request to wait; without a header there is nothing to honour.
    expect(await asked(500, { 'retry-after': '7' })).toBeUndefined();
    expect(await asked(429, {})).toBeUndefined();
  });

  it('a web page instead of the API (a gateway’s 502) reads as its title, not its markup', async () => {
    const page =
      '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    const api = await serve(502, page);
    await expect(endpoint(api.url, 'tok').request({ path: '/v2/keys' })).rejects.toMatchObject({
      code: 'SERVICE_ERROR',
      status: 502,
      message:
        "A web page came back instead of the service's API: “502 Bad Gateway”. A proxy or gateway in front of the service answered (HTTP 502); the service behind it may be down or unreachable.",
    });
  });

  it('says what is missing when the profile lacks a URL or a token', async () => {
    await expect(endpoint('', 'tok').request({ path: '/api/keys' })).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringMatching(/no message API URL/),
    });
    await expect(endpoint('http://127.0.0.1:1').request({ path: '/api/keys' })).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringMatching(/no message token/),
    });
  });

  it('tells a service that does not answer (TIMEOUT) from one nobody listens for (UNREACHABLE)', async () => {
    const silent = createServer(() => {});
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(silent.address() as AddressInfo).port}`;
    await expect(
      endpoint(`http://${host}`, 'tok').request({ path: '/v2/keys', timeoutMs: 1000 }),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: `No response from ${host} within 1 s: the service may be overloaded or stuck. Try again in a moment.`,
    });
    silent.closeAllConnections();

    const gone = await serve(200, '{}');
    servers.pop()!.close();
    await expect(endpoint(gone.url, 'tok').request({ path: '/v2/keys' })).rejects.toMatchObject({
      code: 'UNREACHABLE',
      message: expect.stringMatching(/^Connection refused by 127\.0\.0\.1:\d+: nothing is listening there/),
    });
  });

  it('carries the connection’s code: a refused connection was never sent, a reset after the service read the request may have been acted on', async () => {
    const gone = await serve(200, '{}');
    servers.pop()!.close();
    const refused = await endpoint(gone.url, 'tok')
      .request({ path: '/v2/workflows/dlq/callback/d1', method: 'POST' })
      .then(unexpected, (error: unknown) => error as BridgeError);
    expect(refused).toMatchObject({ code: 'UNREACHABLE', networkCode: 'ECONNREFUSED' });
    expect(neverSent(refused)).toBe(true);
    expect(mayHaveActed(refused)).toBe(false);
    // The code crosses the bridge as data; the address stays in the message only.
    expect(refused.toData()).toEqual({
      code: 'UNREACHABLE',
      message: refused.message,
      networkCode: 'ECONNREFUSED',
    });

    const read: string[] = [];
    const resetting = createServer((req) => {
      req.resume();
      req.on('end', () => {
        read.push(req.url!);
        req.socket.resetAndDestroy();
      });
    });
    servers.push(resetting);
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const reset = await endpoint(`http://127.0.0.1:${(resetting.address() as AddressInfo).port}`, 'tok')
      .request({ path: '/v2/workflows/dlq/callback/d1', method: 'POST' })
      .then(unexpected, (error: unknown) => error as BridgeError);
    expect(read).toEqual(['/v2/workflows/dlq/callback/d1']);
    expect(reset).toMatchObject({
      code: 'UNREACHABLE',
      networkCode: expect.stringMatching(/^(ECONNRESET|UND_ERR_SOCKET)$/),
    });
    expect(neverSent(reset)).toBe(false);
    expect(mayHaveActed(reset)).toBe(true);

    // The Local profile while its stack is not running sends nothing at all.
    const stopped = new ServiceApi({
      baseUrl: 'http://127.0.0.1:1',
      token: 'tok',
      profileName: 'Local',
      service: 'message API',
      tokenName: 'message token',
      unavailable: 'The local stack is not running.',
    });
    const notSent = await stopped.request({ path: '/v2/keys' }).then(unexpected, (error: unknown) => error);
    expect(neverSent(notSent)).toBe(true);
  });

  it('a job waits through a connect timeout (nothing sent), a screen does not; a headers timeout neither', () => {
    const connect = networkError('http://10.0.0.9/v2/dlq', new errors.ConnectTimeoutError());
    expect(connect).toMatchObject({ code: 'TIMEOUT', networkCode: 'UND_ERR_CONNECT_TIMEOUT' });
    expect([mayPass(connect), neverSent(connect), jobWaitsThrough(connect)]).toEqual([false, true, true]);
    expect(mayHaveActed(connect)).toBe(false);
    // The service may be stuck on the request itself: waiting again would not help, and it may have acted.
    const headers = networkError('http://10.0.0.9/v2/dlq', new errors.HeadersTimeoutError());
    expect(headers).toMatchObject({ code: 'TIMEOUT', networkCode: 'UND_ERR_HEADERS_TIMEOUT' });
    expect([neverSent(headers), jobWaitsThrough(headers)]).toEqual([false, false]);
  });

  it('encodes queries without empty values', () => {
    expect(encodeQuery({ a: '', b: null, c: undefined, d: 'x y', e: [1, 2] })).toBe('?d=x+y&e=1&e=2');
    expect(encodeQuery({})).toBe('');
  });
});
