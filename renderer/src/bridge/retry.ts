// Which failed queries are asked again once, a moment later (TanStack Query's `retry`, main.tsx): only a
// failure that may be gone by then — the service was unreachable for an instant (refused, reset) or failed
// on its side (5xx, 429). A refusal (401, 403, 404, 400), a missing setting or bad input answers the same
// the second time, and a timeout would only make the user wait as long again for the same message. The rule
// is shared/bridge/errors.ts's `mayPass`, the same one the job runner waits through an outage by.
import { mayPass } from '../../../shared/bridge/errors';

export function retryOnce(failureCount: number, error: unknown): boolean {
  return failureCount < 1 && mayPass(error);
}
