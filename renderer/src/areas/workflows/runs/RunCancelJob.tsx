// Cancelling many workflow runs from the run list, as a job (ui/job/CancelJob): the checked active runs,
// every active run the list's filters match, or — without a filter, chosen and typed "all" — every active
// run. The dialog previews the active runs main found (exactly what it then cancels, by id) and reports what
// was cancelled and what had finished meanwhile.
import { hasAnyFilter } from '../../../../../shared/bridge/job';
import type { RunFilters } from '../../../../../shared/bridge/procedures/workflows/filters';
import type { ProfileView } from '../../../../../shared/profiles';
import {
  CancelActions,
  CancelJobDialog,
  type CancelRequest,
  type CancelScope,
} from '../../../ui/job/CancelJob';
import { type JobRequestProps, useJobDialog } from '../../../ui/job/useJobDialog';
import { chipsOf } from './run-filters';

const RUNS = {
  state: 'active',
  noun: 'run',
  selectHint: 'Check active runs in the list',
  allTitle: 'Every active run',
};

/** What "Cancel matching" acts on: the filters. A text search narrows the list but not the cancel, so it waits. */
function cancelScope(filters: RunFilters, searching: boolean): CancelScope<RunFilters> {
  const filtered = hasAnyFilter(filters);
  if (searching)
    return { off: 'Clear the search first: this cancels by the filters, not by the search', all: !filtered };
  if (!filtered) return 'all';
  const text = chipsOf(filters)
    .map((chip) => chip.text)
    .join(', ');
  return { filters, text };
}

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
  const scope = cancelScope(filters, searching);
  return (
    <>
      <CancelActions profile={profile} nouns={RUNS} selected={selected} scope={scope} onAsk={askCancel} />
      {cancelDialog}
    </>
  );
}

function RunCancelDialog({ request, ...dialog }: JobRequestProps<CancelRequest<RunFilters>>) {
  return (
    <CancelJobDialog
      {...dialog}
      nouns={RUNS}
      procedure="workflows.runs.job"
      input={request}
      title="Cancel workflow runs"
      preview={
        <p className="muted">
          A cancelled run stops: its steps that have not run never run, its waits end, its failure function is
          not called. A step already being delivered may still complete. The runs stay in the list as
          Canceled.
        </p>
      }
    />
  );
}
