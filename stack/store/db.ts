// Opens the stack's SQLite database (WAL) and brings its schema up to date.
import { chmodSync, closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

/**
 * Both modes commit a write to the WAL before the request that caused it is answered, so an acknowledged
 * message survives a crash or `kill -9` of the stack.
 * `normal`: the WAL is fsynced by the checkpointer thread within about 100 ms, not per commit — an OS crash or
 * power loss may lose that last fraction of a second (the promise of Redis' `appendfsync everysec`, tighter).
 * `full`: every commit is fsynced before the answer (survives power loss; costs latency on a slow disk).
 */
export type Durability = 'full' | 'normal';

/**
 * The database holds the message token and signing keys: it is for the user alone (0600) whatever the umask.
 * SQLite gives the -wal and -shm files the database file's mode, so the file is created (or tightened)
 * before SQLite opens it; files left by an older stack are tightened too.
 */
function restrictToOwner(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      chmodSync(path, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

export function openDatabase(file: string, durability: Durability): Db {
  if (file !== ':memory:' && file !== '') restrictToOwner(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `the database schema (version ${current}) is newer than this stack understands (${MIGRATIONS.length}); ` +
        'use a newer Switchyard or another --data-dir',
    );
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version] as string);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
