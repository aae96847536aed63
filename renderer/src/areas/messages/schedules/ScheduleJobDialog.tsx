// Pause, resume or delete many schedules — the selected ones, or every one the search and state filter
// match — as a job (ui/job): this part says what the action does; the runner lists, confirms and runs it.
import type { ScheduleTarget } from '../../../../../shared/bridge/procedures/messages/schedules';
import { plural } from '../../../ui/format';
import { JobDialog } from '../../../ui/job/JobDialog';
import type { JobRequestProps } from '../../../ui/job/useJobDialog';

export interface ScheduleJobRequest {
  action: 'pause' | 'resume' | 'delete';
  target: ScheduleTarget;
  /** The target in a sentence: "the 3 selected schedules", "schedules matching nightly". */
  description: string;
}

const schedules = (count: number) => plural(count, 'schedule');
const VERBS = { pause: 'Pause', resume: 'Resume', delete: 'Delete' } as const;
const VERBED = { pause: 'paused', resume: 'resumed', delete: 'deleted' } as const;
const EFFECT = {
  pause: 'Each publishes nothing until resumed; the ticks it misses meanwhile never fire.',
  resume: 'Each waits for its next tick after now; ticks missed while paused do not fire.',
  delete: 'Each stops publishing for good. Messages already published are delivered as usual.',
} as const;

export function ScheduleJobDialog({ request, ...dialog }: JobRequestProps<ScheduleJobRequest>) {
  const { action, target } = request;
  return (
    <JobDialog
      {...dialog}
      procedure="messages.schedules.job"
      input={request}
      title={`${VERBS[action]} ${'ids' in target ? 'selected schedules' : 'matching schedules'}`}
      verb={VERBS[action]}
      unit={schedules}
      danger={action !== 'resume'}
      preview={
        <p className="muted">{EFFECT[action]} One request per schedule; you can cancel between them.</p>
      }
      cappedNote="The job acts on the schedules listed; run it again for the rest."
      runningHint="Cancel stops before the next schedule; the journal keeps where the job got to."
      stoppedHint="The schedules not reached are as they were; resume the rest from Jobs."
      verbed={VERBED[action]}
      itemLabel="Schedule id"
    />
  );
}
