import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../shared/testing/temp-dir';
import { createSecretStore, maskSecret, type SecretCipher } from './secret-store';

/** A real AES-256-GCM cipher standing in for the OS keychain that Electron's safeStorage uses. */
function aesCipher(): SecretCipher {
  const key = randomBytes(32);
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

const TOKEN = 'sy-test-token-0123456789abcdef';

describe('secret store', () => {
  const tempDir = useTempDirs();

  it('keeps secrets in a file only the user can read, and reloads them', () => {
    const file = join(tempDir(), 'secrets.json');
    const store = createSecretStore(file);
    store.set('p1', 'messageToken', TOKEN);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(createSecretStore(file).get('p1', 'messageToken')).toBe(TOKEN);
    expect(store.kind).toBe('file');
    expect(store.description).toMatch(/unencrypted.*0600/);
  });

  it('never writes the plaintext when OS encryption is available', () => {
    const file = join(tempDir(), 'secrets.enc.json');
    const cipher = aesCipher();
    const store = createSecretStore(file, cipher);
    store.set('p1', 'kvToken', TOKEN);
    expect(readFileSync(file, 'utf8')).not.toContain(TOKEN);
    expect(createSecretStore(file, cipher).get('p1', 'kvToken')).toBe(TOKEN);
    expect(store.kind).toBe('os-encryption');
  });

  it('refuses to mix encrypted and plain secrets in one file', () => {
    const file = join(tempDir(), 'secrets.json');
    createSecretStore(file).set('p1', 'kvToken', TOKEN);
    expect(() => createSecretStore(file, aesCipher())).toThrow(/unencrypted/);
  });

  it('copies and deletes a profile’s secrets', () => {
    const store = createSecretStore(join(tempDir(), 'secrets.json'));
    store.set('a', 'messageToken', TOKEN);
    store.copyProfile('a', 'b');
    expect(store.get('b', 'messageToken')).toBe(TOKEN);
    store.deleteProfile('a');
    expect(store.get('a', 'messageToken')).toBeUndefined();
    expect(store.get('b', 'messageToken')).toBe(TOKEN);
    store.set('b', 'messageToken', null);
    expect(store.get('b', 'messageToken')).toBeUndefined();
  });

  it('masks secrets down to at most four characters', () => {
    expect(maskSecret(TOKEN)).toBe('••••cdef');
    expect(maskSecret('short')).toBe('••••');
  });
});
