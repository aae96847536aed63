import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: resolve(import.meta.dirname, 'renderer'),
  base: './',
  plugins: [react()],
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
