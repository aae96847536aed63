// Where the stack's warm-up runs, and why it can never lose or leave data.
//
// The warm-up (stack/messages/warm-up.ts) publishes and delivers real messages, so that V8 and the write path
// are warm when the stack reports ready. An earlier version rehearsed on the real service with the writer in
// a rollback mode; the real port was already listening and the engine delivering messages recovered from the
// database, so real writes fell into rolled-back transactions and were lost. Here nothing real can meet the
// rehearsal, by construction rather than by timing:
//
// - Its own database: a scratch file in the (locked) data dir, opened by a storage and writer of its own.
//   The real writer's transactions never touch that file and the rehearsal's writer never touches stack.db,
//   so no write of the rehearsal can land in the real database and no real write can be thrown away with
//   the scratch one. There is no rollback mode at all: both databases commit normally; the scratch file is
//   simply deleted (and deleted again at the next start, should the process die during the warm-up).
// - Its own service: a separate message service (with its peers) over the scratch storage, with random
//   credentials, a silent logger and its own engine and delivery pool, on a private port 0 of 127.0.0.1 that
//   only the rehearsal knows. It is closed before the real one starts.
// - It runs before the real service exists: stack/stack.ts calls this before startMessageService(), so the
//   real engine has loaded no recovered message yet and the real port is not listening — a client that
//   connects as soon as the port accepts connections talks to a warmed-up stack, never to a rehearsal.
//
// What warms the real service is what both share: the code. V8 optimises functions, not instances, so the
// publish, planning, engine, group-commit and delivery code compiled for the scratch service is the code the
// real one runs. (With `--durability full` the real writer thread is a separate isolate that the scratch
// writer thread does not warm; the main thread's side of it is warmed.)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CredentialStore } from './credentials';
import type { MessageService } from './messages/service';
import { rehearse, type RehearsalReport } from './messages/warm-up';
import type { Durability } from './store/db';
import { openStorage, type Storage } from './store/open';
import { STACK_WRITES, type StackWrites } from './writes';

/** The scratch database's name in the data dir (with its -wal and -shm files while it exists). */
export const SCRATCH_DB = 'warm-up-scratch.db';

export interface ScratchWarmUpOptions {
  dataDir: string;
  /** The real stack's durability and writer script, so that the scratch takes the same write path. */
  durability: Durability;
  writerScript?: string;
  /**
   * Starts the stack's message service and its peers over the scratch storage, on 127.0.0.1 port 0 with a
   * silent logger (stack/stack.ts passes the same service options as the real stack's).
   */
  startServices(storage: Storage<StackWrites>, credentials: CredentialStore): Promise<MessageService>;
  /** Messages and time at most (stack/messages/warm-up.ts). */
  messages?: number;
  maxMs?: number;
}

export async function warmUpOnScratch(options: ScratchWarmUpOptions): Promise<RehearsalReport> {
  const file = join(options.dataDir, SCRATCH_DB);
  removeScratch(file);
  const storage = await openStorage({
    file,
    durability: options.durability,
    writes: STACK_WRITES,
    // The writer thread of `full` durability; `normal` commits on this thread as the real stack does.
    threadScript: options.durability === 'full' ? options.writerScript : undefined,
    onBackgroundError: () => undefined,
  });
  try {
    const credentials = new CredentialStore(storage.store, true);
    const service = await options.startServices(storage, credentials);
    try {
      return await rehearse({
        url: service.url,
        token: credentials.token(),
        engine: service.engine,
        messages: options.messages,
        maxMs: options.maxMs,
      });
    } finally {
      await service.close(500);
    }
  } finally {
    await storage.close();
    removeScratch(file);
  }
}

function removeScratch(file: string): void {
  for (const path of [file, `${file}-wal`, `${file}-shm`]) rmSync(path, { force: true });
}
