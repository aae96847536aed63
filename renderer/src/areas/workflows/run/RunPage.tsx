// A run's own page, full width and deep-linkable: #/workflows/run/<runId>[/<createdAt>]. Why it is not
// done at the top, then its steps (tree beside timeline, the selected step's details) or its history.
// The run list with its panel stays for browsing (#/workflows/runs/<runId>); "Open page" leads here.
import { ActiveService } from '../../../shell/ActiveService';
import { useNav } from '../../../shell/nav';
import { EmptyState } from '../../../ui/misc';
import { WorkflowIcon } from '../../../ui/icons';
import { RunDetail } from './RunDetail';

export default function RunPage({ params }: { params: string[] }) {
  const navigate = useNav((state) => state.navigate);
  const [runId, at] = params;
  const createdAt = at && /^\d+$/.test(at) ? Number(at) : undefined;
  return (
    <ActiveService>
      {(profile) =>
        runId ? (
          <RunDetail
            key={`${runId}@${createdAt ?? ''}`}
            profile={profile}
            runId={runId}
            createdAt={createdAt}
            live
            mode="page"
            onClose={() => navigate('workflows', 'runs', runId, ...(createdAt ? [String(createdAt)] : []))}
            onChanged={() => undefined}
          />
        ) : (
          <EmptyState icon={<WorkflowIcon />} title="No run named">
            Open a run from the run list.
          </EmptyState>
        )
      }
    </ActiveService>
  );
}
