import { WorkflowIcon } from '../../ui/icons';
import { ComingSoon } from '../ComingSoon';

export default function WorkflowsArea() {
  return (
    <ComingSoon
      title="Workflows"
      headline="The workflow run explorer is on its way"
      subtitle="Durable runs, step by step"
      icon={<WorkflowIcon />}
      summary="Explore workflow runs as step trees and timelines: what ran, what waits, what failed and why."
      plans={[
        'Run list with filters by state, workflow URL and time',
        'Step tree with parallel groups, sleeps, calls and waits',
        'Cancel, notify waiters, and restart failed runs',
      ]}
    />
  );
}
