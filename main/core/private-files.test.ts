// The private-file helpers: a data folder that is not the console's is left alone, links are never
// followed, new files never replace anything. (The console's own folder end to end: data-dir.test.ts.)
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../shared/testing/temp-dir';
import { isInside, preparePrivateDataDir, replacePrivateFile, writeNewPrivateFile } from './private-files';

const mode = (path: string) => statSync(path).mode & 0o777;

describe.skipIf(process.platform === 'win32')('preparePrivateDataDir', () => {
  const tempDir = useTempDirs();

  it('leaves a folder that is not the console’s as it was (a --data-dir pointing at, say, a home folder)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    chmodSync(join(dir, 'notes.txt'), 0o644);
    chmodSync(dir, 0o755);
    expect(preparePrivateDataDir(dir)).toEqual({ tightened: false });
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'notes.txt'))).toBe(0o644);
  });

  it('never follows a symbolic link out of the folder', () => {
    const dir = tempDir();
    const outside = join(dir, 'outside.txt');
    writeFileSync(outside, 'x');
    chmodSync(outside, 0o644);
    const data = join(dir, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'profiles.json'), '{}');
    symlinkSync(outside, join(data, 'link'));
    preparePrivateDataDir(data);
    expect(mode(outside)).toBe(0o644);
    expect(mode(join(data, 'profiles.json'))).toBe(0o600);
  });
});

describe('private files', () => {
  const tempDir = useTempDirs();

  it('writeNewPrivateFile refuses an existing file or link; replacePrivateFile replaces the link, not its target', () => {
    const dir = tempDir();
    const target = join(dir, 'target');
    writeFileSync(target, 'target');
    symlinkSync(target, join(dir, 'link'));
    expect(() => writeNewPrivateFile(join(dir, 'link'), 'x')).toThrow(/EEXIST/);
    expect(() => writeNewPrivateFile(target, 'x')).toThrow(/EEXIST/);
    replacePrivateFile(join(dir, 'link'), 'new');
    expect(readFileSync(target, 'utf8')).toBe('target');
    expect(lstatSync(join(dir, 'link')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'link'), 'utf8')).toBe('new');
    if (process.platform !== 'win32') expect(mode(join(dir, 'link'))).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['link', 'target']);
  });

  it('isInside', () => {
    expect(isInside('/a/b', '/a')).toBe(true);
    expect(isInside('/a', '/a')).toBe(true);
    expect(isInside('/ab', '/a')).toBe(false);
    expect(isInside('/a/../b', '/a')).toBe(false);
  });
});
