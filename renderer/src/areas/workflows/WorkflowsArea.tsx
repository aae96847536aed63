// The Workflows area: one tab per job. Routes:
//   #/workflows/runs[/<runId>[/<createdAt>]]   run list and run detail
//   #/workflows/compare/<runA>/<runB>          two runs side by side
//   #/workflows/dlq                            failed runs grouped by failure, bulk recovery
//   #/workflows/jobs                           the journal of bulk jobs
// Each tab is its own lazily loaded module.
import { tabbedArea } from '../../shell/TabbedArea';
import '../../ui/chip.css';
import './workflows.css';

export default tabbedArea('workflows', 'Runs step by step, failures grouped, recovery in bulk', {
  runs: () => import('./runs/RunsTab'),
  compare: () => import('./compare/CompareTab'),
  dlq: () => import('./dlq/DlqTab'),
  jobs: () => import('./jobs/JobsTab'),
});
