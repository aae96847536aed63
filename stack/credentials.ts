// The stack's token and signing keys. By default they are the vendor dev server's well-known ones, so SDKs
// in dev mode (QSTASH_DEV=true) adopt a stack on port 8080; `--random-credentials` makes fresh ones instead.
// Both sets live in the data dir's database (rotation included) and survive restarts.
import type { SigningKeys } from '../shared/messages/types';
import { base58 } from './messages/ids';
import type { SigningKeyStore } from './messages/service-context';
import type { StackStore } from './store/stack-store';

export interface Credentials {
  token: string;
  currentSigningKey: string;
  nextSigningKey: string;
}

/** The vendor dev server's default user: base64 of {"UserID":"defaultUser","Password":"defaultPassword"}. */
export const DEV_CREDENTIALS: Readonly<Credentials> = Object.freeze({
  token: 'eyJVc2VySUQiOiJkZWZhdWx0VXNlciIsIlBhc3N3b3JkIjoiZGVmYXVsdFBhc3N3b3JkIn0=',
  currentSigningKey: 'sig_7kYjw48mhY7kAjqNGcy6cr29RJ6r',
  nextSigningKey: 'sig_5ZB6DVzB1wjE8S6rZ7eenA8Pdnhs',
});

export function randomSigningKey(): string {
  return `sig_${base58(28)}`;
}

/** Shaped like the vendor's tokens (base64 JSON with UserID and Password), which some SDK helpers decode. */
export function randomToken(): string {
  return Buffer.from(JSON.stringify({ UserID: `user_${base58(16)}`, Password: base58(32) })).toString(
    'base64',
  );
}

export class CredentialStore implements SigningKeyStore {
  private current: Credentials;
  private readonly key: string;

  constructor(
    private readonly store: StackStore,
    random: boolean,
  ) {
    this.key = random ? 'credentials.random' : 'credentials.default';
    const saved = store.settings.get(this.key);
    if (saved) {
      this.current = JSON.parse(saved) as Credentials;
    } else {
      this.current = random
        ? { token: randomToken(), currentSigningKey: randomSigningKey(), nextSigningKey: randomSigningKey() }
        : { ...DEV_CREDENTIALS };
      store.settings.set(this.key, JSON.stringify(this.current));
    }
  }

  credentials(): Credentials {
    return { ...this.current };
  }

  token(): string {
    return this.current.token;
  }

  keys(): SigningKeys {
    return { current: this.current.currentSigningKey, next: this.current.nextSigningKey };
  }

  rotate(): SigningKeys {
    this.current = {
      ...this.current,
      currentSigningKey: this.current.nextSigningKey,
      nextSigningKey: randomSigningKey(),
    };
    this.store.settings.set(this.key, JSON.stringify(this.current));
    return this.keys();
  }
}
