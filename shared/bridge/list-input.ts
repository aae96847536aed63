// The input of every cursor-paged list procedure (message logs and DLQ, workflow runs and DLQ): the
// profile, the list's filters (none when left out) and the cursor of the page to read, plus any fields
// of the list's own (a page size).
import { z } from 'zod';
import { profileIdSchema } from './profile-id';

export function pagedListInput<
  Filters extends z.ZodObject,
  Extra extends z.ZodRawShape = Record<never, never>,
>(
  /** Every field optional, so "no filters" is `{}`. */
  filters: Filters,
  /** The longest cursor the service hands out. */
  cursorMax: number,
  extra: Extra = {} as Extra,
) {
  return z.object({
    profileId: profileIdSchema,
    // `{}` is a valid output of an all-optional object; the generic type cannot show it.
    filters: filters.default({} as never),
    cursor: z.string().max(cursorMax).optional(),
    ...extra,
  });
}
