import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../../shared/testing/temp-dir';
import { migrate, openDatabase, type Db } from './db';
import { MIGRATIONS } from './migrations';
import { StackStore } from './stack-store';

const tempDirs = useTempDirs('switchyard-row-ids-');
const dbFile = (): string => join(tempDirs(), 'stack.db');

/** The migration that took AUTOINCREMENT off `messages` and `events`. */
const REBUILD = MIGRATIONS.findIndex((sql) =>
  sql.includes('ALTER TABLE messages RENAME TO messages_before_8'),
);

function insert(store: StackStore, id: string): number {
  const seq = store.messages.insert({
    id,
    createdAt: 1,
    dueAt: 1,
    spec: { url: 'http://h/', method: 'POST', header: {}, notBefore: 1, maxRetries: 3 },
    body: Buffer.from(id),
  });
  store.events.insert(seq, 1, 'CREATED');
  return seq;
}

const maxEventId = (db: Db): number => db.prepare('SELECT max(id) FROM events').pluck().get() as number;

describe('messages and events without AUTOINCREMENT (migration 8)', () => {
  it('keeps every row byte for byte, the indexes, and the ids AUTOINCREMENT had handed out', () => {
    expect(REBUILD).toBe(7);
    const file = dbFile();
    const db = new Database(file);
    for (const sql of MIGRATIONS.slice(0, REBUILD)) db.exec(sql);
    db.pragma(`user_version = ${REBUILD}`);
    const message = db.prepare(
      `INSERT INTO messages (id, created_at, due_at, retried, cancel_requested, done, outcome, finished_at, url, host,
         path, topic_name, endpoint_name, queue_name, flow_key, schedule_id, caller_ip, labels, spec, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'http://h/a', 'h', '/a', ?, NULL, ?, ?, ?, '127.0.0.1', ?, ?, ?)`,
    );
    const event = db.prepare('INSERT INTO events (time, message_seq, state, data) VALUES (?, ?, ?, ?)');
    for (let i = 1; i <= 6; i++) {
      const done = i % 2;
      message.run(
        `msg_${i}`,
        1000 + i,
        2000 + i,
        i,
        0,
        done,
        done ? 'DELIVERED' : null,
        done ? 3000 + i : null,
        i === 2 ? 'topic' : null,
        i === 3 ? 'queue' : null,
        i === 3 ? 'key' : null,
        i === 4 ? 'scd_1' : null,
        i === 5 ? '["a","b"]' : null,
        `{"url":"http://h/a","n":${i}}`,
        Buffer.from([0, 255, 254, i, 0xc3, 0x28]), // not UTF-8: must come back as the same bytes
      );
      event.run(1000 + i, i, 'CREATED', null);
      if (done) event.run(3000 + i, i, 'DELIVERED', `{"responseStatus":200,"n":${i}}`);
    }
    // The newest message and its events go (as a withdraw does): AUTOINCREMENT remembers ids past the rows.
    db.prepare('DELETE FROM events WHERE message_seq = 6').run();
    db.prepare('DELETE FROM messages WHERE seq = 6').run();
    const sequence = () =>
      Object.fromEntries(
        db
          .prepare('SELECT name, seq FROM sqlite_sequence')
          .all()
          .map((row) => {
            const { name, seq } = row as { name: string; seq: number };
            return [name, seq];
          }),
      );
    const before = sequence();
    expect(before).toMatchObject({ messages: 6 });
    const eventsHandedOut = before.events as number;
    expect(eventsHandedOut).toBeGreaterThan(maxEventId(db));
    const rows = (table: string) => db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).raw().all();
    const messages = rows('messages');
    const events = rows('events');
    const indexes = () =>
      db
        .prepare(
          `SELECT tbl_name, name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('messages', 'events')
           AND name NOT LIKE 'sqlite_autoindex_%' ORDER BY name`,
        )
        .all();
    const indexesBefore = indexes();
    const unique = () =>
      db.prepare('SELECT name FROM pragma_index_list(\'messages\') WHERE "unique" = 1').all();
    expect(unique()).toHaveLength(1);

    migrate(db);

    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(rows('messages')).toEqual(messages);
    expect(rows('events')).toEqual(events);
    expect(indexes()).toEqual(indexesBefore);
    expect(unique()).toHaveLength(1);
    const schema = db
      .prepare("SELECT sql FROM sqlite_master WHERE name IN ('messages', 'events')")
      .pluck()
      .all() as string[];
    expect(schema).toHaveLength(2);
    for (const sql of schema) expect(sql).not.toMatch(/AUTOINCREMENT/i);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE '%before_8%'").pluck().get()).toBe(
      0,
    );
    expect(Object.keys(sequence())).not.toContain('messages');
    expect(Object.keys(sequence())).not.toContain('events');
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

    // The next ids follow the largest ever handed out, not the largest left.
    const store = new StackStore(db);
    expect(insert(store, 'msg_after')).toBe(7);
    expect(maxEventId(db)).toBe(eventsHandedOut + 1);
    expect(store.messages.getById('msg_5')?.body).toEqual(Buffer.from([0, 255, 254, 5, 0xc3, 0x28]));
    db.close();
  });
});

describe('row ids', () => {
  /** Opens the database file as a (re)started stack does, runs `work` on a store over it, and closes it. */
  function session(file: string, work: (store: StackStore, db: Db) => void): void {
    const db = openDatabase(file, 'full');
    try {
      work(new StackStore(db), db);
    } finally {
      db.close();
    }
  }

  it('never hands out the id of a withdrawn message or its events again, across restarts too', () => {
    const file = dbFile();
    session(file, (store, db) => {
      expect([insert(store, 'msg_a'), insert(store, 'msg_b'), insert(store, 'msg_c')]).toEqual([1, 2, 3]);
      expect(store.messages.withdraw(['msg_c'])).toBe(1);
      expect(insert(store, 'msg_d')).toBe(4); // SQLite's own rule (largest + 1) would give 3
      expect(maxEventId(db)).toBe(4);
      expect(store.messages.withdraw(['msg_d'])).toBe(1);
    });
    session(file, (store, db) => {
      expect(insert(store, 'msg_e')).toBe(5);
      expect(maxEventId(db)).toBe(5);
    });
  });

  it('never hands out the id of a pruned row again, even once every row is gone and the stack restarted', () => {
    const file = dbFile();
    session(file, (store, db) => {
      for (const id of ['msg_a', 'msg_b']) {
        const seq = insert(store, id);
        store.events.insertActiveDelivered(seq, 2, 3, { responseStatus: 200 });
        store.messages.finish(seq, 'DELIVERED', 3);
      }
      store.prune(100, 50, 50);
      expect(db.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(0);
    });
    session(file, (store, db) => {
      expect(insert(store, 'msg_c')).toBe(3);
      expect(maxEventId(db)).toBe(7);
    });
  });

  it('shares one counter between the stores of a connection', () => {
    const db = openDatabase(dbFile(), 'full');
    const writerSide = new StackStore(db);
    const readerSide = new StackStore(db);
    expect(insert(writerSide, 'msg_a')).toBe(1);
    expect(insert(readerSide, 'msg_b')).toBe(2);
    expect(insert(writerSide, 'msg_c')).toBe(3);
    db.close();
  });
});
