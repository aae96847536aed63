// The Workflows area: one tab per job. Routes:
//   #/workflows/runs[/<runId>[/<createdAt>]]   run list and run detail
//   #/workflows/compare/<runA>/<runB>          two runs side by side
//   #/workflows/dlq                            failed runs grouped by failure, bulk recovery
//   #/workflows/jobs                           the journal of bulk jobs
// Each tab is its own lazily loaded module.
import { areaTab, tabbedArea } from '../../shell/TabbedArea';
import '../../ui/chip.css';
import './workflows.css';

export default tabbedArea({
  area: 'workflows',
  title: 'Workflows',
  subtitle: 'Runs step by step, failures grouped, recovery in bulk',
  tabs: [
    areaTab('workflows', 'runs', () => import('./runs/RunsTab')),
    areaTab('workflows', 'compare', () => import('./compare/CompareTab')),
    areaTab('workflows', 'dlq', () => import('./dlq/DlqTab')),
    areaTab('workflows', 'jobs', () => import('./jobs/JobsTab')),
  ],
});
