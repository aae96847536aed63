// The Workflows area: one tab per job. Routes:
//   #/workflows/runs[/<runId>[/<createdAt>]]   run list and run detail
//   #/workflows/compare/<runA>/<runB>          two runs side by side
//   #/workflows/dlq                            failed runs grouped by failure, bulk recovery
//   #/workflows/jobs                           the journal of bulk jobs
// Each tab is its own lazily loaded module.
import { type ComponentType, Suspense } from 'react';
import { lazyWithPreload } from '../../shell/lazy';
import { useNav } from '../../shell/nav';
import { PageHeader } from '../../shell/PageHeader';
import { Spinner } from '../../ui/misc';
import './workflows.css';

export const WORKFLOW_TABS = [
  { id: 'runs', label: 'Runs', component: lazyWithPreload(() => import('./runs/RunsTab')) },
  { id: 'compare', label: 'Compare', component: lazyWithPreload(() => import('./compare/CompareTab')) },
  { id: 'dlq', label: 'DLQ triage', component: lazyWithPreload(() => import('./dlq/DlqTab')) },
  { id: 'jobs', label: 'Jobs', component: lazyWithPreload(() => import('./jobs/JobsTab')) },
] as const satisfies readonly { id: string; label: string; component: ComponentType<{ params: string[] }> }[];

void WORKFLOW_TABS[0].component.preload();

export default function WorkflowsArea({ params }: { params: string[] }) {
  const navigate = useNav((state) => state.navigate);
  const [tabId = 'runs', ...rest] = params;
  const tab = WORKFLOW_TABS.find((candidate) => candidate.id === tabId) ?? WORKFLOW_TABS[0];
  const Tab = tab.component;
  return (
    <>
      <PageHeader title="Workflows" subtitle="Runs step by step, failures grouped, recovery in bulk" />
      <div className="tabs" role="tablist" aria-label="Workflows">
        {WORKFLOW_TABS.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={candidate.id === tab.id}
            onClick={() => navigate('workflows', candidate.id)}
          >
            {candidate.label}
          </button>
        ))}
      </div>
      <Suspense
        fallback={
          <div className="page-body">
            <Spinner />
          </div>
        }
      >
        <Tab params={rest} />
      </Suspense>
    </>
  );
}
