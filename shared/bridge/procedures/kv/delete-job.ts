// KV delete by pattern as a job (shared/bridge/job.ts): main lists the keys a MATCH pattern (and the key
// browser's type filter) finds with SCAN — that list is the preview count — then UNLINKs them in chunks.
// The target is always a pattern: an empty pattern, or one that matches every key, is refused (FLUSHDB in
// the workbench is the way to empty a database, behind its own confirmation).
import { z } from 'zod';
import { job } from '../../define';
import { jobInput, type JobSummary } from '../../job';
import { KV_TYPES } from './key-browser';

/** Keys per UNLINK: one request each, far below a request body's limit. */
export const KV_DELETE_CHUNK = 500;

export const KV_MATCH_ALL_REFUSAL =
  'a pattern that matches every key is refused: use FLUSHDB in the workbench';

/**
 * Whether a MATCH pattern takes every key: only `*` and `?` with at least one `*` (`*`, `?*`, `*?*`), since no
 * key is empty. `???` takes three-byte keys only, and a literal or a class narrows.
 */
export function matchesEveryKey(pattern: string): boolean {
  return /^[*?]*\*[*?]*$/.test(pattern.trim());
}

/** A pattern for deleting keys: never empty, never everything. */
export const kvDeletePatternSchema = z
  .string()
  .trim()
  .min(1, 'a pattern is needed')
  .max(1000)
  .refine((p) => !matchesEveryKey(p), KV_MATCH_ALL_REFUSAL);

export const kvDeleteJobProcedures = {
  'kv.keys.job': job<JobSummary>()(
    jobInput({
      action: z.literal('delete').default('delete'),
      target: z.object({
        filters: z.object({ pattern: kvDeletePatternSchema, type: z.enum(KV_TYPES).optional() }),
      }),
    }),
    'write',
    { invalidates: ['jobs.list'] },
  ),
};
