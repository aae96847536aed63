// The desktop app's save path, in plain Node: main/electron/main.ts hands dialogSaver the real
// `dialog.showSaveDialog`; here a scripted dialog plays the user (Electron's binary cannot run here), and
// everything after the user's choice — the file, its mode, replacing, refusing — is real.
import { lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_TEXT, envFile, expectMode } from '../core/testing/saving';
import { useTempDirs } from '../../shared/testing/temp-dir';
import { dialogSaver, type SaveDialogOptions, type ShowSaveDialog } from './save-dialog';

/** A dialog where the user picks `answer` (or cancels with null); records what main asked it. */
function scripted(answer: (options: SaveDialogOptions) => string | null) {
  const asked: SaveDialogOptions[] = [];
  const show: ShowSaveDialog = async (options) => {
    asked.push(options);
    const path = answer(options);
    return path === null ? { canceled: true } : { canceled: false, filePath: path };
  };
  return { asked, show };
}

describe('dialogSaver (Electron)', () => {
  const tempDir = useTempDirs();

  it('opens the dialog in the default folder with the suggested name, and writes where the user chose, 0600', async () => {
    const dir = tempDir();
    const dialog = scripted(() => join(dir, 'picked.env'));
    const saver = dialogSaver({ show: dialog.show, defaultFolder: '/home/ann/Downloads' });
    expect(saver.saving).toEqual({ kind: 'dialog' });
    expect(await saver.save(envFile('mine.env'))).toEqual({ path: join(dir, 'picked.env') });
    expect(dialog.asked).toEqual([
      {
        title: 'Save the local stack credentials (.env)',
        defaultPath: join('/home/ann/Downloads', 'mine.env'),
        buttonLabel: 'Save',
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      },
    ]);
    expect(readFileSync(join(dir, 'picked.env'), 'utf8')).toBe(ENV_TEXT);
    expectMode(join(dir, 'picked.env'), 0o600);
  });

  it('offers the default name when the page suggests none', async () => {
    const dialog = scripted(() => null);
    await dialogSaver({ show: dialog.show, defaultFolder: '/d' }).save(envFile());
    expect(dialog.asked[0]?.defaultPath).toBe(join('/d', 'switchyard-local.env'));
  });

  it('writes nothing when the user cancels', async () => {
    const dir = tempDir();
    const saver = dialogSaver({ show: scripted(() => null).show, defaultFolder: dir });
    expect(await saver.save(envFile())).toEqual({ canceled: true });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('replaces a file the user confirmed in the dialog atomically, leaving it 0600 and a link’s target untouched', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'old.env'), 'OLD=1\n', { mode: 0o644 });
    writeFileSync(join(dir, 'target'), 'target');
    symlinkSync(join(dir, 'target'), join(dir, 'link.env'));
    const saver = dialogSaver({
      show: scripted((o) => join(dir, o.defaultPath.split('/').pop()!)).show,
      defaultFolder: dir,
    });
    await saver.save(envFile('old.env'));
    await saver.save(envFile('link.env'));
    expect(readFileSync(join(dir, 'old.env'), 'utf8')).toBe(ENV_TEXT);
    expectMode(join(dir, 'old.env'), 0o600);
    expect(readFileSync(join(dir, 'target'), 'utf8')).toBe('target');
    expect(lstatSync(join(dir, 'link.env')).isFile()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['link.env', 'old.env', 'target']);
  });

  it('refuses a suggested name that is a path before any dialog opens', async () => {
    const dialog = scripted(() => '/tmp/never');
    const saver = dialogSaver({ show: dialog.show, defaultFolder: '/d' });
    for (const name of ['../x.env', '/etc/passwd', 'a/b', '..']) {
      await expect(saver.save(envFile(name))).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    }
    expect(dialog.asked).toEqual([]);
  });

  it('opens one dialog at a time: a page calling in a loop cannot stack them', async () => {
    const dir = tempDir();
    let choose: (path: string) => void = () => {};
    let opened = 0;
    const show: ShowSaveDialog = () => {
      opened++;
      return new Promise((resolve) => {
        choose = (path) => resolve({ canceled: false, filePath: path });
      });
    };
    const saver = dialogSaver({ show, defaultFolder: dir });
    const first = saver.save(envFile());
    await expect(saver.save(envFile())).rejects.toThrow('A save dialog is already open');
    choose(join(dir, 'one.env'));
    expect(await first).toEqual({ path: join(dir, 'one.env') });
    expect(opened).toBe(1);
    // Closed: the next request opens a new one.
    const second = saver.save(envFile());
    choose(join(dir, 'two.env'));
    expect(await second).toEqual({ path: join(dir, 'two.env') });
  });

  it('says so when the chosen file cannot be written', async () => {
    const dir = tempDir();
    const saver = dialogSaver({
      show: scripted(() => join(dir, 'missing', 'x.env')).show,
      defaultFolder: dir,
    });
    await expect(saver.save(envFile())).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining(`Could not write ${join(dir, 'missing', 'x.env')}`),
    });
  });
});
