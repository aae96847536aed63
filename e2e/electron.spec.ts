// The same console in the real Electron app. Runs wherever the Electron binary is installed; on
// machines without it (like CI here, where it cannot be downloaded) it is skipped with the reason.
import { _electron as electron, expect, test } from '@playwright/test';
import { electronBinary } from '../scripts/electron-binary.mjs';

const binary = electronBinary();
const reason =
  'Electron binary not installed (node_modules/electron/path.txt missing; set ELECTRON_PATH to run)';
if (!binary) console.log(`electron project skipped: ${reason}`);

test.describe('Electron app', () => {
  test.skip(!binary, reason);

  test('opens one secure window with the frozen bridge and no Node in the renderer', async () => {
    const app = await electron.launch({
      executablePath: binary!,
      args: ['.'],
      env: { ...process.env, SWITCHYARD_STACK_PORT: '0', SWITCHYARD_STACK_KV_PORT: '0' },
    });
    try {
      const page = await app.firstWindow();
      await expect(page.getByRole('navigation', { name: 'Areas' })).toBeVisible();
      expect(page.url()).toMatch(/^app:\/\/switchyard\//);
      const surface = await page.evaluate(() => ({
        keys: Object.keys(window.switchyard ?? {}).sort(),
        frozen: Object.isFrozen(window.switchyard),
        hasRequire: typeof (window as unknown as { require?: unknown }).require !== 'undefined',
        hasProcess: typeof (window as unknown as { process?: unknown }).process !== 'undefined',
      }));
      expect(surface).toEqual({ keys: ['call', 'open'], frozen: true, hasRequire: false, hasProcess: false });
      const info = await page.evaluate(() => window.switchyard!.call('app.info', {}));
      expect(info).toMatchObject({ ok: true, value: { host: 'electron' } });
      // window.open is always denied.
      const opened = await page.evaluate(() => window.open('https://example.com') === null);
      expect(opened).toBe(true);
      expect(app.windows()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
