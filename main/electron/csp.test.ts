// One Content-Security-Policy for the renderer wherever it is served (shared/csp.ts): Electron's app://
// protocol, the browser host, the built page's <meta> tag and the Vite dev server. Each host may differ
// from the base policy only in what its transport needs, and this test names those differences. (It lives
// in main/electron/ because only code here may import the Electron policy.)
import { join } from 'node:path';
import type { IndexHtmlTransformHook } from 'vite';
import { createServer } from 'vite';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, cspDirectives } from '../../shared/csp';
import { contentSecurityPolicyMeta } from '../../vite.config';
import { useTempDirs } from '../../shared/testing/temp-dir';
import { CONTENT_SECURITY_POLICY } from './security';
import { startTestHost } from '../web/test-host';

type Directives = Record<string, string[]>;

function parse(policy: string): Directives {
  return Object.fromEntries(
    policy.split(';').map((directive) => {
      const [name, ...sources] = directive.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

/** The base policy with one directive replaced (or removed, with undefined). */
function baseWith(name: string, sources: string[] | undefined): Directives {
  const directives = parse(contentSecurityPolicy());
  if (sources) directives[name] = sources;
  else delete directives[name];
  return directives;
}

describe('one Content-Security-Policy for every host', () => {
  const tempDir = useTempDirs();

  it('is strict: nothing by default, no inline or remote script, no plugins, frames or forms', () => {
    const base = parse(contentSecurityPolicy());
    expect(base['default-src']).toEqual(["'none'"]);
    expect(base['script-src']).toEqual(["'self'"]);
    expect(base['connect-src']).toEqual(["'self'"]);
    for (const name of ['object-src', 'base-uri', 'form-action', 'frame-ancestors', 'frame-src'])
      expect(base[name], name).toEqual(["'none'"]);
    expect(contentSecurityPolicy()).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(Object.keys(base)).toEqual(cspDirectives().map(([name]) => name));
  });

  it('Electron serves the base policy itself', () => {
    expect(parse(CONTENT_SECURITY_POLICY)).toEqual(parse(contentSecurityPolicy()));
  });

  it('the browser host sends it, adding only its bridge socket origins', async () => {
    const { host, close } = await startTestHost(tempDir());
    try {
      const response = await fetch(`${host.origin}/`);
      expect(parse(response.headers.get('content-security-policy')!)).toEqual(
        baseWith('connect-src', ["'self'", `ws://127.0.0.1:${host.port}`, `ws://localhost:${host.port}`]),
      );
    } finally {
      await close();
    }
  });

  it('the built page carries it as a <meta> tag, without frame-ancestors (ignored in a meta tag)', () => {
    const plugin = contentSecurityPolicyMeta();
    const transform = plugin.transformIndexHtml as IndexHtmlTransformHook;
    const tags: unknown = Reflect.apply(transform, undefined, ['', {}]);
    expect(Array.isArray(tags)).toBe(true);
    const [meta] = tags as { attrs: Record<string, string> }[];
    expect(meta!.attrs['http-equiv']).toBe('Content-Security-Policy');
    expect(parse(meta!.attrs.content!)).toEqual(baseWith('frame-ancestors', undefined));
  });

  it("the Vite dev server sends it, adding only inline script for React Refresh's preamble", async () => {
    const server = await createServer({
      configFile: join(import.meta.dirname, '..', '..', 'vite.config.ts'),
      server: { port: 0, strictPort: false, hmr: false },
      logLevel: 'silent',
    });
    await server.listen();
    try {
      const address = server.httpServer!.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${address.port}/`);
      expect(response.status).toBe(200);
      expect(parse(response.headers.get('content-security-policy')!)).toEqual(
        baseWith('script-src', ["'self'", "'unsafe-inline'"]),
      );
    } finally {
      await server.close();
    }
  });
});
