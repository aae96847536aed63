// A stack started by the console (--exit-with-stdin) goes away with it, even when the console is killed
// with SIGKILL and cannot stop it: the stdin pipe closes and the stack shuts down cleanly.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePortArgs, spawnStack, type StackProcess } from './test-process';

const dirs: string[] = [];
const stacks: StackProcess[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((stack) => stack.stop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'stack-supervised-'));
  dirs.push(dir);
  return dir;
}

describe('a supervised stack', () => {
  it('shuts down cleanly when its stdin closes', async () => {
    const stack = spawnStack([...freePortArgs(dataDir()), '--exit-with-stdin'], { stdin: 'pipe' });
    stacks.push(stack);
    const info = await stack.ready;
    expect(
      (
        await fetch(`${info.messages.url}/v2/keys`, {
          headers: { authorization: `Bearer ${info.messages.token}` },
        })
      ).status,
    ).toBe(200);
    stack.child.stdin!.end();
    expect(await stack.exit).toEqual({ code: 0, signal: null });
    expect(stack.stderr()).toContain('the supervising console is gone');
    await expect(fetch(`${info.messages.url}/v2/keys`)).rejects.toThrow();
  });

  it('keeps running without the flag when stdin closes (npm run stack from a script)', async () => {
    const stack = spawnStack([...freePortArgs(dataDir()), '--kv-daily-limit', '2'], { stdin: 'pipe' });
    stacks.push(stack);
    const info = await stack.ready;
    stack.child.stdin!.end();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stack.child.exitCode).toBeNull();
    // The KV limit flags reach the KV service: the third command of the day is refused.
    const kv = info.kv;
    if (!('url' in kv)) throw new Error(`KV did not start: ${kv.error}`);
    const ping = () => fetch(`${kv.url}/ping`, { headers: { authorization: `Bearer ${kv.token}` } });
    expect((await ping()).status).toBe(200);
    expect((await ping()).status).toBe(200);
    expect(await (await ping()).json()).toEqual({ error: 'ERR max daily request limit exceeded' });
  });

  it('refuses bad limit flags with the usage', async () => {
    const stack = spawnStack(['--kv-daily-limit', 'lots']);
    expect((await stack.exit).code).toBe(2);
    expect(stack.stderr()).toContain(
      "--kv-daily-limit must be a whole number of commands, at least 1, got 'lots'",
    );
  });
});
