// The Workflows area: one tab per job. Routes:
//   #/workflows/runs[/<runId>[/<createdAt>]]   run list and run detail
//   #/workflows/compare/<runA>/<runB>          two runs side by side
//   #/workflows/dlq                            failed runs grouped by failure, bulk recovery
//   #/workflows/jobs                           the journal of bulk jobs
// Each tab is its own lazily loaded module.
import { tabLabel } from '../../shell/area-tabs';
import { lazyWithPreload } from '../../shell/lazy';
import { type AreaTab, TabbedArea } from '../../shell/TabbedArea';
import './workflows.css';

export const WORKFLOW_TABS = [
  {
    id: 'runs',
    label: tabLabel('workflows', 'runs'),
    component: lazyWithPreload(() => import('./runs/RunsTab')),
  },
  {
    id: 'compare',
    label: tabLabel('workflows', 'compare'),
    component: lazyWithPreload(() => import('./compare/CompareTab')),
  },
  {
    id: 'dlq',
    label: tabLabel('workflows', 'dlq'),
    component: lazyWithPreload(() => import('./dlq/DlqTab')),
  },
  {
    id: 'jobs',
    label: tabLabel('workflows', 'jobs'),
    component: lazyWithPreload(() => import('./jobs/JobsTab')),
  },
] as const satisfies readonly [AreaTab, ...AreaTab[]];

void WORKFLOW_TABS[0].component.preload();

export default function WorkflowsArea({ params }: { params: string[] }) {
  return (
    <TabbedArea
      area="workflows"
      title="Workflows"
      subtitle="Runs step by step, failures grouped, recovery in bulk"
      tabs={WORKFLOW_TABS}
      params={params}
    />
  );
}
