// A bridge router over some handlers only, for tests: inputs are validated and read-only profiles are
// refused exactly as in the console, without building the whole console core.
import type { CallResult } from '../../../../shared/bridge/frames';
import { createRouter, type Handlers, type Router } from '../../bridge/router';

export function routerWith(handlers: Partial<Handlers>, readOnly: Set<string> = new Set()): Router {
  return createRouter({
    handlers: handlers as Handlers,
    isReadOnly: (profileId) => readOnly.has(profileId),
    logError: (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
  });
}

/** The value of a successful call, or a thrown error carrying the bridge error. */
export function valueOf<T>(result: CallResult): T {
  if (!result.ok) throw Object.assign(new Error(result.error.message), result.error);
  return result.value as T;
}

/**
 * A test's `call(name, input)`: the value of that call on a router from `router()`, made as `profileId` (by
 * default `defaultProfile`); a failed call throws (valueOf).
 */
export function profileCaller(router: () => Router, defaultProfile = 'p') {
  return async <T>(name: string, input: object, profileId = defaultProfile): Promise<T> =>
    valueOf<T>(await router().call(name, { profileId, ...input }));
}
