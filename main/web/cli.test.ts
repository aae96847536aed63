// The browser host as a real process (out/main/web.cjs, built by vitest's global setup): on SIGTERM it
// shuts down and its last log line, "stopped", reaches stderr before the process ends.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const WEB = join(process.cwd(), 'out', 'main', 'web.cjs');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('npm run web', () => {
  it('logs "stopped" as its last line on SIGTERM and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-web-cli-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, [WEB, '--port', '0', '--no-open', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // 'close' comes after both pipes are fully read: no waiting for time.
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Switchyard ready at')) resolve();
      });
      void closed.then(() => reject(new Error(`web host exited before it was ready:\n${stderr}`)));
    });
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
    const lines = stderr.trim().split('\n');
    const last = JSON.parse(lines[lines.length - 1] as string) as { msg: string };
    expect(last.msg).toBe('stopped');
    expect(stderr).toContain('"signal":"SIGTERM"');
  });

  it('refuses a data folder inside the folder it serves (profiles and tokens would be served over HTTP)', async () => {
    const dataDir = join(process.cwd(), 'out', 'renderer', `data-${process.pid}`);
    const child = spawn(process.execPath, [WEB, '--port', '0', '--no-open', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    expect(code).toBe(2);
    expect(stderr).toContain('which the browser host serves over HTTP');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('prints where the local stack listens and the path of its .env once it is up (issue 19 item 11)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-web-cli-'));
    dirs.push(dataDir);
    const child = spawn(
      process.execPath,
      [WEB, '--port', '0', '--no-open', '--data-dir', dataDir, '--stack-port', '0', '--stack-kv-port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (/credentials[^\n]*: \S+\n/.test(stdout)) resolve();
        });
        void closed.then(() =>
          reject(new Error(`web host exited before the stack was up:\n${stdout}\n${stderr}`)),
        );
      });
      const url = /Local stack: messages and workflows at (http:\/\/127\.0\.0\.1:\d+), KV at (http:\S+)/.exec(
        stdout,
      );
      const file = /credentials for your app \(\.env, readable by you only\): (\S+)/.exec(stdout)?.[1];
      expect(url, stdout).not.toBeNull();
      expect(file, stdout).toBeDefined();
      const env = readFileSync(file as string, 'utf8');
      expect(env).toContain(`QSTASH_URL=${url?.[1]}\n`);
      expect(env).toContain(`UPSTASH_REDIS_REST_URL=${url?.[2]}\n`);
      expect(env).toMatch(/^QSTASH_TOKEN=\S{8,}$/m);
      expect(statSync(file as string).mode & 0o777).toBe(0o600);
      // The printed URL and token work: the message API answers the .env's token.
      const token = /^QSTASH_TOKEN=(\S+)$/m.exec(env)?.[1];
      const response = await fetch(`${url?.[1]}/v2/queues`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
  });

  it('opens the browser on a private file, not on the URL with its secret (which `ps` would show)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-web-cli-'));
    const bin = mkdtempSync(join(tmpdir(), 'switchyard-web-opener-'));
    dirs.push(dataDir, bin);
    // A stand-in for xdg-open: it records the arguments it was given, and so what any local user could read.
    const argsFile = join(bin, 'args');
    writeFileSync(
      join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}.tmp'\nmv '${argsFile}.tmp' '${argsFile}'\n`,
      {
        mode: 0o755,
      },
    );
    const child = spawn(process.execPath, [WEB, '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DISPLAY: ':99', PATH: `${bin}:${process.env.PATH ?? ''}` },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    try {
      const args = await eventuallyRead(argsFile, closed);
      const url = /Switchyard ready at (\S+)/.exec(stdout)?.[1] ?? '';
      const secret = /#secret=(\S+)/.exec(url)?.[1] ?? '';
      expect(secret.length).toBeGreaterThan(16);
      const page = join(dataDir, 'open.html');
      expect(args).toBe(`${page}\n`);
      expect(args).not.toContain(secret);
      expect(statSync(page).mode & 0o777).toBe(0o600);
      // The page sends the browser on to the URL, secret and all.
      expect(readFileSync(page, 'utf8')).toContain(`<meta http-equiv="refresh" content="0; url=${url}">`);
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
  });
});

/** The file's text once it exists (the opener writes it whole, by rename); fails if the host exits first. */
async function eventuallyRead(file: string, exited: Promise<unknown>): Promise<string> {
  let done = false;
  void exited.then(() => (done = true));
  for (let i = 0; i < 1500 && !done; i++) {
    if (existsSync(file)) return readFileSync(file, 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(
    `${file} was never written: the host ${done ? 'exited' : 'did not open a browser in 30 s'}`,
  );
}
