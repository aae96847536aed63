// The append's writes to the run's row (write-ops.ts wfAppend, WorkflowStore.appendLog): log size, step state
// and search pieces change together in one UPDATE, with the rows the three separate updates used to give; the
// step lookup that refuses a duplicate step is planned on the step index, not a walk of the run's log.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../shared/testing/temp-dir';
import { openDatabase, type Db } from '../store/db';
import { StackStore } from '../store/stack-store';
import { workflowStoreOf, type NewRun } from '../store/workflow-store';
import { WORKFLOW_WRITES, type AppendItem } from './write-ops';
import { WORKFLOW_HISTORY_WRITES } from './history-writes';

const tempDirs = useTempDirs('switchyard-wf-append-');

function open(): { db: Db; store: StackStore } {
  const db = openDatabase(join(tempDirs(), 'stack.db'), 'normal');
  return { db, store: new StackStore(db) };
}

const PER_RUN = 2 ** 24;
const run: NewRun = { runId: 'wfr_a', url: 'http://h/', createdAt: 1, config: { header: {}, maxRetries: 0 } };
const step = (
  stepId: number,
  fields: Record<string, unknown>,
  extra: Partial<AppendItem> = {},
): AppendItem => ({
  runSeq: 1,
  entry: {
    messageId: `msg_${stepId}_${String(extra.stepState)}`,
    callType: 'step',
    body: Buffer.from(JSON.stringify({ stepId, ...fields })),
    stepKey: `step:${stepId}`,
  },
  ...extra,
});

describe('wfAppend and the run row', () => {
  it('keeps log size, step state and search pieces as separate updates did, numbering pieces without gaps', () => {
    const { db, store } = open();
    const append = (item: AppendItem) => WORKFLOW_WRITES.wfAppend(store, [item], 10)[0];
    const row = () =>
      db.prepare('SELECT log_size, search_size, step_state FROM workflow_runs WHERE seq = 1').get() as {
        log_size: number;
        search_size: number;
        step_state: string | null;
      };
    const matches = (word: string) =>
      db
        .prepare('SELECT rowid FROM workflow_search WHERE workflow_search MATCH ? ORDER BY rowid')
        .pluck()
        .all(`"${word}"`);

    expect(
      append({ create: run, entry: { messageId: 'msg_t', callType: 'step', body: Buffer.from('zebra') } }),
    ).toMatchObject({ runSeq: 1, pos: 0 });
    expect(row()).toEqual({ log_size: 1, search_size: 1, step_state: null });

    expect(
      append(step(1, { stepName: 'charge', out: '"paid"' }, { stepState: 'STEP_PROGRESS' })),
    ).toMatchObject({
      pos: 1,
    });
    expect(row()).toEqual({ log_size: 2, search_size: 2, step_state: 'STEP_PROGRESS' });

    // A step with no text: logged, its step state set, no search piece taken.
    expect(append(step(2, {}, { stepState: 'STEP_RETRY' }))).toMatchObject({ pos: 2 });
    expect(row()).toEqual({ log_size: 3, search_size: 2, step_state: 'STEP_RETRY' });

    // A piece added on its own (an error's text) between appends takes the next number.
    WORKFLOW_HISTORY_WRITES.wfSearchText(store, 1, 'gateway timeout');

    // No step state given: left as it is; null clears it.
    expect(append(step(3, { stepName: 'ship', out: '"sent"' }))).toMatchObject({ pos: 3 });
    expect(row()).toEqual({ log_size: 4, search_size: 4, step_state: 'STEP_RETRY' });
    expect(append(step(4, { stepName: 'notify', out: '"ok"' }, { stepState: null }))).toMatchObject({
      pos: 4,
    });
    expect(row()).toEqual({ log_size: 5, search_size: 5, step_state: null });

    // A step logged already: refused as a duplicate, nothing of the row changes.
    expect(append(step(1, { stepName: 'charge', out: '"again"' }, { stepState: 'STEP_PROGRESS' }))).toEqual({
      runSeq: 1,
      deduplicated: true,
      messageId: 'msg_1_STEP_PROGRESS',
    });
    expect(row()).toEqual({ log_size: 5, search_size: 5, step_state: null });
    expect(matches('again')).toEqual([]);

    expect(WORKFLOW_WRITES.wfFinish(store, 1, 'RUN_SUCCESS', 20, 'all done', null)).toEqual([]);
    expect(row()).toEqual({ log_size: 5, search_size: 6, step_state: null });

    const piece = (n: number) => PER_RUN + n;
    expect(matches('zebra')).toEqual([piece(0)]);
    expect(matches('charge')).toEqual([piece(1)]);
    expect(matches('gateway')).toEqual([piece(2)]);
    expect(matches('ship')).toEqual([piece(3)]);
    expect(matches('notify')).toEqual([piece(4)]);
    expect(matches('done')).toEqual([piece(5)]);
    expect(db.prepare('SELECT pos, step_key FROM workflow_log ORDER BY pos').raw().all()).toEqual([
      [0, null],
      [1, 'step:1'],
      [2, 'step:2'],
      [3, 'step:3'],
      [4, 'step:4'],
    ]);
    db.close();
  });

  it('finds a logged step of a long run on the step index, and refuses its duplicate', () => {
    const { db, store } = open();
    const prepared: string[] = [];
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof db.prepare;
    WORKFLOW_WRITES.wfAppend(
      store,
      [{ create: run, entry: { messageId: 'msg_t', callType: 'step', body: Buffer.from('x') } }],
      1,
    );
    const steps = Array.from({ length: 1_000 }, (_, i) => step(i + 1, { out: `"${i}"` }));
    expect(WORKFLOW_WRITES.wfAppend(store, steps, 2).every((result) => result && !result.deduplicated)).toBe(
      true,
    );
    const again = WORKFLOW_WRITES.wfAppend(store, [step(500, { out: '"dup"' })], 3)[0];
    expect(again).toEqual({ runSeq: 1, deduplicated: true, messageId: 'msg_500_undefined' });

    expect(workflowStoreOf(store).loggedStep(1, 'step:999')).toBe('msg_999_undefined');
    expect(workflowStoreOf(store).loggedStep(1, 'step:1001')).toBeUndefined();
    // The lookup's statement (prepared once, at the run's first step): its plan.
    const sql = prepared.find((text) => text.includes('step_key = ?'));
    expect(sql).toBeDefined();
    const plan = prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(1, 'step:1')
      .map((row) => (row as { detail: string }).detail);
    expect(plan.join('\n')).toMatch(/USING INDEX workflow_log_step \(run_seq=\? AND step_key=\?\)/);
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
    db.close();
  });

  it('inserts search pieces last in a group transaction, and not at all when the transaction fails', () => {
    const { db, store } = open();
    const pieces = () => db.prepare('SELECT rowid FROM workflow_search ORDER BY rowid').pluck().all();
    const trigger: AppendItem = {
      create: run,
      entry: { messageId: 'msg_t', callType: 'step', body: Buffer.from('zebra') },
    };
    const seen: unknown[][] = [];
    db.transaction(() =>
      store.withLastWrites(() => {
        WORKFLOW_WRITES.wfAppend(store, [trigger], 1);
        WORKFLOW_WRITES.wfAppend(store, [step(1, { stepName: 'charge', out: '"paid"' })], 2);
        seen.push(pieces()); // held back so far
      }),
    )();
    expect(seen).toEqual([[]]);
    expect(pieces()).toEqual([PER_RUN, PER_RUN + 1]);

    // A transaction that fails: its pieces are neither inserted nor left over for the next one.
    expect(() =>
      db.transaction(() =>
        store.withLastWrites(() => {
          WORKFLOW_WRITES.wfAppend(store, [step(2, { stepName: 'ship', out: '"sent"' })], 3);
          throw new Error('a later write failed');
        }),
      )(),
    ).toThrow('a later write failed');
    db.transaction(() =>
      store.withLastWrites(() => WORKFLOW_HISTORY_WRITES.wfSearchText(store, 1, 'gateway')),
    )();
    expect(pieces()).toEqual([PER_RUN, PER_RUN + 1, PER_RUN + 2]);
    expect(
      db.prepare("SELECT rowid FROM workflow_search WHERE workflow_search MATCH 'ship'").pluck().all(),
    ).toEqual([]);
    expect(
      db.prepare("SELECT rowid FROM workflow_search WHERE workflow_search MATCH 'gateway'").pluck().all(),
    ).toEqual([PER_RUN + 2]);
    db.close();
  });
});
