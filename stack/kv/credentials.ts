// Secrets of the KV service, persisted in <dataDir>/kv/credentials.json (mode 0600) so that every token
// keeps working after a restart of the stack.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { KvUnavailableError } from './errors';

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

interface CredentialsFile {
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

export class CredentialStore {
  private constructor(
    private readonly file: string,
    private data: CredentialsFile,
  ) {}

  static load(dir: string): CredentialStore {
    const file = path.join(dir, 'credentials.json');
    let data: CredentialsFile | undefined;
    if (existsSync(file)) {
      let parsed: Partial<CredentialsFile> = {};
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CredentialsFile>;
      } catch (error) {
        throw new KvUnavailableError(
          `the KV credentials file ${file} is unreadable (${(error as Error).message}); fix it, or delete it to ` +
            'generate new secrets (tokens issued by ACL RESTTOKEN and random tokens are then lost)',
        );
      }
      if (typeof parsed.redisPassword === 'string' && typeof parsed.readOnlyPassword === 'string') {
        data = { version: 1, aclTokens: {}, ...parsed } as CredentialsFile;
      }
    }
    const store = new CredentialStore(
      file,
      data ?? {
        version: 1,
        redisPassword: newSecret(),
        readOnlyPassword: newSecret(),
        aclTokens: {},
      },
    );
    if (!data) store.save();
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
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.data, null, 2) + '\n', { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
