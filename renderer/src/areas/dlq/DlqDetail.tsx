// One DLQ entry: the failing response (status, headers, body), the request as it was sent, the message's
// settings; retry (with overrides) or delete it.
import type { DLQMessage } from '../../../../shared/messages/types';
import type { ProfileView } from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/react';
import { useNav } from '../../shell/nav';
import { BodyView } from '../../ui/BodyView';
import '../../ui/detail-panel.css';
import { Button } from '../../ui/Button';
import { confirmDanger } from '../../ui/confirm-danger';
import { formatRelative, formatTime, plural } from '../../ui/format';
import { HeadersView } from '../../ui/HeadersView';
import { TrashIcon, XIcon } from '../../ui/icons';
import { Badge, Callout, Spinner } from '../../ui/misc';
import { toast } from '../../ui/toast';
import { statusTone } from './status';

export function DlqDetail({
  profile,
  dlqId,
  loaded,
  onClose,
  onRetry,
  onDeleted,
}: {
  profile: ProfileView;
  dlqId: string;
  /** The entry from the list when it is loaded there; fetched otherwise. */
  loaded?: DLQMessage;
  onClose: () => void;
  onRetry: (entry: DLQMessage) => void;
  onDeleted: () => void;
}) {
  const navigate = useNav((state) => state.navigate);
  const fetched = useBridgeQuery(
    'messages.dlq.get',
    { profileId: profile.id, dlqId },
    { enabled: !loaded, retry: false },
  );
  const entry = loaded ?? fetched.data;
  const remove = useBridgeMutation('messages.dlq.delete', {
    onSuccess: () => {
      toast.success('DLQ entry deleted', dlqId);
      onDeleted();
    },
    onError: (error) => toast.error('Could not delete', errorMessage(error)),
  });
  const askDelete = async () => {
    const ok = await confirmDanger(profile, {
      title: 'Delete this DLQ entry?',
      body: 'The message is removed for good and will not be delivered. This cannot be undone.',
      confirmLabel: 'Delete entry',
      typeOnProd: 'delete',
    });
    if (ok) remove.mutate({ profileId: profile.id, dlqId });
  };
  const writeTitle = profile.readOnly ? 'Read-only profile' : undefined;

  return (
    <aside className="detail-panel dlq-detail" aria-label="DLQ entry">
      <div className="detail-panel-header">
        <div className="stack" style={{ gap: 2, minWidth: 0 }}>
          <span className="section-title">DLQ entry</span>
          <span className="mono detail-panel-id">{dlqId}</span>
        </div>
        <span className="spacer" />
        {entry ? (
          <>
            <Button
              size="sm"
              variant="primary"
              disabled={profile.readOnly}
              title={writeTitle}
              onClick={() => onRetry(entry)}
            >
              Retry…
            </Button>
            <Button
              size="sm"
              variant="danger"
              icon={<TrashIcon />}
              disabled={profile.readOnly}
              title={writeTitle}
              busy={remove.isPending}
              onClick={() => void askDelete()}
            >
              Delete
            </Button>
          </>
        ) : null}
        <Button size="sm" variant="ghost" icon={<XIcon />} aria-label="Close detail" onClick={onClose} />
      </div>
      <div className="detail-panel-body dlq-detail-body">
        {!entry ? (
          fetched.error ? (
            <Callout tone="warning" title="Entry not found.">
              {errorMessage(fetched.error)} — it may have been retried, deleted or expired.
            </Callout>
          ) : (
            <Spinner />
          )
        ) : (
          <>
            <section className="stack" style={{ gap: 8 }} aria-label="Failing response">
              <h3 className="section-title">Last response</h3>
              <div className="row">
                <Badge tone={statusTone(entry.responseStatus)}>
                  {entry.responseStatus === 0 ? 'No response' : `HTTP ${entry.responseStatus}`}
                </Badge>
                <span className="muted">
                  gave up after {plural(1 + entry.maxRetries, 'attempt')} (
                  {plural(entry.maxRetries, 'retry', 'retries')})
                </span>
              </div>
              <HeadersView headers={entry.responseHeader} empty="No response headers" />
              <BodyView
                value={entry.responseBody ?? entry.responseBodyBase64}
                base64={entry.responseBody === undefined}
                label="Response body"
              />
            </section>
            <section className="stack" style={{ gap: 8 }}>
              <h3 className="section-title">Request</h3>
              <div className="mono dlq-request-line">
                <strong>{entry.method}</strong> {entry.url}
              </div>
              <HeadersView headers={entry.header} empty="No forwarded headers" />
              <BodyView
                value={entry.body ?? entry.bodyBase64}
                base64={entry.body === undefined}
                label="Request body"
              />
            </section>
            <section className="stack" style={{ gap: 8 }}>
              <h3 className="section-title">Message</h3>
              <dl className="kv-list detail-facts">
                <dt>Message id</dt>
                <dd>
                  <a
                    href={`#/messages/logs/${entry.messageId}`}
                    className="mono"
                    onClick={(event) => {
                      event.preventDefault();
                      navigate('messages', 'logs', entry.messageId);
                    }}
                  >
                    {entry.messageId}
                  </a>
                </dd>
                {entry.topicName ? (
                  <>
                    <dt>URL group</dt>
                    <dd>
                      {entry.topicName}
                      {entry.endpointName ? ` / ${entry.endpointName}` : ''}
                    </dd>
                  </>
                ) : null}
                {entry.queueName ? (
                  <>
                    <dt>Queue</dt>
                    <dd>{entry.queueName}</dd>
                  </>
                ) : null}
                <dt>Retries</dt>
                <dd>{entry.maxRetries}</dd>
                {entry.retryDelayExpression ? (
                  <>
                    <dt>Retry delay</dt>
                    <dd className="mono">{entry.retryDelayExpression}</dd>
                  </>
                ) : null}
                {entry.labels?.length ? (
                  <>
                    <dt>Labels</dt>
                    <dd>{entry.labels.join(', ')}</dd>
                  </>
                ) : null}
                {entry.callback ? (
                  <>
                    <dt>Callback</dt>
                    <dd className="mono">{entry.callback}</dd>
                  </>
                ) : null}
                {entry.failureCallback ? (
                  <>
                    <dt>Failure callback</dt>
                    <dd className="mono">{entry.failureCallback}</dd>
                  </>
                ) : null}
                <dt>Created</dt>
                <dd>
                  {formatTime(entry.createdAt)}{' '}
                  <span className="muted">({formatRelative(entry.createdAt)})</span>
                </dd>
              </dl>
            </section>
          </>
        )}
      </div>
    </aside>
  );
}
