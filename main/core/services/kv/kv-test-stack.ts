// Test helpers for main's KV client and handlers: the real local stack with its KV service (the stack starts
// its own redis-server) and profiles pointing at it. Not a test file itself.
import { afterAll, beforeAll } from 'vitest';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { type RealStack, startRealStack } from '../test-stack/real-stack';

export interface KvTestStack {
  stack: RealStack;
  kv: NonNullable<RealStack['kv']>;
}

/** One stack with KV for the whole file. */
export function useKvStack(): KvTestStack {
  const env = {} as KvTestStack;
  beforeAll(async () => {
    env.stack = await startRealStack([], { kv: true });
    env.kv = env.stack.kv!;
  }, 60_000);
  afterAll(async () => {
    await env.stack?.stop();
  });
  return env;
}

/** A profile on the stack's KV service; which tokens it has and its read-only flag are chosen per test. */
export function kvProfile(
  kv: KvTestStack['kv'],
  options: { readOnly?: boolean; standard?: boolean; readOnlyToken?: boolean; env?: 'dev' | 'prod' } = {},
): ResolvedProfile {
  const standard = options.standard ?? true;
  const readOnlyToken = options.readOnlyToken ?? true;
  return {
    id: 'kv-test',
    settings: {
      name: 'KV test',
      env: options.env ?? 'dev',
      messagesUrl: '',
      kvUrl: kv.url,
      readOnly: options.readOnly ?? false,
      confirmDangerous: true,
    },
    secret: (name) => {
      if (name === 'kvToken' && standard) return kv.token;
      if (name === 'kvReadOnlyToken' && readOnlyToken) return kv.readOnlyToken;
      return undefined;
    },
  };
}
