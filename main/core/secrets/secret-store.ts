// Secrets (tokens, signing keys) live only in main. They are kept in one file with mode 0600; when the
// host offers OS-backed encryption (Electron safeStorage) each value is encrypted with it as well.
// The browser host has no such facility, and the UI says so (see `description`).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretName } from '../../../shared/profiles';

/** OS-backed encryption, e.g. Electron's safeStorage (Keychain, DPAPI, libsecret). */
export interface SecretCipher {
  encrypt(plain: string): Buffer;
  decrypt(encrypted: Buffer): string;
}

export interface SecretStore {
  readonly kind: 'os-encryption' | 'file';
  readonly description: string;
  get(profileId: string, name: SecretName): string | undefined;
  /** `null` removes the secret. */
  set(profileId: string, name: SecretName, value: string | null): void;
  copyProfile(fromId: string, toId: string): void;
  deleteProfile(profileId: string): void;
}

interface SecretFile {
  version: 1;
  encrypted: boolean;
  /** profileId → secret name → value (base64 ciphertext when encrypted) */
  profiles: Record<string, Partial<Record<SecretName, string>>>;
}

export function createSecretStore(file: string, cipher?: SecretCipher): SecretStore {
  const encrypted = cipher !== undefined;
  const data = load(file, encrypted);
  // Decrypted values are cached in memory only, so the UI's frequent lookups do not hit the OS keychain.
  const cache = new Map<string, string>();

  function persist(): void {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(data), { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, file);
  }

  return {
    kind: encrypted ? 'os-encryption' : 'file',
    description: encrypted
      ? `Secrets are encrypted with the operating system's credential store and kept in ${file}.`
      : `Secrets are kept unencrypted in ${file}, readable only by your user (mode 0600). The browser host has no OS encryption; use the desktop app for encrypted storage.`,

    get(profileId, name) {
      const key = `${profileId}\u0000${name}`;
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const stored = data.profiles[profileId]?.[name];
      if (stored === undefined) return undefined;
      const value = cipher ? cipher.decrypt(Buffer.from(stored, 'base64')) : stored;
      cache.set(key, value);
      return value;
    },

    set(profileId, name, value) {
      const key = `${profileId}\u0000${name}`;
      const entry = (data.profiles[profileId] ??= {});
      if (value === null) {
        delete entry[name];
        cache.delete(key);
      } else {
        entry[name] = cipher ? cipher.encrypt(value).toString('base64') : value;
        cache.set(key, value);
      }
      persist();
    },

    copyProfile(fromId, toId) {
      const source = data.profiles[fromId];
      if (!source) return;
      // Ciphertext can be copied as is; the cache repopulates on first read.
      data.profiles[toId] = { ...source };
      persist();
    },

    deleteProfile(profileId) {
      if (!(profileId in data.profiles)) return;
      delete data.profiles[profileId];
      for (const key of cache.keys()) if (key.startsWith(`${profileId}\u0000`)) cache.delete(key);
      persist();
    },
  };
}

function load(file: string, encrypted: boolean): SecretFile {
  if (!existsSync(file)) return { version: 1, encrypted, profiles: {} };
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as SecretFile;
  if (parsed.encrypted !== encrypted) {
    // Mixing plain and encrypted values would either leak or be unreadable: refuse loudly.
    throw new Error(
      `${file} holds ${parsed.encrypted ? 'encrypted' : 'unencrypted'} secrets, but this host stores them ${encrypted ? 'encrypted' : 'unencrypted'}. Re-enter the tokens or use the other host.`,
    );
  }
  return parsed;
}

/** What the renderer may see of a secret: enough to recognise it, never enough to use it. */
export function maskSecret(value: string): string {
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••';
}
