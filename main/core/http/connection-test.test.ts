import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileSettings, SecretName } from '../../../shared/profiles';
import type { ResolvedProfile } from '../profiles/profiles-service';
import { testConnection } from './connection-test';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** A real HTTP server on loopback that answers like the service would, recording what it received. */
async function serve(status: number, body: string) {
  const seen: { method?: string; url?: string; auth?: string; body: string }[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, body: text });
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function profile(
  settings: Partial<ProfileSettings>,
  secrets: Partial<Record<SecretName, string>>,
): ResolvedProfile {
  return {
    id: 'p',
    settings: {
      name: 'p',
      env: 'dev',
      messagesUrl: '',
      kvUrl: '',
      readOnly: false,
      confirmDangerous: true,
      ...settings,
    },
    secret: (name) => secrets[name],
  };
}

describe('test connection', () => {
  it('reports success with latency for the message API, sending the bearer token', async () => {
    const api = await serve(200, '[]');
    const result = await testConnection(
      profile({ messagesUrl: `${api.url}/` }, { messageToken: 'tok' }),
      'messages',
    );
    expect(result).toMatchObject({ reachable: true, auth: 'ok', status: 200 });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(api.seen[0]).toMatchObject({ method: 'GET', url: '/v2/queues', auth: 'Bearer tok' });
  });

  it('shows the service’s own error text when the token is rejected', async () => {
    const kv = await serve(401, '{"error":"WRONGPASS invalid or missing auth token"}');
    const result = await testConnection(profile({ kvUrl: kv.url }, { kvToken: 'bad' }), 'kv');
    expect(result).toMatchObject({ reachable: true, auth: 'failed', status: 401 });
    expect(result.message).toContain('WRONGPASS invalid or missing auth token');
    expect(kv.seen[0]).toMatchObject({ method: 'POST', url: '/', auth: 'Bearer bad', body: '["PING"]' });
  });

  it('says plainly when nothing listens at the URL', async () => {
    const api = await serve(200, '[]');
    servers.splice(0).forEach((server) => server.close());
    const result = await testConnection(profile({ messagesUrl: api.url }, {}), 'messages');
    expect(result).toMatchObject({ reachable: false, auth: 'unknown' });
    expect(result.message).toMatch(/Connection refused by 127\.0\.0\.1:\d+/);
  });

  it('reports a missing URL without making a request', async () => {
    const result = await testConnection(profile({}, {}), 'kv');
    expect(result).toMatchObject({ reachable: false, message: 'No KV REST URL is set for this profile.' });
  });
});
