// `npm run security`: @doyensec/electronegativity over the Electron main process, the preload and the
// renderer (sources plus the built HTML, which carries the CSP meta tag), scanned together so its
// global checks (navigation limits, permission handler, CSP) see the whole app. Fails on any HIGH
// finding not explained in ACCEPTED.
//
// It calls electronegativity's runner directly instead of parsing a report file: the CLI writes its CSV
// header and rows with two racing async writes (a corrupt report now and then), and its SARIF carries no
// severity. The runner returns the findings as data.
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** HIGH findings reviewed by a person, with the reason they do not apply. Key: "<check> <file>". */
const ACCEPTED = {
  'CONTEXT_ISOLATION_JS_CHECK main/main.ts':
    'The window options come from windowOptions() in security.ts (contextIsolation: true, sandbox: true, nodeIntegration: false); the static check cannot follow the call. security.test.ts asserts them.',
};

if (!existsSync('out/renderer/index.html')) {
  console.error('out/renderer/index.html is missing: run `npm run build` first.');
  process.exit(1);
}
const require = createRequire(import.meta.url);
const runElectronegativity = require('@doyensec/electronegativity/dist/runner.js');
const electronVersion = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')).version;

const app = join(mkdtempSync(join(tmpdir(), 'switchyard-security-')), 'app');
cpSync('main/electron', join(app, 'main'), { recursive: true, filter: (path) => !path.endsWith('.test.ts') });
cpSync('renderer/src', join(app, 'renderer'), {
  recursive: true,
  filter: (path) => !/\.test\.tsx?$/.test(path),
});
cpSync('out/renderer/index.html', join(app, 'renderer', 'index.html'));

const result = await runElectronegativity(
  { input: app, electronVersionOverride: electronVersion, isRelative: true },
  false,
);
if (result.errors.length > 0) {
  console.error(`electronegativity could not parse ${result.errors.length} file(s):`);
  for (const error of result.errors) console.error(`  ${error.file}: ${error.message ?? error}`);
  process.exit(1);
}
const findings = result.issues.map((issue) => ({
  check: issue.id,
  severity: issue.severity.name,
  confidence: issue.confidence.name,
  file: issue.file,
  line: issue.location?.line ?? 0,
  description: issue.description,
}));
if (findings.length === 0) {
  // There is always at least the accepted finding: none at all means the scan did not really run.
  console.error(`electronegativity reported nothing for ${app}`);
  process.exit(1);
}

for (const finding of findings) {
  const accepted = finding.severity === 'HIGH' ? ACCEPTED[`${finding.check} ${finding.file}`] : undefined;
  console.log(
    `${finding.severity.padEnd(14)}${finding.confidence.padEnd(11)}${finding.check} ${finding.file}:${finding.line}` +
      (accepted ? `\n    accepted: ${accepted}` : ''),
  );
}
const unexplained = findings.filter((f) => f.severity === 'HIGH' && !ACCEPTED[`${f.check} ${f.file}`]);
console.log(
  `\nelectronegativity ${electronVersion}: ${findings.length} findings, ${unexplained.length} HIGH unexplained`,
);
for (const f of unexplained) console.log(`  HIGH ${f.check} at ${f.file}:${f.line} — ${f.description}`);
process.exit(unexplained.length ? 1 : 0);
