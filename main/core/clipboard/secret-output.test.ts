// Token-bearing text goes to the clipboard or to a new file in the place main picks; never back to the
// renderer, and never to a place the page names.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/bridge/errors';
import { exportsFolderSaver } from '../saving/exports-folder';
import type { FileSaver } from '../saving/file-saver';
import { useTempDirs } from '../../../shared/testing/temp-dir';
import type { Clipboard } from './clipboard';
import { deliverSecret, type SecretText } from './secret-output';

const noClipboard = (): Clipboard => ({
  status: () => ({ available: false, problem: 'No clipboard here' }),
  writeText: () => Promise.reject(new Error('No clipboard here')),
});

const secret: SecretText = {
  text: 'https://x/v2/publish/y?qstash_token=SECRET',
  masked: 'https://x/v2/publish/y?qstash_token=••••CRET',
  what: 'the webhook intake URL',
  defaultName: 'intake-url.txt',
};

describe('deliverSecret', () => {
  const tempDir = useTempDirs();

  it('writes a new file, readable by the user alone, where the saver puts it; answers the masked text', async () => {
    const folder = join(tempDir(), 'exports');
    const saver = exportsFolderSaver({ folder, servedFolders: [] });
    const result = await deliverSecret(secret, { kind: 'file' }, { clipboard: noClipboard, saver });
    expect(result).toEqual({
      to: 'file',
      masked: secret.masked,
      path: join(realpathSync(folder), 'intake-url.txt'),
    });
    expect(readFileSync(join(folder, 'intake-url.txt'), 'utf8')).toBe(`${secret.text}\n`);
    if (process.platform !== 'win32')
      expect(statSync(join(folder, 'intake-url.txt')).mode & 0o777).toBe(0o600);
  });

  it('hands the saver the page’s suggested name, and says when the user canceled a dialog', async () => {
    const asked: unknown[] = [];
    const canceling: FileSaver = {
      saving: { kind: 'dialog' },
      save: async (request) => {
        asked.push(request);
        return { canceled: true };
      },
    };
    const result = await deliverSecret(
      secret,
      { kind: 'file', suggestedName: 'hook.txt' },
      { clipboard: noClipboard, saver: canceling },
    );
    expect(result).toEqual({ to: 'file', canceled: true });
    expect(asked).toEqual([
      {
        text: `${secret.text}\n`,
        suggestedName: 'hook.txt',
        defaultName: 'intake-url.txt',
        what: secret.what,
      },
    ]);
  });

  it('a clipboard failure is a readable NOT_CONFIGURED error', async () => {
    const saver = exportsFolderSaver({ folder: join(tempDir(), 'exports'), servedFolders: [] });
    const error = await deliverSecret(secret, { kind: 'clipboard' }, { clipboard: noClipboard, saver }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'NOT_CONFIGURED', message: 'No clipboard here' });
  });
});
