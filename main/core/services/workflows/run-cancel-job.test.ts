// Cancelling workflow runs as a job against the real local stack behind a recording proxy: runs started the
// way the SDK triggers them (their first step delayed an hour, so they stay active), the preview lists the
// active runs of a filter (finished ones are left out), the job cancels exactly those by id in chunks, and
// a selection with a run that already finished reports it as already gone.
import { describe, expect, it } from 'vitest';
import { JOB_CHUNK } from '../../../../shared/bridge/job';
import type { RunsPage } from '../../../../shared/bridge/procedures/workflows/runs';
import { runJob, testJobRunner } from '../../testing/jobs';
import { useSuiteTempDir } from '../../../../shared/testing/temp-dir';
import { publishBatch, useStackBehindProxy, workflowStart } from '../test-stack/real-stack';
import { routerWith, valueOf } from '../test-stack/router';
import { workflowHandlers } from './index';

describe('cancelling workflow runs as a job', () => {
  const env = useStackBehindProxy();
  const dir = useSuiteTempDir();
  const jobs = testJobRunner(dir);
  const router = () =>
    routerWith(
      workflowHandlers({
        profiles: env.profiles,
        dataDir: dir,
        jobs,
      }),
    );

  /** Starts `count` runs that stay active (their first delivery is an hour away). */
  async function startRuns(count: number, label: string): Promise<string[]> {
    const ids = Array.from({ length: count }, (_, i) => `wfr_${label}_${i}`);
    await publishBatch(
      env.stack,
      ids.map((id) =>
        workflowStart(id, 'http://127.0.0.1:9/wf', { 'Upstash-Delay': '1h', 'Upstash-Label': label }),
      ),
    );
    return ids;
  }

  async function states(label: string): Promise<Record<string, string>> {
    const page = valueOf<RunsPage>(
      await router().call('workflows.runs.list', { profileId: 'p', filters: { label: [label] }, pages: 10 }),
    );
    return Object.fromEntries(page.runs.map((run) => [run.workflowRunId, run.workflowState]));
  }

  it('previews the active runs a filter matches and cancels exactly those, by id, in chunks', async () => {
    const label = `cancel${Date.now()}`;
    const ids = await startRuns(JOB_CHUNK + 5, label);
    const before = env.proxy.requests.length;
    const run = await runJob(router(), 'workflows.runs.job', {
      profileId: 'p',
      target: { filters: { label: [label] } },
    });
    expect(run.error).toBeUndefined();
    expect(run.found).toBe(ids.length);
    const deletes = env.proxy.requests.slice(before).filter((r) => r.method === 'DELETE');
    expect(
      deletes.map((r) => new URL(r.url, 'http://x').searchParams.getAll('workflowRunIds').length),
    ).toEqual([JOB_CHUNK, 5]);
    // No filtered cancel ever goes out: only ids.
    expect(deletes.every((r) => !new URL(r.url, 'http://x').searchParams.has('label'))).toBe(true);
    expect(run.summary).toMatchObject({
      action: 'cancel',
      status: 'done',
      total: ids.length,
      succeeded: ids.length,
    });
    expect(new Set(Object.values(await states(label)))).toEqual(new Set(['RUN_CANCELED']));
    expect(jobs.journal.get(run.summary!.jobId)).toMatchObject({
      procedure: 'workflows.runs.job',
      service: 'workflows',
      description: 'active runs matching label ' + label,
    });

    // Now none is active: the preview says so, and nothing is sent.
    const again = await runJob(
      router(),
      'workflows.runs.job',
      {
        profileId: 'p',
        target: { filters: { label: [label] } },
      },
      { start: false },
    );
    expect(again.found).toBe(0);
  });

  it('a selection with a run that already ended reports it as already gone', async () => {
    const label = `pick${Date.now()}`;
    const [first, second] = await startRuns(2, label);
    await runJob(router(), 'workflows.runs.job', { profileId: 'p', target: { ids: [first] } });
    const run = await runJob(router(), 'workflows.runs.job', {
      profileId: 'p',
      target: { ids: [first, second] },
    });
    expect(run.summary).toMatchObject({ total: 2, succeeded: 1, skipped: 1 });
    expect(await states(label)).toEqual({ [first!]: 'RUN_CANCELED', [second!]: 'RUN_CANCELED' });
  });

  it('an empty filter is refused; everything is an explicit "all", listed like any target', async () => {
    await expect(
      runJob(router(), 'workflows.runs.job', { profileId: 'p', target: { filters: {} } }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const label = `all${Date.now()}`;
    await startRuns(3, label);
    const all = await runJob(
      router(),
      'workflows.runs.job',
      { profileId: 'p', target: { all: true } },
      {
        start: false,
      },
    );
    expect(all.found).toBeGreaterThanOrEqual(3);
  });
});
