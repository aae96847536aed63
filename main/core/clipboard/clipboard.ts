// Writing text to the OS clipboard from main, for text the renderer must never hold (URLs and commands
// with a token in them). The Electron app installs its own implementation (main/electron/clipboard.ts);
// the browser host uses the OS's clipboard tools. Either way, the renderer only asks main to copy.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ClipboardStatus } from '../../../shared/bridge/procedures/app';

export interface Clipboard {
  status(): ClipboardStatus;
  /** Resolves once the text is on the clipboard; rejects with a readable Error otherwise. */
  writeText(text: string): Promise<void>;
}

let installed: Clipboard | undefined;

/** The Electron app calls this once at start-up; the browser host keeps the OS tools. */
export function installClipboard(clipboard: Clipboard): void {
  installed = clipboard;
}

export function currentClipboard(): Clipboard {
  return installed ?? osClipboard();
}

interface Tool {
  command: string;
  args: string[];
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

const LINUX_INSTALL =
  'install one: "sudo apt-get install xclip" (X11) or "sudo apt-get install wl-clipboard" (Wayland)';

/** Picks the clipboard tool for this platform and session, or says why there is none. */
export function findClipboardTool(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { tool: Tool } | { problem: string } {
  if (platform === 'darwin') return { tool: { command: 'pbcopy', args: [] } };
  if (platform === 'win32') return { tool: { command: 'clip', args: [] } };
  const wayland = Boolean(env.WAYLAND_DISPLAY);
  const x11 = Boolean(env.DISPLAY);
  if (!wayland && !x11) {
    return {
      problem:
        'No clipboard here: the console runs without a graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set).',
    };
  }
  const candidates: Tool[] = [];
  if (wayland) candidates.push({ command: 'wl-copy', args: [] });
  if (x11) {
    candidates.push({ command: 'xclip', args: ['-selection', 'clipboard', '-in'] });
    candidates.push({ command: 'xsel', args: ['--clipboard', '--input'] });
  }
  const found = candidates.find((candidate) => onPath(candidate.command, env));
  if (found) return { tool: found };
  return {
    problem: `No clipboard tool found (looked for ${candidates.map((c) => c.command).join(', ')}): ${LINUX_INSTALL}.`,
  };
}

/** The OS clipboard through pbcopy, clip, wl-copy, xclip or xsel. */
export function osClipboard(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): Clipboard {
  return {
    status() {
      const found = findClipboardTool(platform, env);
      return 'tool' in found
        ? { available: true, method: found.tool.command }
        : { available: false, problem: found.problem };
    },
    writeText(text) {
      const found = findClipboardTool(platform, env);
      if ('problem' in found) return Promise.reject(new Error(found.problem));
      const { command, args } = found.tool;
      return new Promise<void>((resolve, reject) => {
        // xclip and wl-copy stay in the background to serve the selection; they keep inherited pipes
        // open, so completion is the process's exit, not the pipes' close.
        const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'pipe'], env });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
        });
        child.on('error', (error) => reject(new Error(`${command} could not run: ${error.message}`)));
        child.on('exit', (code) => {
          child.stderr.destroy();
          if (code === 0) resolve();
          else
            reject(new Error(`${command} failed (exit ${code})${stderr.trim() ? `: ${stderr.trim()}` : ''}`));
        });
        child.stdin.on('error', () => {
          // An early exit closes stdin; the exit handler reports it.
        });
        child.stdin.end(text);
      });
    },
  };
}
