// Bundles every Node-side entry point (Electron main + preload, browser host, local stack, benchmarks)
// with esbuild into out/. The renderer is built separately by Vite.
// Usage: node scripts/build-node.mjs [--quiet]
import { build } from 'esbuild';
const quiet = process.argv.includes('--quiet');
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'linked',
  outExtension: { '.js': '.cjs' },
  logLevel: quiet ? 'error' : 'warning',
  // better-sqlite3 is a native addon: it must be loaded from node_modules, never bundled.
  external: ['electron', 'better-sqlite3'],
  // pino and ws have optional native helpers that they require lazily inside try/catch.
  define: { 'process.env.WS_NO_BUFFER_UTIL': '"1"', 'process.env.WS_NO_UTF_8_VALIDATE': '"1"' },
};

const started = Date.now();
await Promise.all([
  build({
    ...common,
    entryPoints: {
      electron: 'main/electron/main.ts',
      preload: 'main/electron/preload.ts',
      web: 'main/web/cli.ts',
    },
    outdir: 'out/main',
  }),
  build({ ...common, entryPoints: { cli: 'stack/cli.ts' }, outdir: 'out/stack' }),
  // Benchmarks drive third-party servers and clients; keep node_modules external there.
  build({ ...common, entryPoints: { run: 'bench/run.ts' }, outdir: 'out/bench', packages: 'external' }),
]);
if (!quiet) console.log(`node bundles built in ${Date.now() - started} ms`);
