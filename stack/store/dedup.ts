// The `dedup` table: deduplication ids and content hashes of recent publishes, until they expire.
import type { Statements } from './statements';

export class DedupTable {
  constructor(private readonly sql: Statements) {}

  /** The id of the message published under `key`, if that is still inside its window. */
  find(key: string, now: number): string | undefined {
    const row = this.sql
      .get('SELECT message_id FROM dedup WHERE key = ? AND expires_at > ?')
      .get(key, now) as { message_id: string } | undefined;
    return row?.message_id;
  }

  remember(key: string, messageId: string, expiresAt: number): void {
    this.sql
      .get(
        `INSERT INTO dedup (key, message_id, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET message_id = excluded.message_id, expires_at = excluded.expires_at`,
      )
      .run(key, messageId, expiresAt);
  }
}
