// One DLQ entry: the failing response (status, headers, body), the request as it was sent, the message's
// settings; retry (with overrides) or delete it.
import type { DLQMessage } from '../../../../shared/messages/types';
import type { ProfileView } from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/react';
import { useNav } from '../../shell/nav';
import { useScreenRoute } from '../../shell/screen-route';
import { BodyView, textOrBase64 } from '../../ui/BodyView';
import '../../ui/detail-panel.css';
import { confirmDanger } from '../../ui/confirm-danger';
import { DetailPanelHeader } from '../../ui/DetailPanelHeader';
import { DetailSection } from '../../ui/DetailSection';
import { Fact } from '../../ui/Fact';
import { formatRelative, formatTime, plural } from '../../ui/format';
import { HeadersView } from '../../ui/HeadersView';
import { TrashIcon } from '../../ui/icons';
import { InAppLink } from '../../ui/InAppLink';
import { Badge, Callout } from '../../ui/misc';
import { failureOf, RefreshStatus, Waiting } from '../../ui/Waiting';
import { toast } from '../../ui/toast';
import { WriteButton } from '../../ui/WriteButton';
import { statusTone } from './status';

export function MessageDlqDetail({
  profile,
  dlqId,
  loaded,
  onRetry,
  onDeleted,
}: {
  profile: ProfileView;
  dlqId: string;
  /** The entry from the list when it is loaded there; fetched otherwise. */
  loaded?: DLQMessage;
  onRetry: (entry: DLQMessage) => void;
  /** After a delete (the panel has closed itself). */
  onDeleted: () => void;
}) {
  const navigate = useNav((state) => state.navigate);
  const screen = useScreenRoute();
  const fetched = useBridgeQuery(
    'messages.dlq.get',
    { profileId: profile.id, dlqId },
    { enabled: !loaded, retry: false },
  );
  const entry = loaded ?? fetched.data;
  const remove = useBridgeMutation('messages.dlq.delete', {
    onSuccess: () => {
      toast.success('DLQ entry deleted', dlqId);
      // The entry is gone: close its panel (back to the list), then let the list refresh.
      screen.close();
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

  return (
    <aside className="detail-panel dlq-detail" aria-label="DLQ entry">
      <DetailPanelHeader kind="DLQ entry" id={dlqId}>
        {entry ? (
          <>
            <WriteButton profile={profile} size="sm" variant="primary" onClick={() => onRetry(entry)}>
              Retry…
            </WriteButton>
            <WriteButton
              profile={profile}
              size="sm"
              variant="danger"
              icon={<TrashIcon />}
              busy={remove.isPending}
              onClick={() => void askDelete()}
            >
              Delete
            </WriteButton>
          </>
        ) : null}
      </DetailPanelHeader>
      <div className="detail-panel-body dlq-detail-body">
        {!entry ? (
          failureOf(fetched.error) ? (
            <Callout tone="warning" title="Entry not found.">
              {errorMessage(fetched.error)} — it may have been retried, deleted or expired.
            </Callout>
          ) : (
            <Waiting query={fetched} />
          )
        ) : (
          <>
            <RefreshStatus query={fetched} />
            {entry.workflowRunId ? (
              <Callout tone="info" title="A message of a workflow run">
                {entry.workflowMessage === 'call' ? (
                  <>
                    The request of <code>context.call</code>
                    {entry.workflowStepName ? (
                      <>
                        {' '}
                        step <code>{entry.workflowStepName}</code>
                      </>
                    ) : null}{' '}
                    of run{' '}
                  </>
                ) : (
                  'A delivery of run '
                )}
                <InAppLink
                  href={`#/workflows/run/${encodeURIComponent(entry.workflowRunId)}`}
                  className="mono"
                  onOpen={() =>
                    navigate(
                      'workflows',
                      'run',
                      entry.workflowRunId!,
                      ...(entry.workflowCreatedAt ? [String(entry.workflowCreatedAt)] : []),
                    )
                  }
                >
                  {entry.workflowRunId}
                </InAppLink>
                .{' '}
                {entry.workflowMessage === 'call'
                  ? 'The run already got this failure as the call’s response and went on. Retrying here sends the request to the same URL again, outside the run: if the run still waits it gets the new answer as another response, otherwise the answer is dropped. To run the step again, restart or resume the run from the workflow DLQ.'
                  : 'Retrying here delivers it again outside the run’s restart and resume: use the workflow DLQ to recover the run.'}
              </Callout>
            ) : null}
            <DetailSection title="Last response" label="Failing response">
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
                {...textOrBase64(entry.responseBody, entry.responseBodyBase64)}
                label="Response body"
              />
            </DetailSection>
            <DetailSection title="Request">
              <div className="mono dlq-request-line">
                <strong>{entry.method}</strong> {entry.url}
              </div>
              <HeadersView headers={entry.header} empty="No forwarded headers" />
              <BodyView {...textOrBase64(entry.body, entry.bodyBase64)} label="Request body" />
            </DetailSection>
            <DetailSection title="Message">
              <dl className="kv-list detail-facts">
                <Fact label="Message id">
                  <InAppLink
                    href={`#/messages/logs/${entry.messageId}`}
                    className="mono"
                    onOpen={() => navigate('messages', 'logs', entry.messageId)}
                  >
                    {entry.messageId}
                  </InAppLink>
                </Fact>
                <Fact
                  label="URL group"
                  value={
                    entry.topicName &&
                    `${entry.topicName}${entry.endpointName ? ` / ${entry.endpointName}` : ''}`
                  }
                />
                <Fact label="Queue" value={entry.queueName} />
                <Fact label="Retries" value={entry.maxRetries} />
                <Fact label="Retry delay" mono value={entry.retryDelayExpression} />
                <Fact label="Labels" value={entry.labels?.join(', ')} />
                <Fact label="Callback" mono value={entry.callback} />
                <Fact label="Failure callback" mono value={entry.failureCallback} />
                <Fact label="Created">
                  {formatTime(entry.createdAt)}{' '}
                  <span className="muted">({formatRelative(entry.createdAt)})</span>
                </Fact>
              </dl>
            </DetailSection>
          </>
        )}
      </div>
    </aside>
  );
}
