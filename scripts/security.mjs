// `npm run security`: @doyensec/electronegativity over the Electron main process, the preload and the
// renderer (sources plus the built HTML, which carries the CSP meta tag), scanned together so its
// global checks (navigation limits, permission handler, CSP) see the whole app. Fails on any HIGH
// finding not explained in ACCEPTED. electronegativity itself always exits 0, so its CSV is read here.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
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
const electronVersion = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')).version;
const tree = mkdtempSync(join(tmpdir(), 'switchyard-security-'));
cpSync('main/electron', join(tree, 'main'), {
  recursive: true,
  filter: (path) => !path.endsWith('.test.ts'),
});
cpSync('renderer/src', join(tree, 'renderer'), {
  recursive: true,
  filter: (path) => !/\.test\.tsx?$/.test(path),
});
cpSync('out/renderer/index.html', join(tree, 'renderer', 'index.html'));

const report = join(tree, 'report.csv');
const run = spawnSync('npx', ['electronegativity', '-i', tree, '-o', report, '-e', electronVersion, '-r'], {
  encoding: 'utf8',
});
if (run.status !== 0 || !existsSync(report)) {
  console.error(run.stdout, run.stderr);
  process.exit(1);
}

// Columns: issue, severity, confidence, filename, location, sample, description, url
const rows = parseCsv(readFileSync(report, 'utf8'))
  .slice(1)
  .filter((cells) => cells.length >= 7)
  .map(([issue, severity, confidence, file, location, , description]) => ({
    issue,
    severity,
    confidence,
    file,
    location,
    description,
  }));

if (rows.length === 0) {
  // There is always at least the accepted finding: an empty report means the scan did not really run.
  console.error(`electronegativity reported nothing for ${tree}; its output:\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
}
for (const row of rows) {
  const accepted = ACCEPTED[`${row.issue} ${row.file}`];
  console.log(
    `${row.severity.padEnd(14)}${row.confidence.padEnd(11)}${row.issue} ${row.file}:${row.location}${accepted ? `\n    accepted: ${accepted}` : ''}`,
  );
}
const unexplained = rows.filter((row) => row.severity === 'HIGH' && !ACCEPTED[`${row.issue} ${row.file}`]);
console.log(
  `\nelectronegativity ${electronVersion}: ${rows.length} findings, ${unexplained.length} HIGH unexplained`,
);
for (const row of unexplained)
  console.log(`  HIGH ${row.issue} at ${row.file}:${row.location} — ${row.description}`);
process.exit(unexplained.length ? 1 : 0);

/** RFC 4180 CSV: quoted cells may hold commas, doubled quotes and newlines. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell.trim());
      cell = '';
    } else if (char === '\n') {
      row.push(cell.trim());
      rows.push(row);
      row = [];
      cell = '';
    } else if (char !== '\r') cell += char;
  }
  if (cell || row.length) rows.push([...row, cell.trim()]);
  return rows;
}
