// The run log cache (log-cache.ts): a prefix from memory is byte for byte the encoding of the rows, and the
// cache answers only when it holds every entry of the prefix. The kept active runs (active-runs.ts).
import { describe, expect, it } from 'vitest';
import type { CallType, LogEntry, RunRecord } from '../store/workflow-store';
import { ActiveRuns } from './active-runs';
import { RunLogCache } from './log-cache';
import { rawSteps } from './records';

function entry(pos: number, body: string | Buffer, callType: CallType = 'step'): LogEntry {
  return {
    pos,
    messageId: `msg_${pos}`,
    callType,
    createdAt: 0,
    body: typeof body === 'string' ? Buffer.from(body) : body,
  };
}

const encoded = (entries: LogEntry[]): string => JSON.stringify(rawSteps(entries));

describe('RunLogCache', () => {
  it('answers each prefix exactly as encoding the log does, for any body', () => {
    const cache = new RunLogCache();
    const log = [
      entry(0, '{"payload":"ünïcødé \\" quotes"}'),
      entry(1, Buffer.from([0, 255, 10, 13, 34, 92])),
      entry(2, '', 'toCallback'),
      entry(3, '{"stepId":3,"out":"\\u2028"}', 'fromCallback'),
    ];
    log.forEach((item) => cache.add(7, item.pos, item));
    for (const item of log) {
      expect(cache.prefix(item.messageId)?.toString()).toBe(encoded(log.slice(0, item.pos + 1)));
    }
  });

  it('does not answer a prefix with an entry it never saw, until that entry is filled in', () => {
    const cache = new RunLogCache();
    const log = [entry(0, 'a'), entry(1, 'b'), entry(2, 'c')];
    // A stack restarted mid-run: the first entry it sees is the run's third.
    cache.add(1, 2, log[2] as LogEntry);
    expect(cache.prefix('msg_2')).toBeUndefined();
    cache.fill(1, log);
    expect(cache.prefix('msg_2')?.toString()).toBe(encoded(log));
    expect(cache.prefix('msg_1')?.toString()).toBe(encoded(log.slice(0, 2)));
  });

  it('forgets a run when it is dropped, and the least recently used runs beyond its limits', () => {
    const cache = new RunLogCache({ runs: 2, chars: 1_000 });
    cache.add(1, 0, { ...entry(0, 'one'), messageId: 'run1' });
    cache.add(2, 0, { ...entry(0, 'two'), messageId: 'run2' });
    expect(cache.prefix('run1')).toBeDefined(); // run 1 is now the most recently used
    cache.add(3, 0, { ...entry(0, 'three'), messageId: 'run3' });
    expect(cache.prefix('run2')).toBeUndefined();
    expect(cache.prefix('run1')).toBeDefined();
    cache.drop(1);
    expect(cache.prefix('run1')).toBeUndefined();
    expect(cache.size).toBe(1);
    // One entry larger than the character limit is not kept at all.
    cache.add(4, 0, { ...entry(0, 'x'.repeat(2_000)), messageId: 'run4' });
    expect(cache.prefix('run4')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe('ActiveRuns', () => {
  const run = (runId: string, seq: number): RunRecord =>
    ({
      runId,
      seq,
      url: 'http://x',
      createdAt: 0,
      state: 'RUN_STARTED',
      logSize: 1,
      config: {},
    }) as RunRecord;

  it('reads a run once, forgets it when dropped, and keeps a newer run with the same id', () => {
    const reads: string[] = [];
    let current: RunRecord | undefined = run('a', 1);
    const runs = new ActiveRuns((runId) => (reads.push(runId), current));
    expect(runs.get('a')?.seq).toBe(1);
    expect(runs.get('a')?.seq).toBe(1);
    expect(reads).toEqual(['a']);
    current = run('a', 2); // the run ended and a new one took its id
    runs.drop({ runId: 'a', seq: 1 });
    expect(runs.get('a')?.seq).toBe(2);
    runs.drop({ runId: 'a', seq: 1 }); // a late drop of the old run
    expect(runs.get('a')?.seq).toBe(2);
    expect(reads).toEqual(['a', 'a']);
    current = undefined;
    runs.drop({ runId: 'a', seq: 2 });
    expect(runs.get('a')).toBeUndefined();
    expect(runs.size).toBe(0);
  });

  it('keeps at most its limit of runs, the least recently used going first', () => {
    const reads: string[] = [];
    const runs = new ActiveRuns((runId) => (reads.push(runId), run(runId, 0)), 2);
    runs.get('1');
    runs.get('2');
    runs.get('1');
    runs.get('3'); // evicts 2
    expect(runs.size).toBe(2);
    runs.get('1');
    runs.get('2');
    expect(reads).toEqual(['1', '2', '3', '2']);
  });
});
