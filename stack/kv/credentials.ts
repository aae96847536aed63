// Secrets of the KV service, kept in the stack's one credentials store: the `settings` table of the data dir's
// database (stack.db, mode 0600), beside the message service's token and signing keys (stack/credentials.ts),
// so that every token keeps working after a restart. The KV service runs in the stack's process and is handed
// the stack's open settings table; started alone (its tests, the KV bench) it reads and writes the same
// database file itself (settingsOfDataDir). Stacks before this one kept them in <dataDir>/kv/credentials.json:
// that file is moved into the store once, then deleted.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';

import { openDatabase } from '../store/db';
import { StackStore } from '../store/stack-store';
import { KvUnavailableError } from './errors';

/** Where the secrets live: the stack's settings (stack/store/settings.ts), by key. */
export interface SecretSettings {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** The settings key of the KV secrets. */
export const KV_CREDENTIALS_KEY = 'kv.credentials';

/**
 * The settings of the data dir's database, for a KV service started without the stack (its tests, the bench):
 * each call opens the database (created and migrated if new), reads or writes, and closes it again. Calls are
 * rare (start-up, random tokens, ACL RESTTOKEN), so no connection is held.
 */
export function settingsOfDataDir(dataDir: string): SecretSettings {
  const file = path.join(dataDir, 'stack.db');
  const use = <T>(action: (store: StackStore) => T): T => {
    const db = openDatabase(file, 'full');
    try {
      return action(new StackStore(db));
    } finally {
      db.close();
    }
  };
  return {
    get: (key) => use((store) => store.settings.get(key)),
    set: (key, value) => use((store) => store.settings.set(key, value)),
  };
}

/**
 * The well-known local tokens, used unless the stack runs with --random-credentials. Like the vendor's
 * local dev servers, they are documented constants so examples and `.env` files work without copying.
 */
export const LOCAL_TOKEN = 'switchyard-local-kv-token';
export const LOCAL_READ_ONLY_TOKEN = 'switchyard-local-kv-readonly-token';

export interface AclToken {
  user: string;
  password: string;
}

interface KvSecrets {
  version: 1;
  /** Password of Redis's `default` user (managed redis-server only). */
  redisPassword: string;
  /** Password of the read-only ACL user the read-only token runs as. */
  readOnlyPassword: string;
  /** Generated once, used whenever --random-credentials is given. */
  randomToken?: string;
  randomReadOnlyToken?: string;
  /** Tokens issued by `ACL RESTTOKEN`, by token. */
  aclTokens: Record<string, AclToken>;
}

export function newSecret(): string {
  return randomBytes(24).toString('base64url');
}

/** Secrets as stored (or as the old JSON file held them); undefined when they lack the two passwords. */
function parseSecrets(text: string, unreadable: string, remedy: string): KvSecrets | undefined {
  let parsed: Partial<KvSecrets>;
  try {
    parsed = JSON.parse(text) as Partial<KvSecrets>;
  } catch (error) {
    throw new KvUnavailableError(
      `${unreadable} (${(error as Error).message}); ${remedy} ` +
        '(tokens issued by ACL RESTTOKEN and random tokens are then lost)',
    );
  }
  if (typeof parsed.redisPassword !== 'string' || typeof parsed.readOnlyPassword !== 'string')
    return undefined;
  return { version: 1, aclTokens: {}, ...parsed } as KvSecrets;
}

export class CredentialStore {
  private constructor(
    private readonly settings: SecretSettings,
    private data: KvSecrets,
  ) {}

  /**
   * The secrets from the stack's store; on the first start after an upgrade, the ones of the old
   * `<kvDir>/credentials.json`, moved into the store (the file is deleted once the store holds them); new
   * ones otherwise. Unreadable secrets stop the service rather than being replaced.
   */
  static load(settings: SecretSettings, kvDir: string): CredentialStore {
    const stored = settings.get(KV_CREDENTIALS_KEY);
    if (stored !== undefined) {
      const data = parseSecrets(
        stored,
        `the KV credentials in the stack's store (settings '${KV_CREDENTIALS_KEY}') are unreadable`,
        'delete that row to generate new secrets',
      );
      if (data) return new CredentialStore(settings, data);
    }
    const legacy = path.join(kvDir, 'credentials.json');
    const migrated = existsSync(legacy)
      ? parseSecrets(
          readFileSync(legacy, 'utf8'),
          `the KV credentials file ${legacy} is unreadable`,
          'fix it, or delete it to generate new secrets',
        )
      : undefined;
    const store = new CredentialStore(
      settings,
      migrated ?? { version: 1, redisPassword: newSecret(), readOnlyPassword: newSecret(), aclTokens: {} },
    );
    store.save();
    // Only once the store holds them: a crash before this line leaves the file, and the next start moves it again.
    if (existsSync(legacy)) unlinkSync(legacy);
    return store;
  }

  get redisPassword(): string {
    return this.data.redisPassword;
  }

  get readOnlyPassword(): string {
    return this.data.readOnlyPassword;
  }

  /** The standard and read-only tokens: well-known ones, or generated-once random ones. */
  tokens(random: boolean): { token: string; readOnlyToken: string } {
    if (!random) return { token: LOCAL_TOKEN, readOnlyToken: LOCAL_READ_ONLY_TOKEN };
    if (!this.data.randomToken || !this.data.randomReadOnlyToken) {
      this.data.randomToken = newSecret();
      this.data.randomReadOnlyToken = newSecret();
      this.save();
    }
    return { token: this.data.randomToken, readOnlyToken: this.data.randomReadOnlyToken };
  }

  aclTokens(): [string, AclToken][] {
    return Object.entries(this.data.aclTokens);
  }

  /** Remembers a token from ACL RESTTOKEN; the same credentials always get the same token. */
  addAclToken(user: string, password: string): string {
    for (const [token, entry] of this.aclTokens()) {
      if (entry.user === user && entry.password === password) return token;
    }
    const token = newSecret();
    this.data.aclTokens[token] = { user, password };
    this.save();
    return token;
  }

  private save(): void {
    this.settings.set(KV_CREDENTIALS_KEY, JSON.stringify(this.data));
  }
}
