// What every service's read-only test needs: the write procedures of an area, a console core holding one
// read-only production profile on the proxied stack, and "each sample is refused with READ_ONLY".
import { expect } from 'vitest';
import { procedures } from '../../../../shared/bridge/procedures';
import type { ConsoleCore } from '../../console-core';
import { createTestConsoleCore } from '../../testing/console-core';
import type { StackBehindProxy } from './real-stack';

/** Sample inputs (without `profileId`) by procedure name. */
export type Samples = Record<string, object>;

/** The names of the write procedures that `belongs` accepts, sorted. */
export function writeProcedureNames(belongs: (name: string) => boolean): string[] {
  return Object.entries(procedures)
    .filter(([name, def]) => def.effect === 'write' && belongs(name))
    .map(([name]) => name)
    .sort();
}

/** Runs `test` with a fresh console core and a read-only production profile pointing at `env`'s proxy. */
export async function withReadOnlyProfile(
  dir: string,
  env: StackBehindProxy,
  test: (core: ConsoleCore, profileId: string) => Promise<void>,
): Promise<void> {
  const core = createTestConsoleCore(dir);
  try {
    const profile = core.profiles.create(
      {
        name: 'Prod RO',
        env: 'prod',
        messagesUrl: env.proxy.url,
        kvUrl: '',
        readOnly: true,
        confirmDangerous: true,
      },
      { messageToken: env.stack.token },
    );
    await test(core, profile.id);
  } finally {
    await core.close();
  }
}

/** Every call and every stream or job in the samples is refused with READ_ONLY. */
export async function expectRefused(
  core: ConsoleCore,
  profileId: string,
  calls: Samples,
  streams: Samples,
): Promise<void> {
  for (const [name, sample] of Object.entries(calls)) {
    const result = await core.router.call(name, { profileId, ...sample });
    expect(result, name).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
  }
  for (const [name, sample] of Object.entries(streams)) {
    await expect(
      core.router.open(name, { profileId, ...sample }, { push: () => {}, end: () => {} }),
      name,
    ).rejects.toMatchObject({ code: 'READ_ONLY' });
  }
}
