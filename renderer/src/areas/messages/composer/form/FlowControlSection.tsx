// Flow control: a key shared across URLs with parallelism, rate and period limits.
import { BoundTextField } from '../../../../ui/fields';
import { Section } from './Section';
import type { SectionProps } from './section-props';

export function FlowControlSection({ model, form }: SectionProps) {
  return (
    <Section title="Flow control" collapsible open={model.flowControlKey !== ''}>
      <div className="form-grid form-grid-4">
        <BoundTextField form={form} name="flowControlKey" label="Key" mono placeholder="e.g. tenant-42" />
        <BoundTextField
          form={form}
          name="flowControlParallelism"
          label="Parallelism"
          mono
          numeric
          placeholder="—"
        />
        <BoundTextField form={form} name="flowControlRate" label="Rate" mono numeric placeholder="—" />
        <BoundTextField form={form} name="flowControlPeriod" label="Period" mono placeholder="1s" />
      </div>
      <span className="field-hint">
        Messages with the same key share the limits across URLs: at most <em>parallelism</em> in flight, at
        most <em>rate</em> started per <em>period</em> (default 1s, at most 7d). Over the limit they wait;
        they are not rejected.
      </span>
    </Section>
  );
}
