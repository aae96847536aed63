// Cancelling messages as a job (ui/job/CancelJob): the messages checked in the list or opened in the detail
// panel, every pending message the filters match, or — with no filter at all, chosen and typed "all" — every
// pending message. Main lists the pending messages from the logs (exactly what it then cancels, by id),
// the dialog previews that count, asks first, and reports what was cancelled and what had finished
// meanwhile. Nothing goes out with an empty filter.
import type { CancelFiltersInput } from '../../../../../shared/bridge/procedures/messages/filters';
import type { ProfileView } from '../../../../../shared/profiles';
import {
  CancelActions,
  CancelJobDialog,
  type CancelRequest,
  selectedRequest,
} from '../../../ui/job/CancelJob';
import type { JobRequestProps } from '../../../ui/job/useJobDialog';
import type { CancelScope } from './log-filters';

export type MessageCancelRequest = CancelRequest<CancelFiltersInput>;

const MESSAGES = {
  state: 'pending',
  noun: 'message',
  selectHint: 'Select pending messages in the list',
  allTitle: 'Every pending message of this profile',
  one: (id: string) => `message ${id}`,
};

/** The request for the messages checked in the list, or the one opened. */
export function selectedMessages(ids: readonly string[]): MessageCancelRequest {
  return selectedRequest(MESSAGES, ids);
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
  return (
    <CancelActions profile={profile} nouns={MESSAGES} selected={selected} scope={matching} onAsk={onAsk} />
  );
}

export function MessageCancelDialog({ request, ...dialog }: JobRequestProps<MessageCancelRequest>) {
  const one = 'ids' in request.target && request.target.ids.length === 1;
  return (
    <CancelJobDialog
      {...dialog}
      nouns={MESSAGES}
      procedure="messages.logs.job"
      input={request}
      title={one ? 'Cancel this message' : 'Cancel messages'}
      preview={
        <p className="muted">
          A cancelled message is not delivered (again): the service records the cancel and drops the message
          at its next delivery time. A delivery already in flight may still arrive. This cannot be undone.
          {'ids' in request.target
            ? ' A message that has finished meanwhile counts as already gone.'
            : ' The list comes from the logs: messages created, active, retrying or in error; messages published after it was made are not included.'}
        </p>
      }
    />
  );
}
