// One message's whole trail: every event with its time, error, next attempt and the destination's
// response; the request's headers and body (base64 in the logs, decoded here); cancel while pending (the
// cancel job's dialog, for this one message).
import { useMemo } from 'react';
import { LOGS_PAGE_SIZE } from '../../../../../shared/bridge/procedures/messages/logs';
import type { LogEntry } from '../../../../../shared/messages/types';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridgeQuery } from '../../../bridge/react';
import { BodyView } from '../../../ui/BodyView';
import '../../../ui/detail-panel.css';
import { DetailPanelHeader } from '../../../ui/DetailPanelHeader';
import { DetailSection } from '../../../ui/DetailSection';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { Fact } from '../../../ui/Fact';
import { formatClock, formatRelative, formatTime, serviceNow } from '../../../ui/format';
import { HeadersView } from '../../../ui/HeadersView';
import { useJobDialog } from '../../../ui/job/useJobDialog';
import { Callout } from '../../../ui/misc';
import { failureOf, RefreshStatus, Waiting } from '../../../ui/Waiting';
import { WriteButton } from '../../../ui/WriteButton';
import { RunNowButton } from '../../../clock/RunNow';
import { FlowKeyFact } from '../flow-control/FlowKeyFact';
import { attemptCount, FINAL_STATES, groupByMessage } from './group-events';
import { MessageCancelDialog, selectedMessages } from './MessageCancelJob';
import { MessageStateBadge } from './MessageStateBadge';
import { pollEvery } from '../../../bridge/polling';

export function LogDetail({
  profile,
  messageId,
  autoRefresh,
}: {
  profile: ProfileView;
  messageId: string;
  autoRefresh: boolean;
}) {
  const query = useBridgeQuery(
    'messages.logs.list',
    { profileId: profile.id, filters: { messageId }, count: LOGS_PAGE_SIZE },
    { refetchInterval: pollEvery(autoRefresh ? 3000 : false) },
  );
  const trail = useMemo(() => (query.data ? groupByMessage(query.data.events)[0] : undefined), [query.data]);
  const [cancelDialog, askCancel] = useJobDialog(MessageCancelDialog, profile);

  const first = trail?.events[0];
  const latest = trail?.latest;
  return (
    <aside className="detail-panel log-detail" aria-label="Message detail">
      <DetailPanelHeader kind="Message" id={messageId}>
        {latest && !FINAL_STATES.has(latest.state) ? (
          <RunNowButton
            profile={profile}
            item={{ kind: 'message', messageId }}
            waiting={latest.state === 'RETRY' || (latest.nextDeliveryTime ?? 0) > serviceNow()}
          />
        ) : null}
        {latest && !FINAL_STATES.has(latest.state) ? (
          <WriteButton
            profile={profile}
            size="sm"
            variant="danger"
            onClick={() => askCancel(selectedMessages([messageId]))}
          >
            Cancel message
          </WriteButton>
        ) : null}
      </DetailPanelHeader>
      <div className="detail-panel-body log-detail-body">
        {query.data ? <RefreshStatus query={query} /> : null}
        {failureOf(query.error) ? (
          <ErrorCallout error={query.error} title="Could not load the trail." />
        ) : !query.data ? (
          <Waiting query={query} />
        ) : !trail || !first || !latest ? (
          <Callout tone="info" title="No events for this message.">
            It may be older than the log retention, or the id belongs to another profile.
          </Callout>
        ) : (
          <>
            <dl className="kv-list detail-facts">
              <Fact label="State">
                <MessageStateBadge state={latest.state} />{' '}
                <span className="muted">{formatRelative(latest.time)}</span>
              </Fact>
              <Fact label="Destination" mono value={first.url} />
              <Fact label="URL group">
                {first.topicName ? (
                  <>
                    <a href={`#/url-groups/${encodeURIComponent(first.topicName)}`}>{first.topicName}</a>
                    {first.endpointName ? <span className="muted"> / {first.endpointName}</span> : null}
                  </>
                ) : undefined}
              </Fact>
              <Fact label="Queue" value={first.queueName} />
              <FlowKeyFact
                flowKey={first.flowControlKey}
                messageId={messageId}
                pending={!FINAL_STATES.has(latest.state)}
              />
              <Fact label="Schedule">
                {first.scheduleId ? (
                  <a className="mono" href={`#/messages/schedules/${encodeURIComponent(first.scheduleId)}`}>
                    {first.scheduleId}
                  </a>
                ) : undefined}
              </Fact>
              <Fact label="Attempts">
                {attemptCount(trail.events)}
                {first.maxRetries !== undefined ? (
                  <span className="muted"> of up to {1 + first.maxRetries}</span>
                ) : null}
              </Fact>
              <Fact label="Labels" value={first.labels?.join(', ')} />
              <Fact label="Callback" mono value={first.callback} />
              <Fact label="Created" value={formatTime(first.time)} />
            </dl>

            <DetailSection title="Trail">
              <ol className="timeline" aria-label="Attempt trail">
                {trail.events.map((event, index) => (
                  <TimelineEvent key={index} event={event} />
                ))}
              </ol>
            </DetailSection>

            <DetailSection
              title={<>Request {first.method ? <span className="mono">{first.method}</span> : null}</>}
            >
              <HeadersView headers={first.header} empty="No forwarded headers" />
              <BodyView value={first.body} base64 label="Request body" />
            </DetailSection>
          </>
        )}
      </div>
      {cancelDialog}
    </aside>
  );
}

function TimelineEvent({ event }: { event: LogEntry }) {
  const hasResponse =
    event.responseStatus !== undefined ||
    event.responseBody !== undefined ||
    event.responseHeader !== undefined;
  return (
    <li className="timeline-item" data-state={event.state}>
      <div className="timeline-head">
        <span className="mono faint" title={formatTime(event.time)}>
          {formatClock(event.time)}
        </span>
        <MessageStateBadge state={event.state} />
        {event.responseStatus !== undefined ? (
          <span className="mono timeline-status">HTTP {event.responseStatus}</span>
        ) : null}
      </div>
      {event.error ? <div className="timeline-error">{event.error}</div> : null}
      {/* An immediate first attempt is not worth a line; a delay or a retry is. */}
      {event.nextDeliveryTime && (event.state !== 'CREATED' || event.nextDeliveryTime - event.time > 1000) ? (
        <div className="muted timeline-note">
          Next attempt {formatTime(event.nextDeliveryTime)} ({formatRelative(event.nextDeliveryTime)})
        </div>
      ) : null}
      {hasResponse ? (
        <details className="timeline-response">
          <summary>Response</summary>
          <HeadersView headers={event.responseHeader} empty="No response headers" />
          <BodyView value={event.responseBody} base64 label="Response body" />
        </details>
      ) : null}
    </li>
  );
}
