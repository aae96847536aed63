// Fails when package-lock.json lacks an optional platform package that some other OS would need:
// `npm ci` refuses such a lockfile everywhere (seen when the registry lacked some platform packages of
// tailwind 4.3.4/4.3.5: npm wrote the lockfile without them).
import { readFileSync } from 'node:fs';

const packages = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;
const missing = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${dep}`;
    if (!packages[nested] && !packages[`node_modules/${dep}`]) missing.push(`${path || '(root)'} -> ${dep}`);
  }
}
if (missing.length) {
  console.error(`package-lock.json lacks optional packages:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
console.log('package-lock.json: no optional platform package missing');
