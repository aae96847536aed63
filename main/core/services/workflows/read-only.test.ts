// Every `workflows.*` procedure that changes something at the service is refused in main for a read-only
// profile — no request leaves main — while the journal and saved views (console-local) still work.
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import { useStackBehindProxy } from '../test-stack/real-stack';
import * as readOnly from '../test-stack/read-only';

const CALL_SAMPLES: readOnly.Samples = {
  'workflows.runs.cancel': { workflowRunIds: ['wfr_1'] },
  'workflows.runs.notify': { eventId: 'evt', eventData: '{}' },
  'workflows.runs.trigger': { workflowUrl: 'http://127.0.0.1:9/wf', body: '{}' },
};
/** Streams and jobs: both refused when opened. */
const STREAM_SAMPLES: readOnly.Samples = {
  'workflows.dlq.job': { action: 'restart', target: { ids: ['d1'] }, description: 'one' },
  'workflows.runs.job': { target: { ids: ['wfr_1'] } },
};

describe('read-only profiles and the Workflows area, enforced in main', () => {
  const tempDir = useTempDirs();
  const env = useStackBehindProxy();

  it('covers every write procedure of workflows.*', () => {
    expect(readOnly.writeProcedureNames((name) => name.startsWith('workflows.'))).toEqual(
      [...Object.keys(CALL_SAMPLES), ...Object.keys(STREAM_SAMPLES)].sort(),
    );
  });

  it('refuses them without sending anything; local procedures still work', () =>
    readOnly.withReadOnlyProfile(tempDir(), env, async (core, profileId) => {
      await readOnly.expectRefused(core, profileId, CALL_SAMPLES, STREAM_SAMPLES);
      expect(env.proxy.requests).toEqual([]);

      const saved = await core.router.call('workflows.views.save', {
        profileId,
        name: 'Failed',
        filters: { state: 'RUN_FAILED' },
      });
      expect(saved.ok).toBe(true);
      expect(await core.router.call('jobs.list', {})).toEqual({ ok: true, value: [] });
      expect(env.proxy.requests).toEqual([]);
    }));
});
