// Pausing, resuming or resetting the rate of many flow-control keys as a job (ui/job): every key the list
// shows (its search and "waiting only"), or — with neither set, chosen and typed "all" — every key. Main
// lists the keys with the list's own rule (exactly what it then changes, one request per key), the dialog
// previews that count, asks first, and reports what changed and which keys were gone.
import type { FlowKeyJobAction } from '../../../../../shared/bridge/procedures/messages/flow-control';
import type { FlowKeyFilters } from '../../../../../shared/messages/flow-control';
import type { ProfileView } from '../../../../../shared/profiles';
import { plural } from '../../../ui/format';
import { JobDialog } from '../../../ui/job/JobDialog';
import { type JobRequestProps, useJobDialog } from '../../../ui/job/useJobDialog';
import { RowActions } from '../../../ui/RowActions';

interface Request {
  action: FlowKeyJobAction;
  target: { filters: FlowKeyFilters } | { all: true };
  description: string;
}

const WORDS: Record<FlowKeyJobAction, { verb: string; verbed: string; explain: string }> = {
  pause: {
    verb: 'Pause',
    verbed: 'paused',
    explain:
      'A paused key holds its messages: nothing of it is delivered until it is resumed, and nothing is lost. Messages published to it meanwhile wait too.',
  },
  resume: {
    verb: 'Resume',
    verbed: 'resumed',
    explain: 'A resumed key releases its waiting messages in order, within its limits.',
  },
  resetRate: {
    verb: 'Reset rate of',
    verbed: 'reset',
    explain:
      'Each key’s current rate period starts again now (its count goes back to 0), so messages held by the rate may start at once.',
  },
};

const keys = (count: number) => plural(count, 'key');

/** What the shown keys read as in a sentence: "keys matching tenant-, with waiting messages". */
export function describeShown(filters: FlowKeyFilters): string {
  const parts = [
    filters.search ? `matching “${filters.search}”` : '',
    filters.waitingOnly ? 'with waiting messages' : '',
  ].filter(Boolean);
  return parts.length > 0 ? `every key ${parts.join(', ')}` : 'every key';
}

/** The toolbar's actions over the keys shown, and their dialog. */
export function FlowKeyJobActions({
  profile,
  filters,
  shown,
}: {
  profile: ProfileView;
  /** The list's search and "waiting only" (none set: the actions are over every key, "all"). */
  filters: FlowKeyFilters;
  /** How many keys the list shows now (the job lists them again itself). */
  shown: number;
}) {
  const [jobDialog, openJob] = useJobDialog(FlowKeyJobDialog, profile);
  const filtered = filters.search !== undefined || filters.waitingOnly === true;
  const ask = (action: FlowKeyJobAction) =>
    openJob({
      action,
      target: filtered ? { filters } : { all: true },
      description: describeShown(filters),
    });
  const scope = filtered ? 'shown' : 'all';
  return (
    <>
      <RowActions
        profile={profile}
        available={shown > 0}
        title={filtered ? 'Every key the list shows (its search and “waiting only”)' : 'Every key'}
        actions={[
          { label: `Pause ${scope}…`, onClick: () => ask('pause') },
          { label: `Resume ${scope}…`, onClick: () => ask('resume') },
          { label: `Reset rates (${scope})…`, onClick: () => ask('resetRate') },
        ]}
      />
      {jobDialog}
    </>
  );
}

function FlowKeyJobDialog({ request, ...dialog }: JobRequestProps<Request>) {
  const words = WORDS[request.action];
  return (
    <JobDialog
      {...dialog}
      procedure="messages.flowControl.job"
      input={request}
      title={`${words.verb} flow-control keys`}
      verb={words.verb}
      unit={keys}
      danger={request.action === 'pause'}
      preview={<p className="muted">{words.explain} Keys made after this list are not included.</p>}
      cappedNote="The job changes the keys listed; run it again for the rest."
      runningHint="Cancel stops before the next request; a request already sent completes."
      stoppedHint="Keys not reached are unchanged; resume the job from Jobs."
      verbed={words.verbed}
      itemLabel="Key"
    />
  );
}
