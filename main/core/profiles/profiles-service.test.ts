import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProfileSettings } from '../../../shared/profiles';
import { createSecretStore } from '../secrets/secret-store';
import { useTempDirs } from '../../../shared/testing/temp-dir';
import { ServiceApi } from '../http/service-api';
import { KvClient } from '../services/kv/client';
import { messageEndpoint } from '../services/messages/client';
import { ProfileStore } from './profile-store';
import {
  LOCAL_STACK_DOWN,
  type LocalStackEndpoints,
  type LocalStackState,
  ProfilesService,
} from './profiles-service';

const TOKEN = 'qstash-token-SECRET-9f8e7d6c5b4a';
const settings: ProfileSettings = {
  name: 'Staging',
  env: 'dev',
  messagesUrl: 'https://qstash.upstash.io',
  kvUrl: 'https://kv.example.upstash.io',
  readOnly: false,
  confirmDangerous: true,
};

describe('profiles service', () => {
  const tempDir = useTempDirs();

  function make(local: LocalStackEndpoints | null = null) {
    const dir = tempDir();
    const service = new ProfilesService(
      new ProfileStore(join(dir, 'profiles.json')),
      createSecretStore(join(dir, 'secrets.json')),
      () => local,
    );
    return { service, dir };
  }

  it('always lists the built-in Local profile first, active by default', () => {
    const { service } = make();
    const { profiles, activeId } = service.list();
    expect(profiles[0]).toMatchObject({ id: 'local', name: 'Local', env: 'local', builtIn: true });
    expect(activeId).toBe('local');
  });

  it('says the local stack is not running, not “set a URL in Profiles”, while Local has no stack', async () => {
    const { service } = make(null);
    const local = service.resolve('local');
    const down = { code: 'UNREACHABLE', message: LOCAL_STACK_DOWN };
    await expect(new ServiceApi(messageEndpoint(local)).request({ path: '/v2/keys' })).rejects.toMatchObject(
      down,
    );
    expect(() => new KvClient(local).token()).toThrow(LOCAL_STACK_DOWN);
    expect(() => new KvClient(local).url('/')).toThrow(LOCAL_STACK_DOWN);
    // Once the stack runs, the same profile reaches it.
    const running = make({
      messagesUrl: 'http://127.0.0.1:8080',
      kvUrl: 'http://127.0.0.1:8079',
      secrets: { messageToken: 'm', kvToken: 'k' },
    }).service.resolve('local');
    expect(new ServiceApi(messageEndpoint(running)).url('/v2/keys')).toBe('http://127.0.0.1:8080/v2/keys');
    expect(new KvClient(running).url('/')).toBe('http://127.0.0.1:8079/');
  });

  it('says what the supervisor is doing: restarting by itself, starting, stopped or failed', () => {
    const dir = tempDir();
    let state: LocalStackState = {
      state: 'starting',
      message: 'The local stack exited (signal SIGKILL); restarting…',
    };
    const service = new ProfilesService(
      new ProfileStore(join(dir, 'profiles.json')),
      createSecretStore(join(dir, 'secrets.json')),
      () => null,
      () => state,
    );
    const unavailable = () => service.resolve('local').unavailable;
    // Restarting after a crash: nothing to start, only to wait.
    expect(unavailable()).toBe(
      'The local stack exited (signal SIGKILL); restarting… No need to start it: requests go through again once it runs.',
    );
    expect(() => new KvClient(service.resolve('local')).token()).toThrow(/restarting… No need to start it/);
    state = { state: 'starting', message: 'Starting the local stack…' };
    expect(unavailable()).toMatch(/^Starting the local stack… No need to start it/);
    state = { state: 'stopped', message: 'The local stack was stopped.' };
    expect(unavailable()).toMatch(/^The local stack is stopped: start it on the Local stack page\./);
    state = { state: 'failed', message: 'The local stack exited (signal SIGKILL) 3 times in a row.' };
    expect(unavailable()).toBe(LOCAL_STACK_DOWN);
    state = { state: 'unavailable', message: 'Local stack not available: stack.js is missing.' };
    expect(unavailable()).toBe('Local stack not available: stack.js is missing.');
  });

  it('shows only hasValue and a masked hint for secrets, never the value', () => {
    const { service, dir } = make();
    const created = service.create(settings, { messageToken: TOKEN });
    expect(created.secrets.messageToken).toEqual({ hasValue: true, hint: '••••5b4a' });
    expect(created.secrets.kvToken).toEqual({ hasValue: false, hint: null });
    expect(JSON.stringify(service.list())).not.toContain(TOKEN);
    // Settings on disk carry no secret either.
    expect(readFileSync(join(dir, 'profiles.json'), 'utf8')).not.toContain(TOKEN);
    expect(service.resolve(created.id).secret('messageToken')).toBe(TOKEN);
  });

  it('updates settings, sets and clears secrets independently', () => {
    const { service } = make();
    const { id } = service.create(settings, { messageToken: TOKEN, kvToken: 'kv-token-abcdefgh1234' });
    const updated = service.update(id, { env: 'prod', readOnly: true }, { kvToken: null });
    expect(updated).toMatchObject({ env: 'prod', readOnly: true, name: 'Staging' });
    expect(updated.secrets.kvToken.hasValue).toBe(false);
    expect(updated.secrets.messageToken.hasValue).toBe(true);
    expect(service.isReadOnly(id)).toBe(true);
  });

  it('keeps a stored token to the host it was saved for: a URL moved elsewhere needs it typed again', () => {
    const { service } = make();
    const kv = { kvToken: 'kv-token-abcdefgh1234', kvReadOnlyToken: 'kv-ro-token-abcdefgh5678' };
    const { id } = service.create(settings, { messageToken: TOKEN, ...kv });
    const attacker = 'http://127.0.0.1:47111';

    // Another origin, token not typed again: refused, and nothing changes (what a hostile page would try).
    expect(() => service.update(id, { messagesUrl: attacker }, {})).toThrow(
      'The Message token was saved for https://qstash.upstash.io. Type it again, or clear it, to use ' +
        'http://127.0.0.1:47111: a stored token is only sent to the host it was saved for.',
    );
    expect(() => service.update(id, { kvUrl: `${attacker}/kv` }, { kvToken: 'typed-again-1234' })).toThrow(
      /KV read-only token was saved for https:\/\/kv\.example\.upstash\.io/,
    );
    const after = service.resolve(id);
    expect(after.settings).toMatchObject({ messagesUrl: settings.messagesUrl, kvUrl: settings.kvUrl });
    expect(after.secret('kvToken')).toBe(kv.kvToken);

    // The same origin (another path or region of one host), or no URL at all: the tokens stay.
    service.update(id, { messagesUrl: 'https://qstash.upstash.io/', kvUrl: '' }, {});
    expect(service.resolve(id).secret('messageToken')).toBe(TOKEN);
    expect(service.resolve(id).secret('kvToken')).toBe(kv.kvToken);
    // Setting a URL again after it was empty is a move too: the token was not saved for that host.
    expect(() => service.update(id, { kvUrl: settings.kvUrl }, {})).toThrow(/saved before this URL was set/);

    // Typed again, or cleared, in the same save: accepted.
    service.update(id, { messagesUrl: attacker }, { messageToken: 'the-token-for-the-new-host' });
    expect(service.resolve(id).secret('messageToken')).toBe('the-token-for-the-new-host');
    service.update(id, { kvUrl: attacker }, { kvToken: null, kvReadOnlyToken: null });
    expect(service.resolve(id).settings.kvUrl).toBe(attacker);
    expect(service.resolve(id).secret('kvToken')).toBeUndefined();
  });

  it('holds a duplicated profile to the same rule', () => {
    const { service } = make();
    const copy = service.duplicate(service.create(settings, { messageToken: TOKEN }).id);
    expect(() => service.update(copy.id, { messagesUrl: 'https://elsewhere.example' }, {})).toThrow(
      /Type it again, or clear it/,
    );
    expect(service.resolve(copy.id).secret('messageToken')).toBe(TOKEN);
  });

  it('refuses duplicate names and edits to Local', () => {
    const { service } = make();
    service.create(settings, {});
    expect(() => service.create({ ...settings, name: 'staging' }, {})).toThrow(/already exists/);
    expect(() => service.create({ ...settings, name: 'Local' }, {})).toThrow(/already exists/);
    expect(() => service.update('local', { name: 'Mine' }, {})).toThrow(/built in/);
    expect(() => service.delete('local')).toThrow(/built in/);
  });

  it('duplicates a profile with its secrets under a free name', () => {
    const { service } = make();
    const original = service.create(settings, { messageToken: TOKEN });
    const copy = service.duplicate(original.id);
    expect(copy.name).toBe('Staging copy');
    expect(service.duplicate(original.id).name).toBe('Staging copy 2');
    expect(service.resolve(copy.id).secret('messageToken')).toBe(TOKEN);
  });

  it('duplicates Local into an editable profile with the stack’s URLs and tokens', () => {
    const { service } = make({
      messagesUrl: 'http://127.0.0.1:8080',
      kvUrl: 'http://127.0.0.1:8079',
      secrets: { messageToken: TOKEN },
    });
    const copy = service.duplicate('local');
    expect(copy).toMatchObject({ builtIn: false, messagesUrl: 'http://127.0.0.1:8080', name: 'Local copy' });
    expect(service.resolve(copy.id).secret('messageToken')).toBe(TOKEN);
  });

  it('deletes a profile and its secrets; the active profile falls back to Local', () => {
    const { service } = make();
    const { id } = service.create(settings, { messageToken: TOKEN });
    service.activate(id);
    expect(service.activeId).toBe(id);
    service.delete(id);
    expect(service.activeId).toBe('local');
    expect(() => service.resolve(id)).toThrow(/No profile/);
  });

  it('exports settings without secrets and imports them without overwriting', () => {
    const { service } = make();
    service.create(settings, { messageToken: TOKEN });
    const exported = service.exportProfiles();
    expect(JSON.stringify(exported)).not.toContain(TOKEN);
    expect(exported.profiles).toEqual([settings]);
    const imported = service.importProfiles(JSON.parse(JSON.stringify(exported)));
    expect(imported[0]).toMatchObject({ name: 'Staging 2', env: 'dev' });
    expect(imported[0]!.secrets.messageToken.hasValue).toBe(false);
  });

  it('rejects an import that is not a Switchyard export, and changes nothing', () => {
    const { service } = make();
    expect(() => service.importProfiles({ profiles: [{ name: 'x' }] })).toThrow(
      /Not a Switchyard profiles export/,
    );
    expect(() =>
      service.importProfiles({
        format: 'switchyard.profiles',
        version: 1,
        profiles: [{ ...settings, messagesUrl: 'ftp://x' }],
      }),
    ).toThrow(/http/);
    expect(service.list().profiles).toHaveLength(1);
  });

  it('survives a restart: settings, active profile and secrets are persisted', () => {
    const { service, dir } = make();
    const { id } = service.create(settings, { messageToken: TOKEN });
    service.activate(id);
    const reopened = new ProfilesService(
      new ProfileStore(join(dir, 'profiles.json')),
      createSecretStore(join(dir, 'secrets.json')),
      () => null,
    );
    expect(reopened.activeId).toBe(id);
    expect(reopened.resolve(id).secret('messageToken')).toBe(TOKEN);
  });
});
