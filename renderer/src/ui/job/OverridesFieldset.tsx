// The overrides of a retry or restart as a grid of text fields; blank keeps the original setting.
import type { ReactNode } from 'react';
import { TextField } from '../fields';

export interface OverrideField<K extends string> {
  key: K;
  label: string;
  placeholder: string;
  /** A count: numeric keyboard, proportional font. */
  numeric?: boolean;
}

/** The settings every retry or restart can override, alike for messages and workflow runs. */
export const RETRY_OVERRIDE_FIELDS = {
  retries: { key: 'retries', label: 'Retries', placeholder: '3', numeric: true },
  delay: { key: 'delay', label: 'Delay', placeholder: '10s, 5m, 1h' },
  retryDelay: { key: 'retryDelay', label: 'Retry delay expression', placeholder: 'pow(2, retried) * 1000' },
  label: { key: 'label', label: 'Labels', placeholder: 'replay, nightly' },
} as const;

export function OverridesFieldset<K extends string>({
  legend,
  fields,
  draft,
  errors,
  onChange,
  children,
}: {
  legend: ReactNode;
  fields: readonly OverrideField<K>[];
  draft: Record<K, string>;
  errors: Partial<Record<K, string>>;
  onChange: (draft: Record<K, string>) => void;
  /** Fields that are not one line of text (e.g. headers). */
  children?: ReactNode;
}) {
  return (
    <fieldset className="overrides">
      <legend className="section-title">{legend}</legend>
      <div className="form-grid overrides-grid">
        {fields.map(({ key, label, placeholder, numeric }) => (
          <TextField
            key={key}
            label={label}
            value={draft[key]}
            error={errors[key]}
            mono={!numeric}
            inputMode={numeric ? 'numeric' : undefined}
            placeholder={placeholder}
            onChange={(event) => onChange({ ...draft, [key]: event.target.value })}
          />
        ))}
        {children}
      </div>
    </fieldset>
  );
}
