import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

// Temporary folders for main's and the stack's tests, removed when the test (or the suite) is over.

/** A fresh temporary folder per call, removed after the test. */
export function useTempDirs(prefix = 'switchyard-test-'): () => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** One temporary folder for the whole file or describe block, removed after its last test. */
export function useSuiteTempDir(prefix = 'switchyard-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
