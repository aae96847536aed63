// The `queues` table: each queue's parallelism and paused flag (its messages are rows of `messages`).
import type { Statements } from './statements';

export interface QueueRecord {
  name: string;
  parallelism: number;
  paused: boolean;
  createdAt: number;
  updatedAt: number;
}

interface QueueRow {
  name: string;
  parallelism: number;
  paused: number;
  created_at: number;
  updated_at: number;
}

function toQueue(row: QueueRow): QueueRecord {
  return {
    name: row.name,
    parallelism: row.parallelism,
    paused: row.paused === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class QueueTable {
  constructor(private readonly sql: Statements) {}

  get(name: string): QueueRecord | undefined {
    return this.sql.one('SELECT * FROM queues WHERE name = ?', toQueue, name);
  }

  list(): QueueRecord[] {
    return this.sql.all('SELECT * FROM queues ORDER BY name', toQueue);
  }

  upsert(name: string, parallelism: number, paused: boolean, now: number): QueueRecord {
    this.sql
      .get(
        `INSERT INTO queues (name, parallelism, paused, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET parallelism = excluded.parallelism, paused = excluded.paused,
          updated_at = excluded.updated_at`,
      )
      .run(name, parallelism, paused ? 1 : 0, now, now);
    return this.get(name) as QueueRecord;
  }

  delete(name: string): boolean {
    return this.sql.get('DELETE FROM queues WHERE name = ?').run(name).changes > 0;
  }
}
