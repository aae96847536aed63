import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { contentSecurityPolicy } from './shared/csp.ts';

/**
 * A CSP meta tag in the built page, on top of the CSP response headers both hosts send: no inline or
 * remote script even if a host forgot its header. Not in dev, where the dev server sends the header.
 */
export function contentSecurityPolicyMeta(): Plugin {
  return {
    name: 'switchyard-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: {
          'http-equiv': 'Content-Security-Policy',
          content: contentSecurityPolicy({ delivery: 'meta' }),
        },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root: resolve(import.meta.dirname, 'renderer'),
  base: './',
  plugins: [react(), contentSecurityPolicyMeta()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer'),
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    rollupOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    // The same policy as the built app, plus the inline React Refresh preamble hot reload needs.
    headers: { 'content-security-policy': contentSecurityPolicy({ dev: true }) },
    // `npm run dev`: the browser host runs on 5174 and owns the bridge socket.
    proxy: { '/bridge': { target: 'ws://127.0.0.1:5174', ws: true } },
  },
});
