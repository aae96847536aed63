// Ids the console sends to a service as a list: `?messageIds=…`, `?dlqIds=…`, `?workflowRunIds=…`. The services
// read such a list comma-separated too, so an id holding a comma is read as other ids, and `","` as no id at
// all, which a bulk endpoint takes as "every one". Ids the services hand out never hold a comma.
import { z } from 'zod';
import { BridgeError } from './errors';

/** One id of such a list, as the bridge accepts it from the page. */
export function listIdSchema(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((id) => !id.includes(','), 'an id cannot contain a comma');
}

/**
 * The ids of a bulk request, checked where the request is built, whoever calls: none, a blank one or one with
 * a comma would reach the service as "no ids", and it would act on every `what` (message, entry, run).
 */
export function checkListIds(ids: readonly string[], what: string): string[] {
  if (ids.length === 0 || ids.some((id) => id.trim() === '' || id.includes(','))) {
    throw new BridgeError({
      code: 'INVALID_INPUT',
      message:
        `Refusing to send a bulk request ${ids.length === 0 ? 'without ids' : 'with a blank id or an id holding a comma'}: ` +
        `the service would act on every ${what}.`,
    });
  }
  return [...ids];
}
