import { execFileSync } from 'node:child_process';

// Tests spawn the bundled stack and host as real processes; build them once per run (~0.3 s).
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-node.mjs', '--quiet'], { stdio: 'inherit' });
}
