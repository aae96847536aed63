// What main keeps for the Workflows area across launches, per profile: the saved views of the run list.
// One JSON file in the console's data folder, written atomically (temp file + rename). Jobs are in the one
// journal of every service (main/core/jobs); a file from an older version that still holds the workflow
// DLQ's own journal hands its jobs over once (legacy-jobs.ts) and keeps only the views.
import { randomUUID } from 'node:crypto';
import type { RunFilters } from '../../../../shared/bridge/procedures/workflows/filters';
import type { SavedView } from '../../../../shared/bridge/procedures/workflows/views';
import { readJsonFile, writeJsonFile } from '../../json-file';
import type { LegacyJob } from './legacy-jobs';

interface WorkflowsFile {
  version: 1;
  /** An older version's workflow DLQ journal, by profile: empty once handed to the one journal. */
  jobs: Record<string, LegacyJob[]>;
  views: Record<string, SavedView[]>;
}

function parseWorkflowsFile(raw: unknown): WorkflowsFile {
  const parsed = raw as Partial<WorkflowsFile>;
  if (parsed.version !== 1 || typeof parsed.jobs !== 'object' || typeof parsed.views !== 'object') {
    throw new Error('unknown layout');
  }
  return { version: 1, jobs: parsed.jobs ?? {}, views: parsed.views ?? {} };
}

export class WorkflowsStore {
  private data: WorkflowsFile = { version: 1, jobs: {}, views: {} };

  constructor(
    private readonly file: string,
    private readonly now: () => number = Date.now,
    onCorrupt: (message: string) => void = () => {},
    /** Takes an older version's jobs (once; they are then removed from this file). */
    adoptJobs: (jobs: LegacyJob[]) => void = () => {},
  ) {
    // An unreadable file is kept for the user rather than overwritten.
    const read = readJsonFile(file, parseWorkflowsFile, { what: 'workflows file', now, onCorrupt });
    if (!read) return;
    this.data = read;
    const legacy = Object.values(this.data.jobs).flat();
    if (legacy.length > 0) {
      adoptJobs(legacy);
      this.data.jobs = {};
      this.save();
    }
  }

  views(profileId: string): SavedView[] {
    return [...(this.data.views[profileId] ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Saves a view; one with the same name is replaced. */
  saveView(profileId: string, name: string, filters: RunFilters): SavedView {
    const views = this.data.views[profileId] ?? [];
    const existing = views.find((view) => view.name === name);
    const view: SavedView = { id: existing?.id ?? randomUUID(), name, filters, savedAt: this.now() };
    this.data.views[profileId] = [...views.filter((other) => other.id !== view.id), view];
    this.save();
    return view;
  }

  deleteView(profileId: string, id: string): boolean {
    const views = this.data.views[profileId] ?? [];
    this.data.views[profileId] = views.filter((view) => view.id !== id);
    this.save();
    return this.data.views[profileId].length < views.length;
  }

  private save(): void {
    writeJsonFile(this.file, this.data);
  }
}
