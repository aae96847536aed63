// Cancelling messages as a job (ui/job): the messages checked in the list or opened in the detail panel,
// every pending message the filters match, or — with no filter at all, chosen and typed "all" — every
// pending message. Main lists the pending messages from the logs (exactly what it then cancels, by id),
// the dialog previews that count, asks first, and reports what was cancelled and what had finished
// meanwhile. Nothing goes out with an empty filter.
import type { CancelFiltersInput } from '../../../../../shared/bridge/procedures/messages/filters';
import type { ProfileView } from '../../../../../shared/profiles';
import { plural } from '../../../ui/format';
import { JobDialog } from '../../../ui/job/JobDialog';
import type { JobRequestProps } from '../../../ui/job/useJobDialog';
import { RowActions } from '../../../ui/RowActions';
import type { CancelScope } from './log-filters';

export interface MessageCancelRequest {
  target: { ids: string[] } | { filters: CancelFiltersInput } | { all: true };
  /** The target in a sentence: "the 2 selected messages", "every pending message matching label nightly". */
  description: string;
}

const pendingMessages = (count: number) => plural(count, 'pending message');

/** The request for the messages checked in the list, or the one opened. */
export function selectedMessages(ids: readonly string[]): MessageCancelRequest {
  return {
    target: { ids: [...ids] },
    description: ids.length === 1 ? `message ${ids[0]}` : `the ${plural(ids.length, 'selected message')}`,
  };
}

/** The list toolbar's cancel actions (what they act on is worked out by the screen). */
export function MessageCancelActions({
  profile,
  selected,
  matching,
  onAsk,
}: {
  profile: ProfileView;
  /** Checked pending messages, in list order. */
  selected: readonly string[];
  /** What "matching" means as the filters stand (log-filters.ts' cancelScope). */
  matching: CancelScope;
  onAsk: (request: MessageCancelRequest) => void;
}) {
  const off = typeof matching === 'object' && 'off' in matching ? matching.off : undefined;
  return (
    <>
      <RowActions
        profile={profile}
        available={selected.length > 0}
        title="Select pending messages in the list"
        actions={[
          { label: 'Cancel selected…', variant: 'danger', onClick: () => onAsk(selectedMessages(selected)) },
        ]}
      />
      <RowActions
        profile={profile}
        available={off === undefined}
        title={
          off ??
          (matching === 'all'
            ? 'Every pending message of this profile'
            : 'Every pending message the filters match, also ones not loaded')
        }
        actions={[
          {
            label: matching === 'all' ? 'Cancel all pending…' : 'Cancel matching…',
            onClick: () => {
              if (matching === 'all') {
                onAsk({ target: { all: true }, description: 'every pending message' });
              } else if (typeof matching === 'object' && 'filters' in matching) {
                onAsk({
                  target: { filters: matching.filters },
                  description: `every pending message matching ${matching.text}`,
                });
              }
            },
          },
        ]}
      />
    </>
  );
}

export function MessageCancelDialog({ request, ...dialog }: JobRequestProps<MessageCancelRequest>) {
  const one = 'ids' in request.target && request.target.ids.length === 1;
  return (
    <JobDialog
      {...dialog}
      procedure="messages.logs.job"
      input={request}
      title={one ? 'Cancel this message' : 'Cancel messages'}
      verb="Cancel"
      unit={pendingMessages}
      danger
      preview={
        <p className="muted">
          A cancelled message is not delivered (again): the service records the cancel and drops the message
          at its next delivery time. A delivery already in flight may still arrive. This cannot be undone.
          {'ids' in request.target
            ? ' A message that has finished meanwhile counts as already gone.'
            : ' The list comes from the logs: messages created, active, retrying or in error; messages published after it was made are not included.'}
        </p>
      }
      cappedNote="The job cancels the messages listed; run it again for the rest."
      runningHint="Stop ends the job before its next request; a request already sent completes."
      stoppedHint="Messages not reached are still pending; resume the job from Jobs."
      verbed="cancelled"
      itemLabel="Message"
    />
  );
}
