// Flow control: a key shared across URLs with parallelism, rate and period limits.
import { TextField } from '../../../../ui/fields';
import { Section } from './Section';
import type { SectionProps } from './section-props';

export function FlowControlSection({ model, set, error }: SectionProps) {
  return (
    <Section title="Flow control" collapsible open={model.flowControlKey !== ''}>
      <div className="form-grid form-grid-4">
        <TextField
          label="Key"
          mono
          value={model.flowControlKey}
          placeholder="e.g. tenant-42"
          error={error('flowControlKey')}
          onChange={(event) => set({ flowControlKey: event.target.value })}
        />
        <TextField
          label="Parallelism"
          mono
          inputMode="numeric"
          value={model.flowControlParallelism}
          placeholder="—"
          error={error('flowControlParallelism')}
          onChange={(event) => set({ flowControlParallelism: event.target.value })}
        />
        <TextField
          label="Rate"
          mono
          inputMode="numeric"
          value={model.flowControlRate}
          placeholder="—"
          error={error('flowControlRate')}
          onChange={(event) => set({ flowControlRate: event.target.value })}
        />
        <TextField
          label="Period"
          mono
          value={model.flowControlPeriod}
          placeholder="1s"
          error={error('flowControlPeriod')}
          onChange={(event) => set({ flowControlPeriod: event.target.value })}
        />
      </div>
      <span className="field-hint">
        Messages with the same key share the limits across URLs: at most <em>parallelism</em> in flight, at
        most <em>rate</em> started per <em>period</em> (default 1s, at most 7d). Over the limit they wait;
        they are not rejected.
      </span>
    </Section>
  );
}
