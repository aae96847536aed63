// Text boxes in a toolbar or a one-line form (filters, patterns, run ids, a path): named for screen
// readers by their label, the placeholder says what goes in. Monospace, since what is typed there is
// matched or sent as it is.
import type { InputHTMLAttributes } from 'react';
import { SearchIcon } from './icons';
import './tables.css';

type ToolbarInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Enter in the box, with its text. */
  onEnter?: (value: string) => void;
};

export function ToolbarInput({ label, value, onChange, onEnter, className, ...rest }: ToolbarInputProps) {
  return (
    <input
      className={['input input-mono', className].filter(Boolean).join(' ')}
      aria-label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={onEnter && ((event) => event.key === 'Enter' && onEnter(event.currentTarget.value))}
      {...rest}
    />
  );
}

/**
 * A toolbar box that finds or opens something (a key pattern, a key name): a fixed width, and a magnifier
 * before it unless `icon` is false. `className` goes on the label around both.
 */
export function ToolbarSearch({ className, icon = true, ...input }: ToolbarInputProps & { icon?: boolean }) {
  return (
    <label className={['toolbar-search', className].filter(Boolean).join(' ')}>
      {icon ? <SearchIcon width={14} height={14} /> : null}
      <ToolbarInput {...input} />
    </label>
  );
}

export interface ToolbarInputField<K extends string> {
  name: K;
  label: string;
  placeholder: string;
  /** What the box takes beyond its placeholder (which must fit the box), shown on hover. */
  title?: string;
  className?: string;
}

/** Several boxes editing the text fields of one record (the monitor's filters, the runs to compare). */
export function ToolbarInputs<K extends string, V extends Record<K, string>>({
  fields,
  values,
  onChange,
  disabled,
}: {
  fields: readonly ToolbarInputField<K>[];
  values: V;
  onChange: (values: V) => void;
  disabled?: boolean;
}) {
  return fields.map(({ name, ...field }) => (
    <ToolbarInput
      key={name}
      {...field}
      value={values[name]}
      disabled={disabled}
      onChange={(value) => onChange({ ...values, [name]: value })}
    />
  ));
}
