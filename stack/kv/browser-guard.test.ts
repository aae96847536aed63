// Web pages cannot drive the local KV service, even though its default token is well known.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { rawHttp } from '../../shared/testing/raw-http';
import { LOCAL_TOKEN } from './credentials';
import type { TestService } from './test-support';
import { startTestService } from './test-support';

let kv: TestService;
beforeAll(async () => {
  kv = await startTestService({ allowedHosts: ['hooks.tunnel.test'] });
});
afterAll(async () => {
  await kv?.stop();
});

/** A raw HTTP request, so the Host header can be anything (fetch would not let us set it). */
function raw(path: string, headers: Record<string, string>) {
  return rawHttp(new URL(kv.url).port, path, { headers });
}

describe('browser guard on the KV service', () => {
  it('refuses a cross-site simple request and does not run its command', async () => {
    // What <img src="http://127.0.0.1:8079/set/guard:img/pwned?_token=…"> on any website would send.
    const res = await raw(`/set/guard:img/pwned?_token=${LOCAL_TOKEN}`, {
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'no-cors',
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toMatch(/^ERR cross-site requests from web pages are refused/);
    expect(await kv.admin(['EXISTS', 'guard:img'])).toBe(0);
  });

  it('refuses another site’s page, and a DNS-rebinding Host', async () => {
    const fromPage = await raw(`/set/guard:page/x?_token=${LOCAL_TOKEN}`, { origin: 'https://evil.example' });
    expect(fromPage.status).toBe(403);
    const rebinding = await raw(`/set/guard:rebind/x?_token=${LOCAL_TOKEN}`, {
      host: 'rebind.evil.example:8079',
    });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error).toMatch(/--allow-host rebind\.evil\.example/);
    expect(await kv.admin(['EXISTS', 'guard:page', 'guard:rebind'])).toBe(0);
  });

  it('serves SDKs, local web apps and hosts the user allowed', async () => {
    expect((await raw(`/set/guard:sdk/1?_token=${LOCAL_TOKEN}`, {})).status).toBe(200);
    const localApp = await raw(`/set/guard:app/1?_token=${LOCAL_TOKEN}`, {
      origin: 'http://localhost:3000',
      'sec-fetch-site': 'same-site',
    });
    expect(localApp.status).toBe(200);
    expect(
      (await raw(`/set/guard:tunnel/1?_token=${LOCAL_TOKEN}`, { host: 'hooks.tunnel.test' })).status,
    ).toBe(200);
    expect(await kv.admin(['EXISTS', 'guard:sdk', 'guard:app', 'guard:tunnel'])).toBe(3);
  });
});
