// The data dir holds the message token, the signing keys and the KV credentials: it and its files are for
// the user alone (0700 / 0600) whatever the umask, and a data dir left by an older stack is tightened.
import { chmodSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

import { startTestStack, tempDir } from './messages/test-support';

let umask: number;
const dirs: string[] = [];

beforeEach(() => {
  // The most permissive umask: every mode below comes from the stack, not from the umask.
  umask = process.umask(0);
});

afterEach(() => {
  process.umask(umask);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

it('creates the data dir 0700 and stack.db, -wal, -shm, the lock and the KV credentials 0600', async () => {
  const parent = tempDir();
  dirs.push(parent);
  const dataDir = join(parent, 'nested', 'stack');
  const test = await startTestStack({ dataDir, randomCredentials: true, kv: true, kvPort: 0 });
  try {
    expect(test.stack.info.kv).not.toHaveProperty('error');
    const db = join(dataDir, 'stack.db');
    expect(mode(dataDir)).toBe('700');
    expect(mode(join(parent, 'nested'))).toBe('700');
    expect(readdirSync(dataDir)).toEqual(
      expect.arrayContaining(['stack.db', 'stack.db-wal', 'stack.db-shm']),
    );
    for (const file of [db, `${db}-wal`, `${db}-shm`, join(dataDir, 'stack.lock')]) {
      expect(mode(file), file).toBe('600');
    }
    expect(mode(join(dataDir, 'kv'))).toBe('700');
    // KV's secrets are in stack.db (0600, checked above), the stack's one credentials store: no file of their own.
    expect(existsSync(join(dataDir, 'kv', 'credentials.json'))).toBe(false);

    // redis-server's own files: the AOF with the data, and users.acl with the password hashes, which it
    // rewrites on every ACL SAVE (the REST API's ACL SETUSER saves), all with the umask it runs under.
    const kv = test.stack.info.kv as { url: string; token: string };
    for (const command of [
      ['SET', 'private', 'value'],
      ['ACL', 'SETUSER', 'alice', 'on', '>alice-password', '~*', '+@read'],
    ]) {
      const response = await fetch(kv.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${kv.token}` },
        body: JSON.stringify(command),
      });
      expect(response.status, await response.text()).toBe(200);
    }
    const redisDir = join(dataDir, 'kv', 'redis');
    expect(mode(redisDir)).toBe('700');
    expect(mode(join(redisDir, 'appendonlydir'))).toBe('700');
    const aofFiles = readdirSync(join(redisDir, 'appendonlydir'));
    expect(aofFiles.length).toBeGreaterThan(0);
    for (const file of [
      ...aofFiles.map((name) => join(redisDir, 'appendonlydir', name)),
      join(redisDir, 'users.acl'),
      join(redisDir, 'owner.json'),
      join(redisDir, 'redis.conf'),
    ]) {
      expect(mode(file), file).toBe('600');
    }
  } finally {
    await test.close(false);
  }
});

it('tightens a data dir an older stack left readable by others', async () => {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const withKv = { dataDir, randomCredentials: true, kv: true, kvPort: 0 };
  const first = await startTestStack(withKv);
  await first.close(false);
  const db = join(dataDir, 'stack.db');
  chmodSync(dataDir, 0o755);
  chmodSync(db, 0o644);
  expect(mode(db)).toBe('644');
  // What redis-server left under the usual umask before it ran under 077.
  const redisDir = join(dataDir, 'kv', 'redis');
  const aofDir = join(redisDir, 'appendonlydir');
  const aofFiles = readdirSync(aofDir).map((name) => join(aofDir, name));
  for (const dir of [redisDir, aofDir]) chmodSync(dir, 0o755);
  for (const file of [...aofFiles, join(redisDir, 'users.acl')]) chmodSync(file, 0o644);

  const again = await startTestStack(withKv);
  try {
    expect(mode(dataDir)).toBe('700');
    for (const file of [db, `${db}-wal`, `${db}-shm`]) expect(mode(file), file).toBe('600');
    for (const dir of [redisDir, aofDir]) expect(mode(dir), dir).toBe('700');
    for (const file of [...aofFiles, join(redisDir, 'users.acl')]) expect(mode(file), file).toBe('600');
  } finally {
    await again.close(false);
  }
});
