// The Node version check of the entry points: the comparison, and the real processes (stack CLI, browser
// host, launcher) refusing an old Node with one clear sentence. The old Node is simulated by a preload that
// overrides process.versions.node, since only one Node is installed here.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { atLeast, BROWSER_HOST_NODE, DESKTOP_NODE, nodeVersionProblem } from './node-version.mjs';

describe('atLeast / nodeVersionProblem', () => {
  it('compares major, minor and patch numerically', () => {
    expect(atLeast('20.19.0', '20.19.0')).toBe(true);
    expect(atLeast('v20.20.2', '20.19.0')).toBe(true);
    expect(atLeast('20.9.0', '20.19.0')).toBe(false);
    expect(atLeast('22.11.9', '22.12.0')).toBe(false);
    expect(atLeast('23.0.0', '22.12.0')).toBe(true);
  });

  it('names what needs which version, and how to get it', () => {
    expect(nodeVersionProblem('desktop app (Electron 45)', DESKTOP_NODE, '20.20.2')).toBe(
      "Switchyard's desktop app (Electron 45) needs Node 22.12.0 or newer; this is Node 20.20.2. " +
        'Install Node 22 or newer (e.g. `nvm install 22`) and run it again.',
    );
    expect(nodeVersionProblem('browser host', BROWSER_HOST_NODE, '20.19.0')).toBeNull();
  });
});

describe('the entry points on an old Node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'node-version-'));
  const preload = join(dir, 'old-node.cjs');
  writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: '18.20.4' });\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    [
      'the stack CLI',
      ['out/stack/cli.cjs', '--port', '0', '--data-dir', join(dir, 'data')],
      /^stack: .*local stack/,
    ],
    ['the browser host', ['out/main/web.cjs', '--no-open', '--data-dir', join(dir, 'web')], /browser host/],
    ['the launcher (npm start)', ['scripts/launch.mjs', 'start'], /browser host/],
  ])('%s exits 1 with the requirement', (_name, args, what) => {
    const run = spawnSync(process.execPath, ['--require', preload, ...args], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(what);
    expect(run.stderr).toContain('needs Node 20.19.0 or newer; this is Node 18.20.4');
  });

  it('the current Node passes the browser host check', () => {
    expect(nodeVersionProblem('browser host', BROWSER_HOST_NODE)).toBeNull();
  });
});
