// Deduplication (none, by id, by content) and labels.
import { DEDUP_WINDOW_MINUTES } from '../../../../../../shared/messages/limits';
import { BoundTextField, Segmented } from '../../../../ui/fields';
import { Section } from './Section';
import type { SectionProps } from './section-props';

export function DedupLabelsSection({ model, set, form }: SectionProps) {
  return (
    <Section
      title="Deduplication and labels"
      collapsible
      open={model.dedupMode !== 'none' || model.labels !== ''}
    >
      <div className="field">
        <span className="field-label">Deduplication</span>
        <Segmented
          label="Deduplication"
          value={model.dedupMode}
          options={{ none: 'None', id: 'By id', content: 'By content' }}
          onChange={(dedupMode) => set({ dedupMode })}
        />
        <span className="field-hint">
          A duplicate within {DEDUP_WINDOW_MINUTES} minutes is accepted but not delivered again: the answer is
          HTTP 202 with the first message’s id and “deduplicated”.
          {model.dedupMode === 'content'
            ? ' Content means destination, body, Content-Type and forwarded headers.'
            : ''}
        </span>
      </div>
      {model.dedupMode === 'id' ? (
        <BoundTextField
          form={form}
          name="dedupId"
          label="Deduplication id"
          mono
          placeholder="e.g. order-4711"
        />
      ) : null}
      <BoundTextField
        form={form}
        name="labels"
        label="Labels"
        placeholder="e.g. billing, nightly"
        hint="Comma-separated. Logs and the DLQ can be filtered by label."
      />
    </Section>
  );
}
