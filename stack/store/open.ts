// Opens the stack's storage: the database (migrated), the StackStore over it, the group-commit writer and
// the checkpointer thread. Every service of the stack shares what this returns.
import { openDatabase, type Db, type Durability } from './db';
import { StackStore } from './stack-store';
import { Checkpointer, InlineWriter, ThreadWriter, type OpRegistry, type Writer } from './writer';

export interface StorageOptions<O extends OpRegistry> {
  file: string;
  durability: Durability;
  /** Every write operation of every service (stack/writes.ts). */
  writes: O;
  /**
   * A script that starts the SQLite background threads when loaded as a worker (the bundled CLI). Always a
   * checkpointer thread; with `durability: 'full'` also a writer thread, so that per-commit fsyncs never block
   * the event loop. With `normal` durability commits stay on the main thread (no fsync, no thread hop: shorter
   * publish latency, higher throughput). Without a script everything runs on the main thread.
   */
  threadScript?: string;
  /** A failed fire-and-forget write (see Writer.enqueue). */
  onBackgroundError(error: Error): void;
}

export interface Storage<O extends OpRegistry> {
  db: Db;
  store: StackStore;
  writer: Writer<O>;
  /** Commits what is queued, stops the threads and closes the database. */
  close(): Promise<void>;
}

export async function openStorage<O extends OpRegistry>(options: StorageOptions<O>): Promise<Storage<O>> {
  const { file, durability, threadScript, onBackgroundError } = options;
  const db = openDatabase(file, durability);
  const checkpointer = threadScript ? new Checkpointer(threadScript, file, onBackgroundError) : undefined;
  let writer: Writer<O>;
  if (threadScript && durability === 'full') {
    const thread = new ThreadWriter<O>(threadScript, { file, durability }, onBackgroundError);
    writer = thread;
    try {
      // The stack is only ready once its writer is: the first publishes must not wait for a thread to boot.
      await thread.ready;
    } catch (error) {
      await thread.close().catch(() => undefined);
      await checkpointer?.close();
      db.close();
      throw error;
    }
  } else {
    const inline = new InlineWriter(db, options.writes, onBackgroundError);
    if (checkpointer) inline.withCheckpointer();
    writer = inline;
  }
  return {
    db,
    store: new StackStore(db),
    writer,
    async close() {
      await writer.close();
      await checkpointer?.close();
      db.close();
    },
  };
}
