import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../../shared/bridge/procedures/workflows/jobs';
import { openOverUnreadable } from '../../testing/corrupt-file';
import { useTempDirs } from '../../testing/temp-dir';
import { JOURNAL_LIMIT, journalCsv, WorkflowsStore } from './store';

function job(over: Partial<JobRecord> = {}): JobRecord {
  return {
    id: 'job-1',
    profileId: 'local',
    action: 'restart',
    target: { dlqIds: ['d1', 'd2'] },
    description: '2 selected entries',
    overrides: { retries: 2 },
    startedAt: Date.UTC(2026, 10, 24, 12),
    status: 'running',
    total: 2,
    processed: 0,
    succeeded: 0,
    failures: [],
    runs: [],
    ...over,
  };
}

describe('WorkflowsStore', () => {
  const newDir = useTempDirs();
  let current = '';
  const dir = () => current || (current = newDir());
  beforeEach(() => (current = ''));

  it('keeps jobs per profile across instances, and marks a job left running as interrupted', () => {
    const file = join(dir(), 'workflows.json');
    const store = new WorkflowsStore(file);
    store.putJob(job({ cursor: '50', processed: 50 }));
    store.putJob(job({ id: 'job-2', profileId: 'cloud', status: 'done' }));
    expect(store.jobs('local').map((j) => j.id)).toEqual(['job-1']);

    const reopened = new WorkflowsStore(file);
    const [interrupted] = reopened.jobs('local');
    expect(interrupted).toMatchObject({ id: 'job-1', status: 'interrupted', cursor: '50', processed: 50 });
    expect(reopened.jobs('cloud')[0]!.status).toBe('done');
    // The change is written back, so a third launch sees it too.
    expect(JSON.parse(readFileSync(file, 'utf8')).jobs.local[0].status).toBe('interrupted');
  });

  it('updates a job in place and keeps the newest JOURNAL_LIMIT jobs first', () => {
    const store = new WorkflowsStore(join(dir(), 'workflows.json'));
    for (let i = 0; i < JOURNAL_LIMIT + 5; i += 1) store.putJob(job({ id: `job-${i}` }));
    store.putJob(job({ id: `job-${JOURNAL_LIMIT + 4}`, status: 'done', succeeded: 2 }));
    const jobs = store.jobs('local');
    expect(jobs).toHaveLength(JOURNAL_LIMIT);
    expect(jobs[0]).toMatchObject({ id: `job-${JOURNAL_LIMIT + 4}`, status: 'done', succeeded: 2 });
    expect(jobs.some((j) => j.id === 'job-0')).toBe(false);
  });

  it('clears finished jobs but keeps a running one', () => {
    const store = new WorkflowsStore(join(dir(), 'workflows.json'));
    store.putJob(job({ id: 'a', status: 'done' }));
    store.putJob(job({ id: 'b', status: 'running' }));
    expect(store.clearJobs('local')).toBe(1);
    expect(store.jobs('local').map((j) => j.id)).toEqual(['b']);
  });

  it('saves, replaces by name, lists and deletes views per profile', () => {
    const file = join(dir(), 'workflows.json');
    const store = new WorkflowsStore(file, () => 42);
    const failed = store.saveView('local', 'Failed', { state: 'RUN_FAILED' });
    store.saveView('local', 'Charge', { label: ['charge'] });
    const replaced = store.saveView('local', 'Failed', { state: 'RUN_FAILED', label: ['x'] });
    expect(replaced.id).toBe(failed.id);
    const reopened = new WorkflowsStore(file);
    expect(reopened.views('local').map((v) => [v.name, v.filters])).toEqual([
      ['Charge', { label: ['charge'] }],
      ['Failed', { state: 'RUN_FAILED', label: ['x'] }],
    ]);
    expect(reopened.views('cloud')).toEqual([]);
    expect(reopened.deleteView('local', failed.id)).toBe(true);
    expect(reopened.deleteView('local', failed.id)).toBe(false);
  });

  it('moves an unreadable file aside instead of overwriting the journal', () => {
    const opened = openOverUnreadable(
      join(dir(), 'workflows.json'),
      '{not json',
      (...args) => new WorkflowsStore(...args),
      7,
    );
    expect(opened.store.jobs('local')).toEqual([]);
    expect(opened.problems).toHaveLength(1);
    expect(opened.filesLeft).toEqual([opened.aside]);
  });
});

describe('journalCsv', () => {
  it('writes one quoted row per job with ids, overrides, created runs and failures', () => {
    const csv = journalCsv([
      job({
        status: 'done',
        finishedAt: Date.UTC(2026, 10, 24, 12, 1),
        processed: 2,
        succeeded: 1,
        description: 'group "charge", 503',
        runs: [{ workflowRunId: 'wfr_new', workflowCreatedAt: 5 }],
        failures: [{ dlqId: 'd2', message: 'not found, gone' }],
      }),
    ]);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.startsWith('id,action,status,description,target')).toBe(true);
    expect(lines[1]).toContain('"group ""charge"", 503"');
    expect(lines[1]).toContain('ids: d1 d2');
    expect(lines[1]).toContain('"{""retries"":2}"');
    expect(lines[1]).toContain('2026-11-24T12:01:00.000Z');
    expect(lines[1]).toContain('wfr_new@5');
    expect(lines[1]).toContain('"d2: not found, gone"');
  });
});
