// Saved views of the run list, per profile, kept by main (browser storage would not survive the browser
// host's port changing).
import { z } from 'zod';
import { call } from '../../define';
import { type RunFilters, runFiltersSchema } from './filters';
import { profileIdSchema as profileId } from '../../profile-id';

export interface SavedView {
  id: string;
  name: string;
  filters: RunFilters;
  savedAt: number;
}

export const viewProcedures = {
  'workflows.views.list': call<SavedView[]>()(z.object({ profileId }), 'local'),
  /** Saves a view; an existing name is replaced. */
  'workflows.views.save': call<SavedView>()(
    z.object({ profileId, name: z.string().trim().min(1).max(100), filters: runFiltersSchema }),
    'local',
    { invalidates: ['workflows.views.list'] },
  ),
  'workflows.views.delete': call<{ deleted: boolean }>()(
    z.object({ profileId, id: z.string().min(1).max(100) }),
    'local',
    { invalidates: ['workflows.views.list'] },
  ),
};
