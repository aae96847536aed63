// The Workflows area's own file: saved views per profile, an unreadable file moved aside, and an older
// version's workflow DLQ journal handed once to the one journal of every service.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openOverUnreadable } from '../../testing/corrupt-file';
import { useTempDirs } from '../../../../shared/testing/temp-dir';
import { fromLegacyJob, type LegacyJob } from './legacy-jobs';
import { WorkflowsStore } from './store';

function legacy(over: Partial<LegacyJob> = {}): LegacyJob {
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

  it('hands an older version’s journal over once, and keeps the views', () => {
    const file = join(dir(), 'workflows.json');
    const view = { id: 'v1', name: 'Failed', filters: { state: 'RUN_FAILED' }, savedAt: 1 };
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        jobs: { local: [legacy({ status: 'running' })] },
        views: { local: [view] },
      }),
    );
    const adopted: LegacyJob[][] = [];
    const store = new WorkflowsStore(
      file,
      Date.now,
      () => {},
      (jobs) => adopted.push(jobs),
    );
    expect(adopted).toEqual([[legacy({ status: 'running' })]]);
    expect(store.views('local')).toEqual([view]);
    expect(JSON.parse(readFileSync(file, 'utf8')).jobs).toEqual({});
    new WorkflowsStore(
      file,
      Date.now,
      () => {},
      (jobs) => adopted.push(jobs),
    );
    expect(adopted).toHaveLength(1);
  });

  it('an older job on ids resumes where it stopped; one on a filter is kept as a record', () => {
    const onIds = fromLegacyJob(legacy({ status: 'running', cursor: '1', processed: 1 }), () => 'Local');
    expect(onIds).toMatchObject({
      items: ['d1', 'd2'],
      next: 1,
      record: {
        procedure: 'workflows.dlq.job',
        status: 'interrupted',
        target: { ids: 2 },
        profileName: 'Local',
      },
      input: { target: { ids: ['d1', 'd2'] }, action: 'restart' },
    });
    const onFilter = fromLegacyJob(
      legacy({
        status: 'cancelled',
        target: { filters: { label: ['x'] } },
        runs: [{ workflowRunId: 'wfr_1', workflowCreatedAt: 5 }],
      }),
      () => 'Local',
    );
    expect(onFilter.record).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/cannot be resumed/),
      created: [{ id: 'wfr_1', createdAt: 5 }],
    });
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
    expect(opened.store.views('local')).toEqual([]);
    expect(opened.problems).toHaveLength(1);
    expect(opened.filesLeft).toEqual([opened.aside]);
  });
});
