// `npm start`'s ready output (issue 19 item 11): the stack's URLs and the path of a private .env file with
// its credentials, printed when the stack is ready (again when it moved), and the reason when it failed.
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StackStatus } from '../../../shared/stack-status';
import { announceLocalStack, LOCAL_ENV_FILE } from './ready-output';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fakeStack(initial: StackStatus) {
  const events = new EventEmitter<{ change: [StackStatus] }>();
  let current = initial;
  return {
    status: () => current,
    on: (event: 'change', listener: (status: StackStatus) => void) => events.on(event, listener),
    set(status: StackStatus) {
      current = status;
      events.emit('change', status);
    },
  };
}

const ready = (port: number): StackStatus => ({
  state: 'ready',
  message: 'Running.',
  messagesUrl: `http://127.0.0.1:${port}`,
  kvUrl: `http://127.0.0.1:${port - 1}`,
  log: [],
});

describe('the local stack in the ready output', () => {
  it('prints nothing while starting, then the URLs and a 0600 .env path; again only when they change', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-ready-'));
    dirs.push(dataDir);
    const stack = fakeStack({ state: 'starting', message: 'Starting…', log: [] });
    const printed: string[] = [];
    let token = 'token-one';
    announceLocalStack({
      dataDir,
      stack,
      localEnv: () => `QSTASH_TOKEN=${token}\n`,
      print: (l) => printed.push(l),
    });
    expect(printed).toEqual([]);

    stack.set(ready(8080));
    const file = join(dataDir, LOCAL_ENV_FILE);
    expect(printed).toEqual([
      `Local stack: messages and workflows at http://127.0.0.1:8080, KV at http://127.0.0.1:8079\n` +
        `Local stack credentials for your app (.env, readable by you only): ${file}`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('QSTASH_TOKEN=token-one\n');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    stack.set(ready(8080)); // the same again: nothing new
    expect(printed).toHaveLength(1);

    token = 'token-two';
    stack.set(ready(9090)); // restarted elsewhere: printed again, the file rewritten
    expect(printed).toHaveLength(2);
    expect(printed[1]).toContain('http://127.0.0.1:9090');
    expect(readFileSync(file, 'utf8')).toBe('QSTASH_TOKEN=token-two\n');
  });

  it('says why when the stack failed or its KV is unavailable, and when the .env could not be made', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-ready-'));
    dirs.push(dataDir);
    const stack = fakeStack({ state: 'failed', message: 'Port 8080 is in use.', log: [] });
    const printed: string[] = [];
    announceLocalStack({
      dataDir,
      stack,
      localEnv: () => {
        throw new Error('The local stack did not give QSTASH_TOKEN');
      },
      print: (l) => printed.push(l),
    });
    expect(printed).toEqual(['Local stack failed: Port 8080 is in use.']);
    stack.set({ ...ready(8080), kvUrl: undefined, kvError: 'redis-server not found' });
    expect(printed[1]).toBe(
      'Local stack: messages and workflows at http://127.0.0.1:8080, KV unavailable (redis-server not found)\n' +
        'Local stack credentials: not written (The local stack did not give QSTASH_TOKEN)',
    );
  });
});
