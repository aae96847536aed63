// A bulk cancel from a list, as a job (the Logs screen's pending messages, the run list's active runs): the
// toolbar's two actions — the checked items, and every item the filters match or, with no filter at all,
// chosen and typed "all", every one — and the job dialog's words. Both lists say the same things, each in
// its own nouns; nothing goes out with an empty filter.
import type { JobName } from '../../../../shared/bridge/procedures';
import type { ProfileView } from '../../../../shared/profiles';
import { plural } from '../format';
import { RowActions } from '../RowActions';
import { JobDialog, type JobDialogProps } from './JobDialog';

/** The items a cancel acts on, in the list's words. */
export interface CancelNouns {
  /** The state in which an item can still be cancelled: "pending", "active". */
  state: string;
  /** One item: "message", "run". */
  noun: string;
  /** What "Cancel selected…" says while nothing is checked. */
  selectHint: string;
  /** What "Cancel all …" says it acts on. */
  allTitle: string;
  /** One checked item in a sentence (by its id); default "the 1 selected run". */
  one?: (id: string) => string;
}

/** What "Cancel matching" acts on, as the list's filters stand. */
export type CancelScope<Filters> =
  /** The filters the cancel understands, and how they read. */
  | { filters: Filters; text: string }
  /** No filter at all: the action is "all", which the user must choose and confirm. */
  | 'all'
  /** The action is off, and says why; `all`: once on, it would be "all". */
  | { off: string; all?: boolean };

export interface CancelRequest<Filters> {
  target: { ids: string[] } | { filters: Filters } | { all: true };
  /** The target in a sentence: "the 2 selected messages", "every pending message matching label nightly". */
  description: string;
}

const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The request for the checked items (or the one opened). */
export function selectedRequest<Filters>(nouns: CancelNouns, ids: readonly string[]): CancelRequest<Filters> {
  return {
    target: { ids: [...ids] },
    description:
      ids.length === 1 && nouns.one
        ? nouns.one(ids[0]!)
        : `the ${plural(ids.length, `selected ${nouns.noun}`)}`,
  };
}

/** The list toolbar's cancel actions; `onAsk` opens the dialog with the request. */
export function CancelActions<Filters>({
  profile,
  nouns,
  selected,
  scope,
  onAsk,
}: {
  profile: ProfileView;
  nouns: CancelNouns;
  /** Checked items that can be cancelled, in list order. */
  selected: readonly string[];
  scope: CancelScope<Filters>;
  onAsk: (request: CancelRequest<Filters>) => void;
}) {
  const every = `every ${nouns.state} ${nouns.noun}`;
  const off = typeof scope === 'object' && 'off' in scope ? scope.off : undefined;
  const all = scope === 'all' || (typeof scope === 'object' && 'all' in scope && scope.all === true);
  return (
    <>
      <RowActions
        profile={profile}
        available={selected.length > 0}
        title={nouns.selectHint}
        actions={[
          {
            label: 'Cancel selected…',
            variant: 'danger',
            onClick: () => onAsk(selectedRequest(nouns, selected)),
          },
        ]}
      />
      <RowActions
        profile={profile}
        available={off === undefined}
        title={off ?? (all ? nouns.allTitle : `${sentence(every)} the filters match, also ones not loaded`)}
        actions={[
          {
            label: all ? `Cancel all ${nouns.state}…` : 'Cancel matching…',
            onClick: () => {
              if (scope === 'all') onAsk({ target: { all: true }, description: every });
              else if ('filters' in scope)
                onAsk({ target: { filters: scope.filters }, description: `${every} matching ${scope.text}` });
            },
          },
        ]}
      />
    </>
  );
}

type CancelJobDialogProps<N extends JobName> = Omit<
  JobDialogProps<N>,
  'verb' | 'unit' | 'danger' | 'cappedNote' | 'runningHint' | 'stoppedHint' | 'verbed' | 'itemLabel'
> & { nouns: CancelNouns };

/** The job dialog of a cancel: the service's procedure, input, title and preview; the words from the nouns. */
export function CancelJobDialog<N extends JobName>({ nouns, ...dialog }: CancelJobDialogProps<N>) {
  const items = `${nouns.noun}s`;
  return (
    <JobDialog
      {...dialog}
      verb="Cancel"
      unit={(count) => plural(count, `${nouns.state} ${nouns.noun}`)}
      danger
      cappedNote={`The job cancels the ${items} listed; run it again for the rest.`}
      runningHint="Stop ends the job before its next request; a request already sent completes."
      stoppedHint={`${sentence(items)} not reached are still ${nouns.state}; resume the job from Jobs.`}
      verbed="cancelled"
      itemLabel={sentence(nouns.noun)}
    />
  );
}
