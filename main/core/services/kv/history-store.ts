// The workbench history per profile, kept by main (never in browser storage: the browser host's origin
// changes with its port). One JSON file in the console's data folder, written atomically. Commands can
// carry values, never tokens: main adds Authorization only on the wire.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { KvHistoryEntry } from '../../../../shared/bridge/procedures/kv/workbench';
import { readJsonFile, writeJsonFile } from '../../json-file';

/** Newest first; older entries drop off. */
export const KV_HISTORY_LIMIT = 500;
/** Longer texts (pasted scripts) are kept cut, so the file stays small. */
const TEXT_LIMIT = 20_000;

const entrySchema = z.object({
  id: z.string(),
  at: z.number(),
  text: z.string(),
  kind: z.enum(['command', 'pipeline', 'transaction']),
  ok: z.boolean(),
});
const fileSchema = z.object({
  version: z.literal(1),
  history: z.record(z.string(), z.array(entrySchema)).default({}),
});

export class KvHistoryStore {
  private history: Record<string, KvHistoryEntry[]> = {};

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
    onCorrupt: (message: string) => void = () => {},
  ) {
    const read = readJsonFile(file, (raw) => fileSchema.parse(raw), { what: 'KV history', now, onCorrupt });
    if (read) this.history = read.history;
  }

  list(profileId: string): KvHistoryEntry[] {
    // Own entries only: the page names the profile, and `constructor` is a key of every object.
    return Object.hasOwn(this.history, profileId) ? this.history[profileId]! : [];
  }

  /** Adds an entry; running the same text again moves it to the top instead of repeating it. */
  add(profileId: string, entry: Omit<KvHistoryEntry, 'id' | 'at'>): KvHistoryEntry {
    const text = entry.text.length > TEXT_LIMIT ? entry.text.slice(0, TEXT_LIMIT) : entry.text;
    const full: KvHistoryEntry = { ...entry, text, id: randomUUID(), at: this.now() };
    const rest = this.list(profileId).filter((old) => old.text !== text || old.kind !== entry.kind);
    this.history[profileId] = [full, ...rest].slice(0, KV_HISTORY_LIMIT);
    this.save();
    return full;
  }

  clear(profileId: string): number {
    const count = this.list(profileId).length;
    delete this.history[profileId];
    this.save();
    return count;
  }

  private save(): void {
    writeJsonFile(this.file, { version: 1, history: this.history });
  }
}
