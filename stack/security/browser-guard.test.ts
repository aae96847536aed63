import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createBrowserGuard, isLoopbackHost } from './browser-guard';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('browser guard', () => {
  const guard = createBrowserGuard({ bindHost: '127.0.0.1', allowedHosts: ['hooks.example-tunnel.dev'] });

  it('lets SDKs and curl through: loopback Host, no Origin', () => {
    for (const host of [
      '127.0.0.1:8079',
      'localhost:8080',
      '[::1]:8080',
      'app.localhost:8080',
      '127.0.0.2',
    ]) {
      expect(guard(request({ host })), host).toBeNull();
    }
    expect(guard(request({}))).toBeNull();
  });

  it('refuses a foreign Host (DNS rebinding) unless the user allowed it', () => {
    expect(guard(request({ host: 'evil.example:8079' }))).toMatch(
      /not this machine.*--allow-host evil\.example/,
    );
    expect(guard(request({ host: '10.0.0.5:8080' }))).toMatch(/not this machine/);
    expect(guard(request({ host: 'hooks.example-tunnel.dev' }))).toBeNull();
  });

  it('refuses web pages of other sites, including simple requests that need no CORS', () => {
    expect(guard(request({ host: '127.0.0.1:8079', origin: 'https://evil.example' }))).toMatch(
      /evil\.example are refused/,
    );
    expect(guard(request({ host: '127.0.0.1:8079', origin: 'null' }))).toMatch(/refused/);
    // <img src="http://127.0.0.1:8079/flushall?_token=…">: no Origin, but Fetch Metadata says cross-site.
    expect(guard(request({ host: '127.0.0.1:8079', 'sec-fetch-site': 'cross-site' }))).toMatch(/cross-site/);
  });

  it('keeps local web apps in development working', () => {
    expect(
      guard(
        request({ host: 'localhost:8079', origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' }),
      ),
    ).toBeNull();
    expect(
      guard(
        request({ host: '127.0.0.1:8079', origin: 'http://127.0.0.1:5173', 'sec-fetch-site': 'cross-site' }),
      ),
    ).toBeNull();
  });

  it('is off when the stack is deliberately bound to a network interface', () => {
    const open = createBrowserGuard({ bindHost: '0.0.0.0' });
    expect(open(request({ host: 'stack.internal:8080', origin: 'https://app.example' }))).toBeNull();
  });

  it('knows loopback names', () => {
    expect(isLoopbackHost('LOCALHOST.')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('127.255.0.1')).toBe(true);
    expect(isLoopbackHost('128.0.0.1')).toBe(false);
    expect(isLoopbackHost('localhost.evil.example')).toBe(false);
  });
});
