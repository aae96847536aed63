// The browser host's clipboard against a real X server (Xvfb) and the real xclip: what main writes is what
// any other program reads back. Needs `apt-get install xvfb xclip`; fails with that command when missing.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClipboardTool, osClipboard } from './clipboard';

function requireTool(command: string, pkg: string): void {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
  } catch {
    throw new Error(`${command} is missing: install it with "sudo apt-get install ${pkg}"`);
  }
}

let xvfb: ChildProcess | undefined;
let display = '';

beforeAll(async () => {
  if (process.platform !== 'linux') return;
  requireTool('Xvfb', 'xvfb');
  requireTool('xclip', 'xclip');
  // A display number nobody uses: pick from the pid to keep parallel runs apart.
  for (let n = 90 + (process.pid % 200); ; n++) {
    if (existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`)) continue;
    display = `:${n}`;
    break;
  }
  xvfb = spawn('Xvfb', [display, '-nolisten', 'tcp', '-screen', '0', '640x480x24'], { stdio: 'ignore' });
  const socket = `/tmp/.X11-unix/X${display.slice(1)}`;
  const deadline = Date.now() + 10_000;
  while (!existsSync(socket)) {
    if (Date.now() > deadline) throw new Error(`Xvfb did not start on ${display}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(() => {
  xvfb?.kill('SIGTERM');
});

describe('osClipboard', () => {
  it.runIf(process.platform === 'linux')(
    'writes to the X clipboard so that other programs read it back',
    async () => {
      const env = { ...process.env, DISPLAY: display, WAYLAND_DISPLAY: '' };
      const clipboard = osClipboard('linux', env);
      expect(clipboard.status()).toEqual({ available: true, method: 'xclip' });
      const text = `https://example.com/v2/publish/x?qstash_token=secret-${Date.now()}&é=ü`;
      await clipboard.writeText(text);
      const readBack = execFileSync('xclip', ['-o', '-selection', 'clipboard'], { env, encoding: 'utf8' });
      expect(readBack).toBe(text);
    },
  );

  it('says why there is no clipboard, with the command that fixes it', () => {
    expect(findClipboardTool('linux', { PATH: '/usr/bin' })).toEqual({
      problem:
        'No clipboard here: the console runs without a graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set).',
    });
    const none = osClipboard('linux', { PATH: '/nonexistent', DISPLAY: ':0' });
    expect(none.status()).toEqual({
      available: false,
      problem:
        'No clipboard tool found (looked for xclip, xsel): install one: "sudo apt-get install xclip" (X11) or "sudo apt-get install wl-clipboard" (Wayland).',
    });
    return expect(none.writeText('x')).rejects.toThrow(/sudo apt-get install xclip/);
  });

  it('uses the platform tools on macOS and Windows', () => {
    expect(findClipboardTool('darwin', {})).toEqual({ tool: { command: 'pbcopy', args: [] } });
    expect(findClipboardTool('win32', {})).toEqual({ tool: { command: 'clip', args: [] } });
  });
});
