import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * A CSP meta tag in the built page, on top of the CSP response headers both hosts send: no inline or
 * remote script even if a host forgot its header. Not in dev, where Vite injects an inline preamble.
 */
function contentSecurityPolicyMeta(): Plugin {
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return {
    name: 'switchyard-csp-meta',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: policy },
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
    // `npm run dev`: the browser host runs on 5174 and owns the bridge socket.
    proxy: { '/bridge': { target: 'ws://127.0.0.1:5174', ws: true } },
  },
});
