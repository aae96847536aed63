// The indexes opened in the Search tab, per profile, kept by main: when the service refuses SEARCH.LISTINDEXES
// (an older service), the names the user opened before are what the index field suggests (beside the aliases).
// One JSON file in the console's data folder, written atomically like the workbench history.
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../../json-file';

/** Newest first; older names drop off. */
export const KV_SEARCH_RECENT_LIMIT = 20;

const fileSchema = z.object({
  version: z.literal(1),
  recent: z.record(z.string(), z.array(z.string())).default({}),
});

export class KvSearchStore {
  private recent: Record<string, string[]> = {};

  constructor(
    private readonly file: string,
    now: () => number = Date.now,
    onCorrupt: (message: string) => void = () => {},
  ) {
    const read = readJsonFile(file, (raw) => fileSchema.parse(raw), {
      what: 'KV search indexes',
      now,
      onCorrupt,
    });
    if (read) this.recent = read.recent;
  }

  list(profileId: string): string[] {
    // Own entries only: the page names the profile, and `constructor` is a key of every object.
    return Object.hasOwn(this.recent, profileId) ? this.recent[profileId]! : [];
  }

  /** Puts `name` first (once); nothing is written when it already was first. */
  opened(profileId: string, name: string): void {
    const old = this.list(profileId);
    if (old[0] === name) return;
    this.recent[profileId] = [name, ...old.filter((n) => n !== name)].slice(0, KV_SEARCH_RECENT_LIMIT);
    this.save();
  }

  /** Forgets `name` (the service said no such index). */
  gone(profileId: string, name: string): void {
    const old = this.list(profileId);
    if (!old.includes(name)) return;
    this.recent[profileId] = old.filter((n) => n !== name);
    this.save();
  }

  private save(): void {
    writeJsonFile(this.file, { version: 1, recent: this.recent });
  }
}
