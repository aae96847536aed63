// The job plan of KV delete by pattern: the listing is SCAN MATCH (with the key browser's TYPE filter), page
// by page; each chunk is one UNLINK. A key gone meanwhile (expired, deleted elsewhere) is counted as
// already gone: UNLINK answers how many it removed. SCAN's cursor stays valid while keys are removed, and a
// second UNLINK of a key is harmless, so a keyspace larger than the preview's limit is walked on while the
// job runs (`continuesScan`).
import type { ParsedInputOf } from '../../../../shared/bridge/procedures';
import { KV_DELETE_CHUNK } from '../../../../shared/bridge/procedures/kv/delete-job';
import { countedOutcome, type JobPlan } from '../../jobs/plan';
import type { KvClient } from './client';
import { scanPage } from './scan';

type Input = ParsedInputOf<'kv.keys.job'>;

/** COUNT of each SCAN: a hint of how many keys the server looks at per call. */
const SCAN_COUNT = 1000;

export function kvDeleteJobPlan(client: (profileId: string) => KvClient): JobPlan<Input, unknown> {
  return {
    service: 'kv',
    noun: ['key', 'keys'],
    action: () => 'delete',
    chunk: KV_DELETE_CHUNK,
    continuesScan: true,
    scan: async ({ profileId, target }, cursor, signal) => {
      const { pattern, type } = target.filters;
      const page = await scanPage(client(profileId), cursor ?? '0', {
        match: pattern,
        type,
        count: SCAN_COUNT,
        signal,
      });
      return { items: page.keys, cursor: page.cursor === '0' ? undefined : page.cursor };
    },
    act: async (chunk, { profileId }) => {
      return countedOutcome(chunk, await client(profileId).call<number>(['UNLINK', ...chunk]));
    },
  };
}
