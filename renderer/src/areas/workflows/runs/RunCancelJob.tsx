// Cancelling many workflow runs from the run list, as a job (ui/job): the checked active runs, every active
// run the list's filters match, or — without a filter, chosen and typed "all" — every active run. The
// dialog previews the active runs main found (exactly what it then cancels, by id) and reports what
// was cancelled and what had finished meanwhile.
import { hasAnyFilter } from '../../../../../shared/bridge/job';
import type { RunFilters } from '../../../../../shared/bridge/procedures/workflows/filters';
import type { ProfileView } from '../../../../../shared/profiles';
import { plural } from '../../../ui/format';
import { JobDialog } from '../../../ui/job/JobDialog';
import { type JobRequestProps, useJobDialog } from '../../../ui/job/useJobDialog';
import { RowActions } from '../../../ui/RowActions';
import { chipsOf } from './run-filters';

interface Request {
  target: { ids: string[] } | { filters: RunFilters } | { all: true };
  description: string;
}

const activeRuns = (count: number) => plural(count, 'active run');

/** The list toolbar's cancel actions and their dialog. */
export function RunCancelActions({
  profile,
  selected,
  filters,
  searching,
  onEnded,
}: {
  profile: ProfileView;
  /** Checked active runs, in list order. */
  selected: readonly string[];
  filters: RunFilters;
  /** A text search narrows the list: "matching" would not mean what the list shows, so it waits. */
  searching: boolean;
  /** The job ended or stopped: the list has changed (the selection is stale). */
  onEnded: () => void;
}) {
  const [cancelDialog, askCancel] = useJobDialog(RunCancelDialog, profile, onEnded);
  const filtered = hasAnyFilter(filters);
  return (
    <>
      <RowActions
        profile={profile}
        available={selected.length > 0}
        title="Check active runs in the list"
        actions={[
          {
            label: 'Cancel selected…',
            variant: 'danger',
            onClick: () =>
              askCancel({
                target: { ids: [...selected] },
                description: `the ${plural(selected.length, 'selected run')}`,
              }),
          },
        ]}
      />
      <RowActions
        profile={profile}
        available={!searching}
        title={
          searching
            ? 'Clear the search first: this cancels by the filters, not by the search'
            : filtered
              ? 'Every active run the filters match, also ones not loaded'
              : 'Every active run'
        }
        actions={[
          {
            label: filtered ? 'Cancel matching…' : 'Cancel all active…',
            onClick: () =>
              askCancel(
                filtered
                  ? {
                      target: { filters },
                      description: `every active run matching ${chipsOf(filters)
                        .map((chip) => chip.text)
                        .join(', ')}`,
                    }
                  : { target: { all: true }, description: 'every active run' },
              ),
          },
        ]}
      />
      {cancelDialog}
    </>
  );
}

function RunCancelDialog({ request, ...dialog }: JobRequestProps<Request>) {
  return (
    <JobDialog
      {...dialog}
      procedure="workflows.runs.job"
      input={request}
      title="Cancel workflow runs"
      verb="Cancel"
      unit={activeRuns}
      danger
      preview={
        <p className="muted">
          A cancelled run stops: its steps that have not run never run, its waits end, its failure function is
          not called. A step already being delivered may still complete. The runs stay in the list as
          Canceled.
        </p>
      }
      cappedNote="The job cancels the runs listed; run it again for the rest."
      runningHint="Stop ends the job before its next request; a request already sent completes."
      stoppedHint="Runs not reached are still active; resume the job from Jobs."
      verbed="cancelled"
      itemLabel="Run"
    />
  );
}
