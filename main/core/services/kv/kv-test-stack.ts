// Test helpers for main's KV client and handlers: the real local stack with its KV service (the stack starts
// its own redis-server) and profiles pointing at it. Not a test file itself.
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { CallName, OutputOf, ParsedInputOf } from '../../../../shared/bridge/procedures';
import { procedures } from '../../../../shared/bridge/procedures';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import type { ResolvedProfile } from '../../profiles/profiles-service';
import { exportsFolderSaver } from '../../saving/exports-folder';
import { testJobRunner } from '../../testing/jobs';
import { type RealStack, startRealStack } from '../test-stack/real-stack';
import { kvHandlers } from './index';

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

/**
 * The KV handlers for a file, on the profile `profile()` gives at each call (a test may swap it), with a data
 * dir of their own; `callKv` calls one as the bridge would, its input parsed by the procedure's schema first.
 */
export function useKvHandlers(
  env: KvTestStack,
  dirPrefix: string,
  profile: () => ResolvedProfile = () => kvProfile(env.kv),
) {
  const dataDir = useSuiteTempDir(dirPrefix);
  const handlers = kvHandlers({
    profiles: { resolve: () => profile() },
    dataDir,
    jobs: testJobRunner(join(dataDir, 'jobs')),
    saver: exportsFolderSaver({ folder: join(dataDir, 'exports'), servedFolders: [] }),
  });
  async function callKv<N extends CallName & keyof typeof handlers>(name: N, input: unknown) {
    const parsed = procedures[name].input.parse(input) as ParsedInputOf<N>;
    return (handlers[name] as unknown as (i: ParsedInputOf<N>) => Promise<OutputOf<N>>)(parsed);
  }
  return { handlers, callKv, dataDir };
}
