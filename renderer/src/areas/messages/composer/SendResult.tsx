// What came back from a send: the message ids (one per endpoint for a URL group), whether the service
// treated it as a duplicate, and one click to each message's log trail. Used by the composer and per batch item.
import { useState } from 'react';
import type { SentMessage } from '../../../../../shared/bridge/procedures/messages/publish';
import type { LogEntry } from '../../../../../shared/messages/types';
import { useBridgeQuery } from '../../../bridge/react';
import { useNav } from '../../../shell/nav';
import { Button } from '../../../ui/Button';
import { CopyButton } from '../../../ui/CopyButton';
import { Badge } from '../../../ui/misc';
import { compareLifecycle } from '../logs/group-events';
import { useNow } from '../../../ui/use-now';
import { pollEvery } from '../../../bridge/polling';

/** Following states costs one logs call per message every 1.5 s: only for a handful of messages. */
export const FOLLOW_LIMIT = 10;

export function SentMessages({
  profileId,
  messages,
  fanOut,
  follow = messages.length <= FOLLOW_LIMIT,
}: {
  /** The profile the messages were sent with (their logs are read with it). */
  profileId: string;
  messages: SentMessage[];
  fanOut: boolean;
  /** Show each message's states from the logs as they happen. */
  follow?: boolean;
}) {
  const navigate = useNav((state) => state.navigate);
  return (
    <ul className="sent-list" aria-label="Accepted messages">
      {messages.map((message) => (
        <li key={message.messageId + (message.url ?? '')} className="sent-item">
          {fanOut ? <div className="mono sent-url">{message.url}</div> : null}
          <div className="sent-id-row">
            <span className="mono sent-id" data-testid="message-id">
              {message.messageId}
            </span>
            {message.deduplicated ? <Badge tone="warning">deduplicated</Badge> : null}
          </div>
          {follow ? <DeliveryTrail profileId={profileId} messageId={message.messageId} /> : null}
          <div className="row">
            <CopyButton size="sm" variant="ghost" text={message.messageId} label="Copy id" />
            <Button size="sm" onClick={() => navigate('messages', 'logs', message.messageId)}>
              Log trail →
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}

const FINAL = new Set(['DELIVERED', 'FAILED', 'CANCELLED', 'CANCELED']);
/** Follow a fresh message for this long; after that the user refreshes (a message may be delayed for days). */
const FOLLOW_MS = 120_000;
const TONE: Record<string, 'success' | 'danger' | 'warning' | 'info'> = {
  DELIVERED: 'success',
  FAILED: 'danger',
  ERROR: 'danger',
  RETRY: 'warning',
  CANCELLED: 'warning',
  CANCEL_REQUESTED: 'warning',
};

/** The message's states so far (from the logs), oldest first: CREATED → ACTIVE → DELIVERED … */
export function stateTrail(events: LogEntry[]): string[] {
  return [...events].sort(compareLifecycle).map((event) => event.state);
}

function DeliveryTrail({ profileId, messageId }: { profileId: string; messageId: string }) {
  const [since] = useState(() => Date.now());
  const now = useNow(5_000);
  const logs = useBridgeQuery(
    'messages.logs.list',
    { profileId, filters: { messageId }, count: 50 },
    {
      refetchInterval: pollEvery((query) => {
        const trail = stateTrail(query.state.data?.events ?? []);
        const last = trail[trail.length - 1];
        return last && FINAL.has(last) ? false : now - since < FOLLOW_MS ? 1_500 : false;
      }),
    },
  );
  if (logs.isError)
    return <span className="faint delivery-trail">State unavailable: {logs.error.message}</span>;
  const trail = stateTrail(logs.data?.events ?? []);
  const last = trail[trail.length - 1];
  const error = (logs.data?.events ?? []).find((event) => event.error)?.error;
  return (
    <div className="delivery-trail" data-testid="delivery-trail" aria-live="polite">
      {trail.length === 0 ? <span className="faint">waiting for the first log entry…</span> : null}
      {trail.map((state, index) => (
        <span key={index} className="row" style={{ gap: 4 }}>
          {index > 0 ? <span className="faint">→</span> : null}
          {index === trail.length - 1 ? (
            <Badge tone={TONE[state] ?? 'info'}>{state}</Badge>
          ) : (
            <span className="faint">{state}</span>
          )}
        </span>
      ))}
      {last && !FINAL.has(last) && !logs.isFetching && now - since >= FOLLOW_MS ? (
        <Button size="sm" variant="ghost" onClick={() => void logs.refetch()}>
          Refresh
        </Button>
      ) : null}
      {error && last !== 'DELIVERED' ? <span className="field-error">{error}</span> : null}
    </div>
  );
}
