// Where the message goes: a URL, a URL group, a queue (to a URL or a group) or the LLM API; groups and
// queues are picked from the profile's lists or typed (an unknown queue is created).
import { useId } from 'react';
import type { ComposerModel, DestinationKind } from '../../../../../../shared/composer/model';
import { useBridgeQuery } from '../../../../bridge/react';
import { Button } from '../../../../ui/Button';
import { BoundTextField, type FormBinding, Segmented, TextField } from '../../../../ui/fields';
import { RefreshIcon } from '../../../../ui/icons';
import { Section } from './Section';
import type { SectionProps } from './section-props';

const KIND_OPTIONS: { value: DestinationKind; label: string }[] = [
  { value: 'url', label: 'URL' },
  { value: 'group', label: 'URL group' },
  { value: 'queue', label: 'Queue' },
  { value: 'llm', label: 'api/llm' },
];

export function DestinationSection({ model, set, profileId, form }: SectionProps) {
  const target = model.destinationKind === 'queue' ? model.queueTarget : model.destinationKind;
  return (
    <Section title="Destination">
      <div className="field">
        <span className="field-label">Send to</span>
        <Segmented
          label="Send to"
          value={model.destinationKind}
          options={KIND_OPTIONS}
          onChange={(kind) => set({ destinationKind: kind })}
        />
        <span className="field-hint">
          {model.destinationKind === 'url' && 'Published now (or after the delay) to one URL.'}
          {model.destinationKind === 'group' && 'One message per endpoint of the group (fan-out).'}
          {model.destinationKind === 'queue' &&
            'Enqueued: delivered in order, one after another (the queue’s parallelism). An unknown queue is created.'}
          {model.destinationKind === 'llm' &&
            'The message goes to the LLM API; the answer is delivered to the callback, which is required.'}
        </span>
      </div>
      {model.destinationKind === 'queue' ? (
        <div className="form-grid">
          <DestinationPicker kind="queue" profileId={profileId} form={form} />
          <div className="field">
            <span className="field-label">Queue target</span>
            <Segmented
              label="Queue target"
              value={model.queueTarget}
              options={{ url: 'URL', group: 'URL group' }}
              onChange={(queueTarget) => set({ queueTarget })}
            />
          </div>
        </div>
      ) : null}
      {target === 'url' ? (
        <BoundTextField
          form={form}
          name="url"
          label="Destination URL"
          mono
          placeholder="https://example.com/api/webhook"
          spellCheck={false}
          hint="http:// or https://. Its own query string is kept."
        />
      ) : null}
      {target === 'group' ? <DestinationPicker kind="group" profileId={profileId} form={form} /> : null}
    </Section>
  );
}

function DestinationPicker({
  kind,
  profileId,
  form,
}: {
  /** Also the model field it edits. */
  kind: 'group' | 'queue';
  profileId: string;
  form: FormBinding<ComposerModel>;
}) {
  const value = form.values[kind];
  const onChange = (name: string) => form.set({ [kind]: name });
  const error = form.error?.(kind);
  const listId = useId();
  const lists = useBridgeQuery('messages.destinations', { profileId }, { staleTime: 30_000 });
  const options =
    kind === 'group'
      ? (lists.data?.groups ?? []).map((g) => ({
          name: g.name,
          note: `${g.endpoints} endpoint${g.endpoints === 1 ? '' : 's'}`,
        }))
      : (lists.data?.queues ?? []).map((q) => ({
          name: q.name,
          note: `${q.paused ? 'paused, ' : ''}lag ${q.lag}, parallelism ${q.parallelism}`,
        }));
  const known = options.find((option) => option.name === value.trim());
  const hint = lists.error
    ? `Could not load the list: ${lists.error.message}`
    : known
      ? known.note
      : options.length === 0 && lists.isSuccess
        ? kind === 'group'
          ? 'No URL groups yet: create one under URL groups.'
          : 'No queues yet: type a name and the queue is created with parallelism 1.'
        : kind === 'queue' && value.trim()
          ? 'A new queue: created with parallelism 1.'
          : `${options.length} ${kind === 'group' ? 'URL group' : 'queue'}${options.length === 1 ? '' : 's'} on this profile.`;
  return (
    <div className="destination-picker">
      <TextField
        label={kind === 'group' ? 'URL group' : 'Queue'}
        mono
        list={listId}
        value={value}
        placeholder={kind === 'group' ? 'pick or type a group name' : 'pick or type a queue name'}
        spellCheck={false}
        error={error}
        hint={hint}
        onChange={(event) => onChange(event.target.value)}
      />
      <datalist id={listId}>
        {options.map((option) => (
          <option key={option.name} value={option.name}>
            {option.note}
          </option>
        ))}
      </datalist>
      <Button
        size="sm"
        variant="ghost"
        icon={<RefreshIcon />}
        aria-label={`Reload the ${kind === 'group' ? 'URL group' : 'queue'} list`}
        busy={lists.isFetching}
        onClick={() => void lists.refetch()}
      />
    </div>
  );
}
