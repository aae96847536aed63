// When and how often the message is delivered: delay or an exact earliest time, retries and their delay
// expression (with a preview of when they would happen), and the per-delivery timeout.
import { formatWait, retryPreview } from '../../../../../../shared/composer/retry-preview';
import { DEFAULT_RETRIES } from '../../../../../../shared/messages/limits';
import { DELAY_HINT } from '../../../../../../shared/messages/settings';
import { Button } from '../../../../ui/Button';
import { BoundTextField, Field } from '../../../../ui/fields';
import { formatUtc, fromLocalInput, toLocalInput } from '../local-time';
import { Section } from './Section';
import type { SectionProps } from './section-props';

export function DeliverySection({ model, set, error, warning, form, variant }: SectionProps) {
  return (
    <Section title="Delivery">
      <div className="form-grid">
        <BoundTextField
          form={form}
          name="delay"
          label="Delay"
          mono
          placeholder="e.g. 10s, 5m, 2h, 1d"
          hint={warning('delay') ?? (variant === 'schedule' ? `After each tick. ${DELAY_HINT}` : DELAY_HINT)}
        />
        {variant === 'schedule' ? null : (
          <NotBeforeField
            value={model.notBefore}
            onChange={(notBefore) => set({ notBefore })}
            error={error('notBefore')}
            warning={warning('notBefore')}
          />
        )}
        <BoundTextField
          form={form}
          name="retries"
          label="Retries"
          mono
          numeric
          placeholder={`${DEFAULT_RETRIES} (default)`}
          hint={retriesHint(model.retries)}
        />
        <BoundTextField
          form={form}
          name="timeout"
          label="Timeout"
          mono
          placeholder="plan’s maximum"
          hint="How long one delivery may take (a bare number is seconds). Can only shorten your plan’s limit."
        />
        <div className="full">
          <RetryDelayField
            retries={model.retries}
            value={model.retryDelay}
            onChange={(retryDelay) => set({ retryDelay })}
            error={error('retryDelay')}
          />
        </div>
      </div>
    </Section>
  );
}

function retriesHint(value: string): string {
  const text = value.trim();
  if (text === '')
    return `Default ${DEFAULT_RETRIES}: up to 1 + ${DEFAULT_RETRIES} = ${1 + DEFAULT_RETRIES} deliveries.`;
  if (!/^\d+$/.test(text)) return 'Up to 1 + N deliveries.';
  const n = Number(text);
  return `Up to 1 + ${n} = ${1 + n} deliver${n === 0 ? 'y' : 'ies'}; then the message goes to the DLQ.`;
}

function NotBeforeField({
  value,
  onChange,
  error,
  warning,
}: {
  value: number | null;
  onChange: (value: number | null) => void;
  error?: string;
  warning?: string;
}) {
  return (
    <Field
      label="Earliest delivery (local time)"
      error={error}
      hint={
        warning ??
        (value !== null
          ? `Sent as Upstash-Not-Before: ${value} (${formatUtc(value)}). Wins over the delay.`
          : 'An exact time instead of a delay; if both are set, this one wins.')
      }
    >
      {({ id, describedBy, invalid }) => (
        <div className="row">
          <input
            id={id}
            type="datetime-local"
            step={1}
            className="input"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={value === null ? '' : toLocalInput(value)}
            onChange={(event) => onChange(fromLocalInput(event.target.value))}
          />
          {value !== null ? (
            <Button size="sm" variant="ghost" onClick={() => onChange(null)}>
              Clear
            </Button>
          ) : null}
        </div>
      )}
    </Field>
  );
}

function RetryDelayField({
  retries,
  value,
  onChange,
  error,
}: {
  retries: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const preview = retryPreview(/^\d+$/.test(retries.trim()) ? retries : '', value);
  return (
    <Field
      label="Retry delay expression"
      error={error}
      hint="Milliseconds before each retry; `retried` is 0 for the first retry. Functions: pow, exp, sqrt, abs, floor, ceil, round, min, max."
    >
      {({ id, describedBy, invalid }) => (
        <div className="stack" style={{ gap: 6 }}>
          <input
            id={id}
            className="input input-mono"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            value={value}
            spellCheck={false}
            placeholder="empty = default backoff, e.g. pow(2, retried) * 1000"
            onChange={(event) => onChange(event.target.value)}
          />
          {preview.ok ? (
            <div className="retry-preview" data-testid="retry-preview">
              <span className="muted">{preview.usesDefault ? 'Default backoff:' : 'Retries after:'}</span>
              {preview.steps.length === 0 ? <span className="muted">no retries</span> : null}
              {preview.steps.map((step) => (
                <span
                  key={step.retry}
                  className="retry-step"
                  title={`retry ${step.retry}: ${formatWait(step.totalMs)} after the first failure`}
                >
                  #{step.retry} {formatWait(step.waitMs)}
                </span>
              ))}
              {preview.deliveries - 1 > preview.steps.length ? <span className="muted">…</span> : null}
            </div>
          ) : null}
        </div>
      )}
    </Field>
  );
}
