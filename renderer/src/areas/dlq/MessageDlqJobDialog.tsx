// Retry or delete message DLQ entries — one, the selected ones, every entry the filters match, or the
// whole DLQ when the user chose "all" — as a job (ui/job): this part explains the action, takes the retry
// overrides, and links the new message in the summary.
import { useState } from 'react';
import type { DlqTarget } from '../../../../shared/bridge/procedures/messages/dlq';
import type { DLQMessage } from '../../../../shared/messages/types';
import { TextareaField } from '../../ui/fields';
import { plural } from '../../ui/format';
import { InAppLink } from '../../ui/InAppLink';
import { JobDialog } from '../../ui/job/JobDialog';
import { type OpenElsewhere, useOpenElsewhere } from '../../ui/job/JobSummaryView';
import type { JobSummary } from '../../../../shared/bridge/job';
import type { JobRequestProps } from '../../ui/job/useJobDialog';
import { type OverrideField, OverridesFieldset, RETRY_OVERRIDE_FIELDS } from '../../ui/job/OverridesFieldset';
import {
  EMPTY_OVERRIDES,
  type OverrideErrors,
  type OverridesDraft,
  toOverrides,
} from '../../ui/job/overrides-draft';
import { retryOverridesSchema } from '../../../../shared/messages/overrides';

export interface MessageDlqJobRequest {
  action: 'retry' | 'delete';
  target: DlqTarget;
  /** How the target reads in a sentence: "the 3 selected entries", "entries matching label nightly". */
  description: string;
  /** The one entry acted on, when there is one: its own settings are what a blank override keeps. */
  entry?: Pick<DLQMessage, 'maxRetries'>;
}

const entries = (count: number) => plural(count, 'entry', 'entries');

export function MessageDlqJobDialog({ request, ...dialog }: JobRequestProps<MessageDlqJobRequest>) {
  const [draft, setDraft] = useState<OverridesDraft>(EMPTY_OVERRIDES);
  const { action, target, description } = request;
  const { overrides, errors } = toOverrides(draft, retryOverridesSchema);
  const retry = action === 'retry';
  const verb = retry ? 'Retry' : 'Delete';
  const what =
    'ids' in target
      ? target.ids.length === 1
        ? 'DLQ entry'
        : 'selected DLQ entries'
      : 'matching DLQ entries';
  const open = useOpenElsewhere(dialog.onClose);
  return (
    <JobDialog
      {...dialog}
      procedure="messages.dlq.job"
      input={{ action, target, description }}
      title={`${verb} ${'all' in target ? 'every DLQ entry' : what}`}
      verb={verb}
      unit={entries}
      danger={!retry}
      options={retry && Object.keys(errors).length > 0 ? null : { overrides: retry ? overrides : {} }}
      preview={
        <>
          <p className="muted">
            {retry
              ? 'Each entry becomes a new message with a new id and is removed from the DLQ. '
              : 'The entries are removed for good; their messages are not delivered. '}
            You can cancel between requests.
            {'ids' in target ? '' : ' Entries that fail after this list was made are not included.'}
          </p>
          {retry ? (
            <MessageOverrides draft={draft} errors={errors} onChange={setDraft} entry={request.entry} />
          ) : null}
        </>
      }
      verbed={retry ? 'retried' : 'deleted'}
      itemLabel="DLQ id"
      overrides={retry ? overrides : undefined}
      summaryDetail={(summary) => <NewMessage summary={summary} open={open} />}
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
  errors: OverrideErrors;
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

/** A retry of one entry made one new message: where to follow it. */
function NewMessage({ summary, open }: { summary: JobSummary; open: OpenElsewhere }) {
  const retried = summary.created.filter((item) => item.id);
  return retried.length === 1 ? (
    <p>
      New message:{' '}
      <InAppLink
        href={`#/messages/logs/${retried[0]!.id}`}
        className="mono"
        onOpen={() => open('messages', 'logs', retried[0]!.id)}
      >
        {retried[0]!.id}
      </InAppLink>{' '}
      — follow it in the logs.
    </p>
  ) : null;
}
