#!/usr/bin/env node
// Runs the official @upstash/redis test suite (upstash/redis-js, `packages/redis/pkg`) with bun against a
// fresh local stack, and prints "redis-js: N passed, M failed, K skipped" with every failing test.
//
//   npm run build                                  # the stack bundle the suite runs against
//   REDIS_JS_MIRROR=<git dir of upstash/redis-js> node scripts/redis-js-suite.mjs [options]
//
// Options:
//   --filter TEXT    only test files whose path contains TEXT (repeatable; bun's own path filter)
//   --runs-dir DIR   where the JUnit XML, bun's log and the stack's stderr go (default: a new folder under
//                    the cache's runs/)
//   --json FILE      also write every test's {id, status, message} to FILE
//
// The vendor's code is never copied into this repository: the first run clones REDIS_JS_MIRROR into the cache
// ($VENDOR_SUITES_DIR/redis-js, default ~/.cache/switchyard-vendor-suites/redis-js) and installs the package's
// one runtime dependency there; bun comes from npm (@oven/bun-linux-x64) into $VENDOR_SUITES_DIR/bin.
//
// The stack and the suite run in a private network namespace (`unshare -n`, loopback only) where that is
// possible: the suite's own mock servers (http.test.ts, subscribe tests) bind port 8080, which another
// process on the host may hold, and nothing can leave 127.0.0.1. The suite runs FLUSHALL, so it always gets
// a stack of its own (random credentials, ports 0, a temporary data dir).
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const APP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = process.env.VENDOR_SUITES_DIR ?? path.join(os.homedir(), '.cache', 'switchyard-vendor-suites');
const BUN = path.join(ROOT, 'bin', 'bun');
const REPO = path.join(ROOT, 'redis-js');
const PKG = path.join(REPO, 'packages', 'redis');
const TEST_TIMEOUT_MS = 20_000; // the vendor's own package script uses --timeout 20000

function parseArgs(argv) {
  const opts = { filters: [], runsDir: undefined, json: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--filter') opts.filters.push(argv[++i]);
    else if (a === '--runs-dir') opts.runsDir = argv[++i];
    else if (a === '--json') opts.json = argv[++i];
    else if (a === '-h' || a === '--help') {
      console.log(
        readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .slice(1, 22)
          .join('\n'),
      );
      process.exit(0);
    } else {
      console.error(`unknown argument: ${a}`);
      process.exit(2);
    }
  }
  return opts;
}

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

/** One-time setup on the host network: bun from npm, the suite cloned from the mirror, its dependency. */
function setUp() {
  mkdirSync(path.dirname(BUN), { recursive: true });
  if (!existsSync(BUN)) {
    if (process.env.BUN_BIN) copyFileSync(process.env.BUN_BIN, BUN);
    else {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'bun-pack-'));
      run('npm', ['pack', '@oven/bun-linux-x64', '--silent'], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      run('sh', ['-c', 'tar xzf oven-bun-linux-x64-*.tgz'], { cwd: dir });
      copyFileSync(path.join(dir, 'package', 'bin', 'bun'), BUN);
      rmSync(dir, { recursive: true, force: true });
    }
    spawnSync('chmod', ['+x', BUN]);
  }
  if (!existsSync(path.join(APP, 'out', 'stack', 'cli.cjs'))) {
    throw new Error(`no built stack in ${APP}: run npm run build first`);
  }
  if (!existsSync(path.join(REPO, '.git'))) {
    const mirror = process.env.REDIS_JS_MIRROR;
    if (!mirror)
      throw new Error('set REDIS_JS_MIRROR to a git dir of github:upstash/redis-js (first run only)');
    run('git', ['clone', '-q', mirror, REPO]);
  }
  if (!existsSync(path.join(PKG, 'node_modules', 'uncrypto'))) {
    // The package's only runtime dependency; its dev dependencies (tsup, typescript) are not needed by bun test.
    run(BUN, ['install', '--production', '--ignore-scripts', '--no-save'], { cwd: PKG });
  }
}

/** Starts a stack of its own; resolves with its ready line and a stop function. */
async function startStack(runsDir) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'redis-js-suite-stack-'));
  const stderrFile = path.join(runsDir, 'stack.stderr.log');
  const child = spawn(
    process.execPath,
    [
      path.join(APP, 'out', 'stack', 'cli.cjs'),
      ...[
        '--port',
        '0',
        '--kv-port',
        '0',
        '--data-dir',
        dataDir,
        '--random-credentials',
        '--log-level',
        'warn',
      ],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const ready = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      for (const line of out.split('\n')) {
        if (line.includes('"ready":true')) return resolve(JSON.parse(line));
      }
    });
    child.on('exit', (code) => reject(new Error(`stack exited (${code}) before its ready line:\n${stderr}`)));
  });
  if (!ready.kv?.url) throw new Error(`the stack has no KV service: ${JSON.stringify(ready.kv)}`);
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    writeFileSync(stderrFile, stderr);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { ready, stop };
}

const decode = (s) =>
  s
    .replace(/&#10;/g, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&amp;/g, '&');
const attr = (tag, name) => {
  const m = tag.match(new RegExp(`\\s${name}="([^"]*)"`));
  return m ? decode(m[1]) : undefined;
};

/** bun's JUnit XML → [{id, file, status, message}]; nested describes become part of the id. */
function parseJunit(xml) {
  const tokens =
    xml.match(
      /<testsuite\b[^>]*>|<\/testsuite>|<testcase\b[^>]*?\/>|<testcase\b[^>]*>[\s\S]*?<\/testcase>/g,
    ) ?? [];
  const suites = [];
  const tests = [];
  for (const t of tokens) {
    if (t.startsWith('</testsuite')) suites.pop();
    else if (t.startsWith('<testsuite')) suites.push({ name: attr(t, 'name'), file: attr(t, 'file') });
    else {
      const open = t.match(/<testcase\b[^>]*>/)[0];
      const file = attr(open, 'file') ?? suites[0]?.file;
      const names = [...suites.slice(1).map((s) => s.name), attr(open, 'name')];
      const failure = t.match(/<failure\b([^>]*)>/);
      const status = failure ? 'fail' : /<skipped\b/.test(t) ? 'skip' : 'pass';
      const message = failure ? (attr(failure[0], 'message') ?? '') : '';
      tests.push({ id: `${file} > ${names.join(' > ')}`, file, status, message });
    }
  }
  return tests;
}

async function inNamespace(opts) {
  if (process.env.REDIS_JS_SUITE_NETNS === '1') spawnSync('ip', ['link', 'set', 'lo', 'up']);
  const runsDir =
    opts.runsDir ?? path.join(ROOT, 'runs', `redis-js-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(runsDir, { recursive: true });
  const xml = path.join(runsDir, 'redis-js.xml');
  const log = path.join(runsDir, 'redis-js.log');
  const commit = spawnSync('git', ['-C', APP, 'log', '-1', '--format=%h %s'], {
    encoding: 'utf8',
  }).stdout.trim();
  const vendor = spawnSync('git', ['-C', REPO, 'log', '-1', '--format=%h %s'], {
    encoding: 'utf8',
  }).stdout.trim();
  const bunVersion = spawnSync(BUN, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`run directory: ${runsDir}`);
  console.log(`stack: ${commit.slice(0, 90)}`);
  console.log(`redis-js: ${vendor.slice(0, 90)}`);
  console.log(
    `bun ${bunVersion}, node ${process.version}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const { ready, stop } = await startStack(runsDir);
  const started = Date.now();
  let code;
  try {
    const paths = opts.filters.length > 0 ? opts.filters : ['pkg'];
    const child = spawn(
      BUN,
      [
        'test',
        ...paths,
        '--timeout',
        String(TEST_TIMEOUT_MS),
        '--reporter=junit',
        `--reporter-outfile=${xml}`,
      ],
      {
        cwd: PKG,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          UPSTASH_REDIS_REST_URL: ready.kv.url,
          UPSTASH_REDIS_REST_TOKEN: ready.kv.token,
        },
      },
    );
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    code = await new Promise((r) => child.on('exit', (c) => r(c)));
    writeFileSync(log, Buffer.concat(chunks));
  } finally {
    await stop();
  }
  console.log(`(bun exited ${code} after ${Math.round((Date.now() - started) / 1000)} s; log ${log})`);
  if (!existsSync(xml)) {
    console.error(`no JUnit output; see ${log}`);
    process.exit(1);
  }
  const tests = parseJunit(readFileSync(xml, 'utf8'));
  if (opts.json) writeFileSync(opts.json, JSON.stringify(tests, null, 2));
  const count = (s) => tests.filter((t) => t.status === s).length;
  for (const t of tests.filter((x) => x.status === 'fail')) {
    const first = t.message.split('\n').find((l) => l.trim()) ?? '';
    console.log(`  FAIL ${t.id}${first ? `  -- ${first.slice(0, 160)}` : ''}`);
  }
  const hooks = tests.filter((t) => t.status === 'fail' && t.id.endsWith('(unnamed)')).length;
  if (hooks) console.log(`  note: ${hooks} "(unnamed)" failure(s) are failed beforeAll/afterAll hooks`);
  console.log(`redis-js: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`);
}

const opts = parseArgs(process.argv.slice(2));
if (!process.env.REDIS_JS_SUITE_NETNS) {
  setUp();
  const args = [fileURLToPath(import.meta.url), ...process.argv.slice(2)];
  const unshare = spawnSync('unshare', ['-n', 'true']).status === 0;
  if (!unshare)
    console.warn('warning: cannot create a network namespace; port 8080 must be free for the suite');
  const r = unshare
    ? spawnSync('unshare', ['-n', process.execPath, ...args], {
        stdio: 'inherit',
        env: { ...process.env, REDIS_JS_SUITE_NETNS: '1' },
      })
    : spawnSync(process.execPath, args, {
        stdio: 'inherit',
        env: { ...process.env, REDIS_JS_SUITE_NETNS: 'host' },
      });
  process.exit(r.status ?? 1);
} else {
  await inNamespace(opts);
}
