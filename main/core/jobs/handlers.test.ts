// The Jobs screen's procedures over a real journal on disk: the list (failures counted, not carried), one
// job in full, exports written by main into its own folder (0600, a new file each time, JSON or CSV),
// and clear.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../shared/bridge/job';
import { routerWith, valueOf } from '../services/test-stack/router';
import { useTempDirs } from '../../../shared/testing/temp-dir';
import { exportsFolderSaver } from '../saving/exports-folder';
import { jobHandlers, journalCsv } from './handlers';
import { JobJournal, startCounts } from './journal';
import { JobRunner } from './runner';

function record(id: string, startedAt: number, status: JobRecord['status']): JobRecord {
  return {
    id,
    procedure: 'messages.dlq.job',
    service: 'messages',
    profileId: 'local',
    profileName: 'Local, "the default"',
    action: 'retry',
    description: 'entries matching label nightly',
    target: { filters: { label: ['nightly'] } },
    options: { overrides: { retries: 1 } },
    startedAt,
    status,
    ...startCounts(2),
  };
}

describe('jobs.* procedures', () => {
  const tempDir = useTempDirs();

  function setup() {
    const dir = tempDir();
    const journal = new JobJournal(join(dir, 'jobs'), { now: () => Date.UTC(2025, 0, 2) });
    const runner = new JobRunner(journal, { profileName: () => 'Local' });
    const done = { record: record('a', 1, 'running'), input: {}, items: ['x', 'y'], next: 0 };
    journal.begin(done);
    journal.chunk(done, 2, {
      succeeded: 1,
      failures: [{ id: 'y', message: 'gone' }],
      created: [{ id: 'msg_1', from: 'x' }],
    });
    journal.end(done, 'done');
    journal.begin({ record: record('b', 2, 'running'), input: {}, items: ['z'], next: 0 });
    const saver = exportsFolderSaver({ folder: join(dir, 'exports'), servedFolders: [] });
    const router = routerWith(jobHandlers(runner, { saver, now: () => Date.UTC(2025, 0, 2) }));
    return { router, journal };
  }

  it('lists every job newest first, counting failures without carrying them; get has them', async () => {
    const { router } = setup();
    const list = valueOf<Record<string, unknown>[]>(await router.call('jobs.list', {}));
    expect(list.map((job) => [job.id, job.status])).toEqual([
      ['b', 'running'],
      ['a', 'done'],
    ]);
    expect(list[1]).toMatchObject({ failed: 1, succeeded: 1, processed: 2 });
    expect(list[1]).not.toHaveProperty('failures');
    const full = valueOf<JobRecord>(await router.call('jobs.get', { jobId: 'a' }));
    expect(full.failures).toEqual([{ id: 'y', message: 'gone' }]);
    expect(await router.call('jobs.get', { jobId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('exports into main’s own folder, 0600, a new file each time; the page names no path', async () => {
    const { router } = setup();
    const json = valueOf<{ path: string; jobs: number }>(
      await router.call('jobs.export', { format: 'json' }),
    );
    expect(json.jobs).toBe(2);
    expect(statSync(json.path).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(json.path, 'utf8'))).toHaveLength(2);
    const csv = valueOf<{ path: string }>(await router.call('jobs.export', { format: 'csv' }));
    expect(dirname(csv.path)).toBe(dirname(json.path));
    expect(readFileSync(csv.path, 'utf8')).toContain('"Local, ""the default"""');
    // A second export at the same moment gets a name of its own; the page cannot name a path at all.
    const again = valueOf<{ path: string }>(await router.call('jobs.export', { format: 'csv' }));
    expect(again.path).not.toBe(csv.path);
    expect(dirname(again.path)).toBe(dirname(json.path));
    expect(await router.call('jobs.export', { format: 'csv', path: '/tmp/elsewhere.csv' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT' },
    });
  });

  it('resume writes: a read-only profile is refused before anything runs', async () => {
    const dir = tempDir();
    const runner = new JobRunner(new JobJournal(join(dir, 'jobs')), { profileName: () => 'Local' });
    const saver = exportsFolderSaver({ folder: join(dir, 'exports'), servedFolders: [] });
    const router = routerWith(jobHandlers(runner, { saver }), new Set(['ro']));
    await expect(
      router.open('jobs.resume', { profileId: 'ro', jobId: 'a' }, { push: () => {}, end: () => {} }),
    ).rejects.toMatchObject({ code: 'READ_ONLY' });
  });

  it('clear removes the finished jobs and keeps a running one', async () => {
    const { router, journal } = setup();
    expect(valueOf(await router.call('jobs.clear', {}))).toEqual({ removed: 1 });
    expect(journal.list().map((job) => job.id)).toEqual(['b']);
  });

  it('CSV: one row per job, created items and failures joined', () => {
    const job = {
      ...record('c', 0, 'done'),
      created: [{ id: 'wfr_1', createdAt: 5 }],
      failures: [{ message: 'down' }],
      unconfirmed: 2,
    };
    const [head, row] = journalCsv([job]).split('\r\n');
    expect(head).toContain('id,service,profile,action,status');
    // Done by a request whose answer got lost: its own column, between skipped and failed.
    expect(head).toContain(',skipped,unconfirmed,failed,created,');
    expect(row).toMatch(/,\d+,2,\d+,wfr_1@5,/);
    expect(row).toContain('wfr_1@5');
    expect(row).toContain(',down,');
  });
});
