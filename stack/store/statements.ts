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
}
