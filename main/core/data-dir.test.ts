// The console's data folder at the file-system level: 0700, every file 0600 — those main writes now and
// those an older version left 0644 in a 0755 folder — checked through the real console core and bridge
// router, with the umask most systems have (022).
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyComposer } from '../../shared/composer/model';
import { KvHistoryStore } from './services/kv/history-store';
import { createTestConsoleCore } from './testing/console-core';
import { useTempDirs } from '../../shared/testing/temp-dir';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every entry under `dir` (relative path → mode), links and sockets left out. */
function modes(dir: string, prefix = ''): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      out[`${prefix}${name}/`] = stat.mode & 0o777;
      Object.assign(out, modes(path, `${prefix}${name}/`));
    } else if (stat.isFile()) out[`${prefix}${name}`] = stat.mode & 0o777;
  }
  return out;
}

let umask: number;
beforeEach(() => {
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
});

describe.skipIf(process.platform === 'win32')('the console data folder', () => {
  const tempDir = useTempDirs();

  it('is created 0700, and every file main writes through the bridge is 0600', async () => {
    const dir = tempDir();
    const core = createTestConsoleCore(dir);
    try {
      const call = async (name: string, input: unknown) => {
        const result = await core.router.call(name, input);
        if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
        return result.value;
      };
      const profile = (await call('profiles.create', {
        settings: {
          name: 'Prod',
          env: 'prod',
          messagesUrl: 'http://127.0.0.1:9',
          kvUrl: '',
          readOnly: false,
          confirmDangerous: true,
        },
        secrets: { messageToken: 'tok-secret-0123456789' },
      })) as { id: string };
      await call('messages.composer.saveDraft', { profileId: profile.id, key: 'compose', value: null });
      await call('workflows.views.save', { profileId: profile.id, name: 'failed', filters: {} });
      await call('messages.composer.copyCurl', {
        profileId: profile.id,
        model: emptyComposer({ url: 'https://example.com/x' }),
        to: { kind: 'file' },
      });
      new KvHistoryStore(join(dir, 'data', 'kv-history.json')).add(profile.id, {
        text: 'GET a',
        kind: 'command',
        ok: true,
      });
    } finally {
      await core.close();
    }
    const data = join(dir, 'data');
    expect(mode(data)).toBe(0o700);
    const written = modes(data);
    expect(Object.keys(written)).toEqual(
      expect.arrayContaining([
        'profiles.json',
        'secrets.json',
        'composer.json',
        'workflows.json',
        'kv-history.json',
        'exports/',
        'exports/switchyard-curl.sh',
      ]),
    );
    for (const [path, m] of Object.entries(written)) {
      expect([path, m.toString(8)]).toEqual([path, path.endsWith('/') ? '700' : '600']);
    }
  });

  it('tightens a folder an older version left open (0755, files 0644) at start-up', async () => {
    const data = join(tempDir(), 'data');
    mkdirSync(join(data, 'exports'), { recursive: true });
    const files = ['profiles.json', 'composer.json', 'kv-history.json', 'workflows.json', 'exports/old.env'];
    for (const file of files) writeFileSync(join(data, file), file.endsWith('.json') ? '{}' : 'X=1');
    writeFileSync(join(data, 'profiles.json'), '{"version":1,"activeId":"local","profiles":[]}');
    for (const path of [data, join(data, 'exports')]) chmodSync(path, 0o755);
    for (const file of files) chmodSync(join(data, file), 0o644);

    const core = createTestConsoleCore(join(data, '..'));
    await core.close();

    // (The stores move the placeholder "{}" files aside as unreadable: those copies must be private too.)
    const after = modes(data);
    expect(Object.keys(after)).toHaveLength(files.length + 1);
    for (const [path, m] of Object.entries(after)) {
      expect([path, m.toString(8)]).toEqual([path, path.endsWith('/') ? '700' : '600']);
    }
    expect(mode(data)).toBe(0o700);
  });
});
