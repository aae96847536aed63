// Token-bearing text to a file the user names, for hosts without a clipboard: a new file for the user
// alone, never an overwrite, and a readable error for every way the path can be wrong.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/bridge/errors';
import { useTempDirs } from '../testing/temp-dir';
import type { Clipboard } from './clipboard';
import { deliverSecret, resolveTargetPath } from './secret-output';

const noClipboard = (): Clipboard => ({
  status: () => ({ available: false, problem: 'No clipboard here' }),
  writeText: () => Promise.reject(new Error('No clipboard here')),
});

describe('deliverSecret', () => {
  const tempDir = useTempDirs();

  it('writes a new file readable by the user alone when no clipboard exists', async () => {
    const path = join(tempDir(), 'intake-url.txt');
    const result = await deliverSecret(
      'https://x/v2/publish/y?qstash_token=SECRET',
      { kind: 'file', path },
      noClipboard,
    );
    expect(result).toEqual({ to: 'file', path });
    expect(readFileSync(path, 'utf8')).toBe('https://x/v2/publish/y?qstash_token=SECRET\n');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('never overwrites an existing file', async () => {
    const path = join(tempDir(), '.env');
    writeFileSync(path, 'KEEP=me\n');
    await expect(deliverSecret('NEW=1', { kind: 'file', path }, noClipboard)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: `${path} already exists: Switchyard never overwrites a file. Choose a new name or remove it first.`,
    });
    expect(readFileSync(path, 'utf8')).toBe('KEEP=me\n');
  });

  it('says what is wrong with a path', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    await expect(deliverSecret('x', { kind: 'file', path: 'relative.txt' }, noClipboard)).rejects.toThrow(
      'Give a full path (starting with / or ~/), not "relative.txt".',
    );
    await expect(
      deliverSecret('x', { kind: 'file', path: join(dir, 'nope', 'a.txt') }, noClipboard),
    ).rejects.toThrow(`The folder of ${join(dir, 'nope', 'a.txt')} does not exist.`);
    await expect(deliverSecret('x', { kind: 'file', path: join(dir, 'sub') }, noClipboard)).rejects.toThrow(
      /already exists|is a folder/,
    );
  });

  it('expands ~/ to the home folder', () => {
    expect(resolveTargetPath('~/hook.txt', '/home/ann')).toBe('/home/ann/hook.txt');
    expect(resolveTargetPath('  /tmp/a  ', '/home/ann')).toBe('/tmp/a');
  });

  it('a clipboard failure is a readable NOT_CONFIGURED error', async () => {
    const error = await deliverSecret('x', { kind: 'clipboard' }, noClipboard).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'NOT_CONFIGURED', message: 'No clipboard here' });
  });
});
