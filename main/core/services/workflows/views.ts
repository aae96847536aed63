// Saved views of the run list (`workflows.views.*`), kept per profile in workflows.json (store.ts).
import type { viewProcedures } from '../../../../shared/bridge/procedures/workflows/views';
import type { Handlers } from '../../bridge/router';
import type { WorkflowsStore } from './store';

export function viewHandlers(store: WorkflowsStore): Pick<Handlers, keyof typeof viewProcedures> {
  return {
    'workflows.views.list': ({ profileId }) => store.views(profileId),
    'workflows.views.save': ({ profileId, name, filters }) => store.saveView(profileId, name, filters),
    'workflows.views.delete': ({ profileId, id }) => ({ deleted: store.deleteView(profileId, id) }),
  };
}
