// Entry of the SQLite writer thread: picks the registry of write operations the main thread asked for.
import type { MessagePort } from 'node:worker_threads';
import { MESSAGE_WRITES } from './messages/write-ops';
import { WORKFLOW_WRITES } from './workflows/write-ops';
import type { Durability } from './store/db';
import { runCheckpointerThread, runWriterThread, type OpRegistry } from './store/writer';

const REGISTRIES: Record<string, OpRegistry> = {
  messages: MESSAGE_WRITES,
  // The message and workflow services share one writer (stack/workflows/service.ts).
  stack: { ...MESSAGE_WRITES, ...WORKFLOW_WRITES },
};

export interface WriterThreadData {
  file: string;
  durability: Durability;
  registry: string;
}

export function startWriterThread(port: MessagePort, data: WriterThreadData): void {
  const registry = REGISTRIES[data.registry];
  if (!registry) throw new Error(`unknown write registry '${data.registry}'`);
  runWriterThread(port, data, registry);
}

export function startCheckpointerThread(port: MessagePort, data: { file: string }): void {
  runCheckpointerThread(port, data);
}
