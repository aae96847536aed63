// The virtualized list of messages (one row per message with its trail). Only the visible rows are in the
// DOM, so scrolling 10,000 events stays smooth; reaching the end loads the next page.
import { memo } from 'react';
import type { MessageState } from '../../../../../shared/messages/types';
import { useBridgeQuery } from '../../../bridge/react';
import { formatClock, formatRelative, formatTime, plural } from '../../../ui/format';
import { ItemList, optionId, useItemRows } from '../../../ui/list/VirtualRows';
import { Spinner } from '../../../ui/misc';
import { FINAL_STATES, type MessageTrail, trailSteps } from './group-events';
import { MessageStateBadge, Trail } from './MessageStateBadge';

export const ROW_HEIGHT = 58;
const byMessage = (trail: MessageTrail) => trail.messageId;

/** What every row acts and looks up with (the list passes them on unchanged). */
interface TrailContext {
  onOpen: (messageId: string) => void;
  onCheck: (messageId: string, on: boolean) => void;
  canCancel: boolean;
  profileId: string;
  /**
   * The list is filtered by state: its events are only those of that state, so a row looks up the
   * message's current state instead of showing the filtered one as if it were current.
   */
  stateFiltered: boolean;
}

export function LogList({
  trails,
  eventCount,
  selectedId,
  isChecked,
  hasMore,
  loadingMore,
  onLoadMore,
  ...context
}: {
  trails: MessageTrail[];
  eventCount: number;
  selectedId?: string;
  isChecked: (messageId: string) => boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
} & TrailContext) {
  const rows = useItemRows(trails, byMessage, {
    rowHeight: ROW_HEIGHT,
    overscan: 12,
    paging: { ahead: 5, hasMore, loadingMore, onLoadMore },
  });

  return (
    <ItemList
      rows={rows}
      end={
        <div className="log-list-end faint" role="listitem">
          {loadingMore || hasMore ? (
            <>
              <Spinner label="Loading more" /> Loading older events…
            </>
          ) : trails.length === 0 ? null : (
            `End of the logs · ${plural(trails.length, 'message')}, ${plural(eventCount, 'event')}`
          )}
        </div>
      }
      className="log-list"
      label="Messages"
      data-events={eventCount}
    >
      {(trail) => (
        <TrailRow
          trail={trail}
          selected={trail.messageId === selectedId}
          checked={isChecked(trail.messageId)}
          {...context}
        />
      )}
    </ItemList>
  );
}

export const TrailRow = memo(function TrailRow({
  trail,
  selected,
  checked,
  onOpen,
  onCheck,
  canCancel,
  profileId,
  stateFiltered,
}: { trail: MessageTrail; selected: boolean; checked: boolean } & TrailContext) {
  const { latest } = trail;
  const current = useCurrentState(profileId, trail.messageId, stateFiltered);
  // Unknown while the current state loads: neither shown as some other state nor offered for cancel.
  const state = stateFiltered ? current : latest.state;
  const pending = state !== undefined && !FINAL_STATES.has(state);
  const via = latest.topicName
    ? `${latest.topicName}${latest.endpointName ? ` / ${latest.endpointName}` : ''}`
    : latest.queueName
      ? `queue ${latest.queueName}`
      : undefined;
  // A list item is not named by its content: the row names itself by the cells that say which message
  // it is (id, state, destination, time), so a screen reader says those, not the checkbox or the trail.
  const part = (cell: string) => `${optionId('log-list', trail.messageId)}-${cell}`;
  return (
    <div
      className="list-row log-row"
      role="listitem"
      aria-current={selected || undefined}
      aria-labelledby={['id', 'state', 'dest', 'time'].map(part).join(' ')}
      onClick={() => onOpen(trail.messageId)}
    >
      <span className="log-row-check" onClick={(event) => event.stopPropagation()}>
        <input
          type="checkbox"
          aria-label={`Select ${trail.messageId}`}
          checked={checked}
          disabled={!pending || !canCancel}
          title={
            pending
              ? 'Select to cancel'
              : state
                ? 'Finished messages cannot be cancelled'
                : 'Loading its state…'
          }
          onChange={(event) => onCheck(trail.messageId, event.target.checked)}
        />
      </span>
      <span className="log-row-state" id={part('state')}>
        {state ? <MessageStateBadge state={state} /> : <Spinner label="Loading the current state" />}
      </span>
      <span className="log-row-main">
        <span className="log-row-id mono" id={part('id')}>
          {trail.messageId}
        </span>
        <span className="log-row-dest" id={part('dest')}>
          {via ? <span className="log-row-via">{via}</span> : null}
          <span className="mono">{latest.url}</span>
        </span>
      </span>
      <span className="log-row-trail">
        <Trail steps={trailSteps(trail.events)} />
      </span>
      <span className="log-row-time" id={part('time')} title={formatTime(latest.time)}>
        <span className="mono">{formatClock(latest.time)}</span>
        <span className="faint">{formatRelative(latest.time)}</span>
      </span>
    </div>
  );
});

/** A message's current state: its newest log event, whatever the list's filter (one small cached call). */
function useCurrentState(profileId: string, messageId: string, enabled: boolean): MessageState | undefined {
  const newest = useBridgeQuery(
    'messages.logs.list',
    { profileId, filters: { messageId }, count: 1 },
    { enabled, staleTime: 5_000 },
  );
  return newest.data?.events[0]?.state;
}
