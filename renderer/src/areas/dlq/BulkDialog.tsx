// Retry or delete message DLQ entries — one, the selected ones, or every entry the filters match — on
// the console's bulk-job flow (ui/bulk): this part counts the entries, takes the retry overrides, opens
// `messages.dlq.bulk` (chunks of 100; Cancel closes the stream) and links the new message in the summary.
import { useState } from 'react';
import type { DlqBulkSummary, DlqTarget } from '../../../../shared/bridge/procedures/messages/dlq';
import type { RetryOverrides } from '../../../../shared/messages/overrides';
import type { DLQMessage } from '../../../../shared/messages/types';
import { useBridge, useBridgeQuery } from '../../bridge/react';
import { useNav } from '../../shell/nav';
import { BulkActionDialog, type BulkDialogProps } from '../../ui/bulk/BulkActionDialog';
import { BulkCount } from '../../ui/bulk/BulkCount';
import { BulkFailures } from '../../ui/bulk/BulkFailures';
import { BulkResult } from '../../ui/bulk/BulkResult';
import {
  type OverrideField,
  OverridesFieldset,
  RETRY_OVERRIDE_FIELDS,
} from '../../ui/bulk/OverridesFieldset';
import { TextareaField } from '../../ui/fields';
import { plural } from '../../ui/format';
import { InAppLink } from '../../ui/InAppLink';
import { describeOverrides, EMPTY_OVERRIDES, type OverridesDraft, toOverrides } from './overrides-form';

export interface BulkRequest {
  action: 'retry' | 'delete';
  target: DlqTarget;
  /** How the target reads in a sentence: "the 3 selected entries", "entries matching label nightly". */
  description: string;
  /** The one entry acted on, when there is one: its own settings are what a blank override keeps. */
  entry?: Pick<DLQMessage, 'maxRetries'>;
}

const entries = (count: number) => plural(count, 'entry', 'entries');

export function BulkDialog({ profile, request, onClose, onChanged }: BulkDialogProps<BulkRequest>) {
  const bridge = useBridge();
  const navigate = useNav((state) => state.navigate);
  const [draft, setDraft] = useState<OverridesDraft>(EMPTY_OVERRIDES);
  const { action, target } = request;
  const byFilter = 'filters' in target;
  const count = useBridgeQuery(
    'messages.dlq.count',
    { profileId: profile.id, filters: byFilter ? target.filters : {} },
    { enabled: byFilter, staleTime: 0, gcTime: 0 },
  );
  const total = byFilter ? count.data?.count : target.dlqIds.length;
  const { overrides, errors } = toOverrides(draft);
  const retry = action === 'retry';
  const verb = retry ? 'Retry' : 'Delete';
  const what = byFilter ? 'matching DLQ entries' : total === 1 ? 'DLQ entry' : 'selected DLQ entries';

  return (
    <BulkActionDialog<DlqBulkSummary>
      profile={profile}
      title={`${verb} ${what}`}
      verb={verb}
      startLabel={total === undefined ? verb : `${verb} ${entries(total)}`}
      danger={!retry}
      ready={total !== undefined && total > 0 && !(retry && Object.keys(errors).length > 0)}
      preview={
        <>
          <BulkCount
            verb={verb}
            description={request.description}
            total={total}
            count={count}
            unit={entries}
          />
          <p className="muted">
            {retry
              ? 'Each entry becomes a new message with a new id and is removed from the DLQ. '
              : 'The entries are removed for good; their messages are not delivered. '}
            {total !== undefined && total > 100
              ? `The job sends ${Math.ceil(total / 100)} requests of up to 100 entries; you can cancel between them.`
              : ''}
            {byFilter ? ' Entries that fail after the job starts are not included.' : ''}
          </p>
          {retry ? (
            <MessageOverrides draft={draft} errors={errors} onChange={setDraft} entry={request.entry} />
          ) : null}
        </>
      }
      start={(handlers) =>
        bridge.open(
          'messages.dlq.bulk',
          { profileId: profile.id, action, target, overrides: retry ? overrides : {} },
          handlers,
        )
      }
      runningHint="Cancel stops before the next request of up to 100 entries."
      stoppedHint="A request already sent when you cancelled may still have completed; the list shows what is left."
      summary={(summary) => (
        <SummaryView
          summary={summary}
          overrides={retry ? overrides : undefined}
          onOpenMessage={(messageId) => {
            onClose();
            navigate('messages', 'logs', messageId);
          }}
        />
      )}
      onClose={onClose}
      onChanged={onChanged}
    />
  );
}

const { retries, delay, retryDelay, label } = RETRY_OVERRIDE_FIELDS;
/** Blank keeps each entry's own setting, so the placeholder shows that, never a generic default. */
export function overrideFields(
  entry?: Pick<DLQMessage, 'maxRetries'>,
): OverrideField<keyof OverridesDraft>[] {
  return [
    { ...retries, placeholder: entry ? String(entry.maxRetries) : 'as before' },
    delay,
    retryDelay,
    { key: 'timeout', label: 'Timeout', placeholder: '30s' },
    label,
  ];
}

function MessageOverrides({
  draft,
  errors,
  onChange,
  entry,
}: {
  draft: OverridesDraft;
  errors: Partial<Record<keyof OverridesDraft, string>>;
  onChange: (draft: OverridesDraft) => void;
  entry?: Pick<DLQMessage, 'maxRetries'>;
}) {
  return (
    <OverridesFieldset
      legend="Overrides (blank keeps the original setting)"
      fields={overrideFields(entry)}
      draft={draft}
      errors={errors}
      onChange={onChange}
    >
      <TextareaField
        label="Headers for the destination"
        className="full overrides-headers"
        value={draft.headers}
        error={errors.headers}
        spellCheck={false}
        placeholder={'X-Replay: yes'}
        hint="One “Name: value” per line; replaces the original header of that name."
        onChange={(event) => onChange({ ...draft, headers: event.target.value })}
      />
    </OverridesFieldset>
  );
}

function SummaryView({
  summary,
  overrides,
  onOpenMessage,
}: {
  summary: DlqBulkSummary;
  overrides?: RetryOverrides;
  onOpenMessage: (messageId: string) => void;
}) {
  const allGood = summary.failures.length === 0 && summary.notFound === 0;
  const retried = summary.retried.filter((entry) => entry.messageId);
  const changes = overrides ? describeOverrides(overrides) : [];
  return (
    <div className="stack" data-testid="bulk-summary">
      <BulkResult
        total={summary.total}
        succeeded={summary.succeeded}
        verbed={summary.action === 'retry' ? 'retried' : 'deleted'}
        allGood={allGood}
      >
        {summary.notFound > 0 ? `${summary.notFound} were already gone (retried, deleted or expired). ` : ''}
        {summary.failures.length > 0 ? `${entries(summary.failures.length)} failed — listed below.` : ''}
        {changes.length > 0 ? ` Overrides: ${changes.join(' · ')}.` : ''}
      </BulkResult>
      {retried.length === 1 ? (
        <p>
          New message:{' '}
          <InAppLink
            href={`#/messages/logs/${retried[0]!.messageId}`}
            className="mono"
            onOpen={() => onOpenMessage(retried[0]!.messageId)}
          >
            {retried[0]!.messageId}
          </InAppLink>{' '}
          — follow it in the logs.
        </p>
      ) : null}
      <BulkFailures failures={summary.failures} />
    </div>
  );
}
