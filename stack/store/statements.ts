// Prepared statements of one connection, cached by their SQL text. Every table module of the store shares one
// cache, so a statement is prepared once per connection whichever module runs it.
import type { Statement } from 'better-sqlite3';
import type { Db } from './db';

/** Named parameters of a dynamically built query. */
export type Params = Record<string, string | number>;

export class Statements {
  private readonly cache = new Map<string, Statement<unknown[]>>();

  constructor(readonly db: Db) {}

  get(sql: string): Statement<unknown[]> {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // Dynamic filter queries vary; keep the cache from growing without bound.
      if (this.cache.size > 500) this.cache.clear();
      this.cache.set(sql, statement);
    }
    return statement;
  }

  /** The row `sql` selects with `params`, made a record by `toRecord`; undefined when there is none. */
  one<Row, Rec>(sql: string, toRecord: (row: Row) => Rec, ...params: unknown[]): Rec | undefined {
    const row = this.get(sql).get(...params) as Row | undefined;
    return row && toRecord(row);
  }

  /** Every row `sql` selects with `params`, each made a record by `toRecord`. */
  all<Row, Rec>(sql: string, toRecord: (row: Row) => Rec, ...params: unknown[]): Rec[] {
    return (this.get(sql).all(...params) as Row[]).map((row) => toRecord(row));
  }
}
