// `npm test`: every check and test suite, in order, then one plain summary line the CI harness reads:
//   "N passed, N failed, N skipped"
// Static checks (typecheck, lint, format, build, security) count as one test each. A failing step never stops the later
// ones, so one run shows everything that is wrong.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const OUT = '.ci-out';
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title} (${new Date().toISOString().slice(11, 19)})`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: result.status === 0, seconds };
}

function check(title, command, args) {
  const { ok, seconds } = run(title, command, args);
  totals[ok ? 'passed' : 'failed'] += 1;
  lines.push(`${title}: ${ok ? 'ok' : 'FAILED'} (${seconds} s)`);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

check('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']);
// shared/ once more with no @types and no DOM lib: a Node or DOM global there is a compile error.
check('typecheck shared/ (no Node, no DOM)', 'npx', ['tsc', '-p', 'tsconfig.shared.json']);
check('lint', 'npx', ['eslint', '.']);
check('format', 'npx', ['prettier', '--check', '.']);
const built = check('build', 'npm', ['run', '-s', 'build']);
if (built) check('security (electronegativity)', 'node', ['scripts/security.mjs']);

const unit = run('unit + integration (vitest)', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${OUT}/vitest.json`,
]);
const vitest = readJson(`${OUT}/vitest.json`);
if (vitest) {
  const skipped = vitest.numPendingTests + vitest.numTodoTests;
  totals.passed += vitest.numPassedTests;
  totals.failed += vitest.numFailedTests + (unit.ok || vitest.numFailedTests ? 0 : 1);
  totals.skipped += skipped;
  lines.push(
    `vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${skipped} skipped (${unit.seconds} s)`,
  );
} else {
  totals.failed += 1;
  lines.push('vitest: did not report (counted as 1 failed)');
}

if (built) {
  const e2e = run('e2e (playwright)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: `${OUT}/e2e.json`,
  });
  const stats = readJson(`${OUT}/e2e.json`)?.stats;
  if (stats) {
    const passed = stats.expected + stats.flaky;
    totals.passed += passed;
    totals.failed += stats.unexpected + (e2e.ok || stats.unexpected ? 0 : 1);
    totals.skipped += stats.skipped;
    lines.push(
      `e2e: ${passed} passed, ${stats.unexpected} failed, ${stats.skipped} skipped (${e2e.seconds} s)`,
    );
  } else {
    totals.failed += 1;
    lines.push('e2e: did not report (counted as 1 failed)');
  }
} else {
  totals.failed += 1;
  lines.push('e2e: not run because the build failed (counted as 1 failed)');
}

console.log('\n=== summary');
for (const line of lines) console.log(line);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 ? 0 : 1);
