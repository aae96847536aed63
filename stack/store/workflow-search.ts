// Text search over workflow runs: an FTS5 index (`workflow_search`, contentless) of each run's payload, step
// outputs, call bodies, errors and response. A row's rowid is run_seq * 2^24 + n (n counts the run's rows in
// `workflow_runs.search_size`), so a MATCH read in rowid order gives runs newest first and a page stops early.
import type { Statements } from './statements';

const PER_RUN = 16_777_216; // 2^24
/** Longest text indexed per piece: search is for finding runs, not for whole documents. */
export const SEARCH_TEXT_MAX = 64 * 1024;

/**
 * The user's text as an FTS5 query: every word must occur (as a word prefix), a "quoted phrase" as a phrase.
 * Undefined when there is nothing to search for.
 */
export function searchQuery(text: string): string | undefined {
  const parts: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const words = (match[1] ?? match[2] ?? '').match(/[\p{L}\p{N}]+/gu) ?? [];
    if (words.length === 0) continue;
    parts.push(match[1] !== undefined ? `"${words.join(' ')}"` : words.map((word) => `"${word}"*`).join(' '));
  }
  return parts.length > 0 ? parts.join(' AND ') : undefined;
}

/** What of `text` the index keeps (its first SEARCH_TEXT_MAX characters); undefined when nothing is left. */
export function indexedText(text: string): string | undefined {
  const value = text.length > SEARCH_TEXT_MAX ? text.slice(0, SEARCH_TEXT_MAX) : text;
  return value.trim() === '' ? undefined : value;
}

export class WorkflowSearchTable {
  constructor(private readonly sql: Statements) {}

  /** Takes the next number of the run's pieces (undefined when there is no such run). */
  take(runSeq: number): number | undefined {
    const row = this.sql
      .get(
        'UPDATE workflow_runs SET search_size = search_size + 1 WHERE seq = ? RETURNING search_size - 1 AS n',
      )
      .get(runSeq) as { n: number } | undefined;
    return row?.n;
  }

  /**
   * Indexes a piece (from indexedText) whose number `n` the caller has already taken from the run's
   * `search_size` — a log append takes it in the same UPDATE as the log size (WorkflowStore.appendLog).
   */
  insert(runSeq: number, n: number, value: string): void {
    if (n >= PER_RUN) return;
    this.sql.get('INSERT INTO workflow_search (rowid, text) VALUES (?, ?)').run(runSeq * PER_RUN + n, value);
  }

  /**
   * Run seqs whose text matches `query` (an FTS5 query from searchQuery), newest first, below `before`;
   * `accept` picks the ones that also pass the other filters. Stops after `count` runs.
   */
  runs(
    query: string,
    before: number | undefined,
    count: number,
    accept: (runSeq: number) => boolean,
  ): { runSeqs: number[]; next?: number } {
    const below = before !== undefined ? before * PER_RUN : Number.MAX_SAFE_INTEGER;
    const matches = this.sql
      .get(
        'SELECT rowid FROM workflow_search WHERE workflow_search MATCH ? AND rowid < ? ORDER BY rowid DESC',
      )
      .iterate(query, below) as IterableIterator<{ rowid: number }>;
    const runSeqs: number[] = [];
    let last: number | undefined;
    for (const { rowid } of matches) {
      const runSeq = Math.floor(rowid / PER_RUN);
      if (runSeq === last) continue;
      last = runSeq;
      if (!accept(runSeq)) continue;
      if (runSeqs.length === count) {
        // One more matching run exists: the page ends before it.
        return { runSeqs, next: runSeqs[runSeqs.length - 1] };
      }
      runSeqs.push(runSeq);
    }
    return { runSeqs };
  }
}
