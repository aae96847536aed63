// The Workflows area: one tab per job. Routes:
//   #/workflows/runs[/<runId>[/<createdAt>]]   run list with the open run beside it (browsing)
//   #/workflows/run/<runId>[/<createdAt>]      a run's own page: why not done, steps, history
//   #/workflows/compare/<runA>/<runB>          two runs side by side
//   #/workflows/dlq                            failed runs grouped by failure, recovery in bulk (jobs)
// The jobs themselves are on the console's Jobs screen (#/jobs), with every other service's.
// Each tab is its own lazily loaded module.
import { tabbedArea } from '../../shell/TabbedArea';
import '../../ui/chip.css';
import './workflows.css';

export default tabbedArea('workflows', 'Runs step by step, failures grouped, recovery in bulk', {
  runs: () => import('./runs/RunsTab'),
  run: () => import('./run/RunPage'),
  compare: () => import('./compare/CompareTab'),
  dlq: () => import('./dlq/WorkflowDlqTab'),
});
