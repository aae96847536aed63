// The composer's own state on disk: drafts (so a half-written message survives a restart), the history of
// sent messages per profile, and saved templates. One JSON file in the console's data folder, written
// atomically (temp file + rename) like the profiles file. Never holds a token: models carry none, and
// main adds Authorization only on the wire.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { composerSchema, draftModelSchema } from '../../../../shared/composer/model';
import { LOCAL_PROFILE_ID } from '../../../../shared/profiles';
import { readJsonFile, writeJsonFile } from '../../json-file';
import type {
  DraftKey,
  Drafts,
  HistoryEntry,
  Template,
} from '../../../../shared/bridge/procedures/messages/composer';

/** Newest first; older entries drop off. */
export const HISTORY_LIMIT = 200;

const historyEntrySchema = z.object({
  id: z.string(),
  at: z.number(),
  kind: z.enum(['single', 'batch']),
  models: z.array(composerSchema),
  summary: z.string(),
  messageIds: z.array(z.string()),
  error: z.string().optional(),
});

const draftsSchema = z.object({
  compose: draftModelSchema.optional(),
  batch: z.array(draftModelSchema).optional(),
  webhook: draftModelSchema.optional(),
});

/**
 * Drafts by profile id. Files from before drafts belonged to a profile hold one set of drafts at the top:
 * those were written under the Local profile in every install we know of, so they become its drafts
 * (never a production profile's).
 */
const draftsByProfileSchema = z.preprocess(
  (value) =>
    value && typeof value === 'object' && ['compose', 'batch', 'webhook'].some((key) => key in value)
      ? { [LOCAL_PROFILE_ID]: value }
      : value,
  z.record(z.string(), draftsSchema),
);

const fileSchema = z.object({
  version: z.literal(1),
  drafts: draftsByProfileSchema.default({}),
  history: z.record(z.string(), z.array(historyEntrySchema)).default({}),
  templates: z
    .array(z.object({ id: z.string(), name: z.string(), model: composerSchema, updatedAt: z.number() }))
    .default([]),
});
type ComposerFile = z.output<typeof fileSchema>;

export class ComposerStore {
  private data: ComposerFile;

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
    /** Told when the file could not be read (it is then kept aside, not overwritten). */
    onCorrupt: (message: string) => void = () => {},
  ) {
    this.data = { version: 1, drafts: {}, history: {}, templates: [] };
    // An unreadable file is kept for the user rather than silently replacing their templates.
    const read = readJsonFile(file, (raw) => fileSchema.parse(raw), {
      what: 'composer file',
      now,
      onCorrupt,
    });
    if (read) this.data = read;
  }

  // Own entries only: the page names the profile, and `constructor` is a key of every object.
  drafts(profileId: string): Drafts {
    return Object.hasOwn(this.data.drafts, profileId) ? this.data.drafts[profileId]! : {};
  }

  saveDraft(profileId: string, key: DraftKey, value: Drafts[DraftKey] | null): void {
    const drafts: Drafts = { ...this.drafts(profileId) };
    if (value === null) delete drafts[key];
    else (drafts as Record<DraftKey, unknown>)[key] = value;
    if (Object.keys(drafts).length > 0) this.data.drafts[profileId] = drafts;
    else delete this.data.drafts[profileId];
    this.save();
  }

  history(profileId: string): HistoryEntry[] {
    return Object.hasOwn(this.data.history, profileId) ? this.data.history[profileId]! : [];
  }

  addHistory(profileId: string, entry: Omit<HistoryEntry, 'id' | 'at'>): HistoryEntry {
    const full: HistoryEntry = { id: randomUUID(), at: this.now(), ...entry };
    this.data.history[profileId] = [full, ...this.history(profileId)].slice(0, HISTORY_LIMIT);
    this.save();
    return full;
  }

  clearHistory(profileId: string): number {
    const count = this.history(profileId).length;
    delete this.data.history[profileId];
    this.save();
    return count;
  }

  templates(): Template[] {
    return [...this.data.templates].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Saves a template; an existing id, or an existing name, is replaced. */
  saveTemplate(input: { id?: string; name: string; model: Template['model'] }): Template {
    const existing = this.data.templates.find(
      (template) => template.id === input.id || (input.id === undefined && template.name === input.name),
    );
    const template: Template = {
      id: existing?.id ?? randomUUID(),
      name: input.name,
      model: input.model,
      updatedAt: this.now(),
    };
    this.data.templates = [...this.data.templates.filter((t) => t.id !== template.id), template];
    this.save();
    return template;
  }

  deleteTemplate(id: string): boolean {
    const before = this.data.templates.length;
    this.data.templates = this.data.templates.filter((template) => template.id !== id);
    this.save();
    return this.data.templates.length < before;
  }

  private save(): void {
    writeJsonFile(this.file, this.data);
  }
}
