import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SigningKeysView } from '../../../../shared/bridge/procedures/messages/signing-keys';
import { ProfileStore } from '../../profiles/profile-store';
import { ProfilesService } from '../../profiles/profiles-service';
import { createSecretStore } from '../../secrets/secret-store';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import { useStackBehindProxy } from '../test-stack/real-stack';
import { routerWith, valueOf } from '../test-stack/router';
import { signingKeyHandlers } from './signing-keys';

const DEV_CURRENT = 'sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r';
const DEV_NEXT = 'sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs';

describe('signing keys', () => {
  const tempDir = useTempDirs();
  const env = useStackBehindProxy();

  function setup() {
    const dir = tempDir();
    const profiles = new ProfilesService(
      new ProfileStore(join(dir, 'profiles.json')),
      createSecretStore(join(dir, 'secrets.json')),
      () => ({ messagesUrl: env.proxy.url, kvUrl: '', secrets: { messageToken: env.stack.token } }),
    );
    const settings = {
      env: 'dev' as const,
      messagesUrl: env.proxy.url,
      kvUrl: '',
      readOnly: false,
      confirmDangerous: true,
    };
    const withKeys = profiles.create(
      { ...settings, name: 'With keys' },
      { messageToken: env.stack.token, currentSigningKey: DEV_CURRENT, nextSigningKey: DEV_NEXT },
    );
    const without = profiles.create({ ...settings, name: 'Without keys' }, { messageToken: env.stack.token });
    return { profiles, router: routerWith(signingKeyHandlers({ profiles })), withKeys, without };
  }

  it('shows masked keys only and whether the profile’s stored keys match; rotation updates the stored pair', async () => {
    const { profiles, router, withKeys, without } = setup();
    const shown = valueOf<SigningKeysView>(
      await router.call('messages.signingKeys.get', { profileId: withKeys.id }),
    );
    expect(shown).toEqual({ current: '••••RJ6r', next: '••••dnhs', profileKeys: 'match' });
    expect(JSON.stringify(shown)).not.toContain(DEV_CURRENT.slice(0, 10));
    expect(
      valueOf<SigningKeysView>(await router.call('messages.signingKeys.get', { profileId: without.id }))
        .profileKeys,
    ).toBe('none');
    expect(
      valueOf<SigningKeysView>(await router.call('messages.signingKeys.get', { profileId: 'local' }))
        .profileKeys,
    ).toBe('builtIn');

    const rotated = valueOf<SigningKeysView & { profileUpdated: boolean }>(
      await router.call('messages.signingKeys.rotate', { profileId: withKeys.id }),
    );
    expect(rotated.profileUpdated).toBe(true);
    expect(rotated.profileKeys).toBe('match');
    // Next became current; a new next was made.
    expect(rotated.current).toBe(shown.next);
    expect(rotated.next).not.toBe(shown.next);
    const stored = profiles.resolve(withKeys.id);
    expect(stored.secret('currentSigningKey')).toBe(DEV_NEXT);
    expect(stored.secret('nextSigningKey')).toMatch(/^sig_/);
    expect(stored.secret('nextSigningKey')).not.toBe(DEV_NEXT);
    // The new key never crossed the bridge.
    expect(JSON.stringify(rotated)).not.toContain(stored.secret('nextSigningKey')!.slice(0, 12));
    // A profile without stored keys is left alone.
    const other = valueOf<{ profileUpdated: boolean }>(
      await router.call('messages.signingKeys.rotate', { profileId: without.id }),
    );
    expect(other.profileUpdated).toBe(false);
    expect(profiles.resolve(without.id).secret('currentSigningKey')).toBeUndefined();
  });
});
