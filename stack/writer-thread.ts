// Entry of the SQLite writer thread: runs the stack's write operations (stack/writes.ts) in group commits.
import type { MessagePort } from 'node:worker_threads';
import type { Durability } from './store/db';
import { runCheckpointerThread, runWriterThread } from './store/writer';
import { STACK_WRITES } from './writes';

export interface WriterThreadData {
  file: string;
  durability: Durability;
}

export function startWriterThread(port: MessagePort, data: WriterThreadData): void {
  runWriterThread(port, data, STACK_WRITES);
}

export function startCheckpointerThread(port: MessagePort, data: { file: string }): void {
  runCheckpointerThread(port, data);
}
