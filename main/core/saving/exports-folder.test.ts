// The browser host's exports folder at the file-system level: private, outside the served folder, no
// overwrite, no way out of it.
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_TEXT, envFile, expectMode } from '../testing/saving';
import { useTempDirs } from '../../../shared/testing/temp-dir';
import { exportsFolderSaver, numbered } from './exports-folder';

describe('exportsFolderSaver', () => {
  const tempDir = useTempDirs();

  it('creates the folder 0700 and each file 0600, with the suggested or the default name', async () => {
    const folder = join(tempDir(), 'data', 'exports');
    const saver = exportsFolderSaver({ folder, servedFolders: [] });
    expect(saver.saving).toEqual({ kind: 'folder', folder });
    const named = await saver.save(envFile('mine.env'));
    const unnamed = await saver.save(envFile());
    const real = realpathSync(folder);
    expect(named).toEqual({ path: join(real, 'mine.env') });
    expect(unnamed).toEqual({ path: join(real, 'switchyard-local.env') });
    expect(readFileSync(join(folder, 'mine.env'), 'utf8')).toBe(ENV_TEXT);
    expectMode(folder, 0o700);
    expectMode(join(folder, 'mine.env'), 0o600);
  });

  it('tightens an existing exports folder that an older version left open', async () => {
    const folder = join(tempDir(), 'exports');
    mkdirSync(folder, { mode: 0o755 });
    await exportsFolderSaver({ folder, servedFolders: [] }).save(envFile());
    expectMode(folder, 0o700);
  });

  it('never overwrites: a taken name gets a number, and the first file keeps its content', async () => {
    const folder = join(tempDir(), 'exports');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.txt'), 'keep me');
    const saver = exportsFolderSaver({ folder, servedFolders: [] });
    expect(await saver.save(envFile('a.txt'))).toEqual({ path: join(realpathSync(folder), 'a-2.txt') });
    expect(await saver.save(envFile('a.txt'))).toEqual({ path: join(realpathSync(folder), 'a-3.txt') });
    expect(readFileSync(join(folder, 'a.txt'), 'utf8')).toBe('keep me');
  });

  it('never writes through a link planted under a suggested name', async () => {
    const dir = tempDir();
    const folder = join(dir, 'exports');
    mkdirSync(folder);
    writeFileSync(join(dir, 'victim'), 'untouched');
    symlinkSync(join(dir, 'victim'), join(folder, 'x.txt'));
    const saved = await exportsFolderSaver({ folder, servedFolders: [] }).save(envFile('x.txt'));
    expect(saved).toEqual({ path: join(realpathSync(folder), 'x-2.txt') });
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('untouched');
  });

  it('refuses names that are paths, and writes nothing anywhere', async () => {
    const dir = tempDir();
    const folder = join(dir, 'exports');
    const saver = exportsFolderSaver({ folder, servedFolders: [] });
    for (const name of [
      '../up.txt',
      '/etc/x',
      'a/b.txt',
      'a\\b.txt',
      '..',
      '.',
      '',
      ' x',
      'x\u0000y',
      'C:x',
      'x'.repeat(201),
    ]) {
      await expect(saver.save(envFile(name)), JSON.stringify(name)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      });
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses to write when the exports folder is inside a served folder, directly or through a link', async () => {
    const dir = tempDir();
    const served = join(dir, 'renderer');
    mkdirSync(served);
    const inside = exportsFolderSaver({ folder: join(served, 'data', 'exports'), servedFolders: [served] });
    await expect(inside.save(envFile())).rejects.toMatchObject({
      code: 'NOT_CONFIGURED',
      message: expect.stringContaining('which the browser host serves over HTTP'),
    });
    expect(readdirSync(served)).toEqual([]);
    mkdirSync(join(dir, 'data'));
    symlinkSync(served, join(dir, 'data', 'exports'));
    const linked = exportsFolderSaver({ folder: join(dir, 'data', 'exports'), servedFolders: [served] });
    await expect(linked.save(envFile())).rejects.toMatchObject({ code: 'NOT_CONFIGURED' });
    expect(readdirSync(served)).toEqual([]);
  });

  it('numbers names before their extension', () => {
    expect(numbered('a.txt', 1)).toBe('a.txt');
    expect(numbered('a.txt', 2)).toBe('a-2.txt');
    expect(numbered('.env', 3)).toBe('.env-3');
    expect(numbered('switchyard-local.env', 2)).toBe('switchyard-local-2.env');
  });
});
