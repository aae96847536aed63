// The `settings` table: small named values the stack keeps across restarts (credentials, signing keys).
import type { Statements } from './statements';

export class SettingsTable {
  constructor(private readonly sql: Statements) {}

  get(key: string): string | undefined {
    const row = this.sql.get('SELECT value FROM settings WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row?.value;
  }

  set(key: string, value: string): void {
    this.sql
      .get(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }
}
