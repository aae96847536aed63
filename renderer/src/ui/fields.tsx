import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  children: (ids: {
    id: string;
    describedBy: string | undefined;
    invalid: boolean;
    /** The same, as the props a control spreads: `<input {...control} />`. */
    control: ControlProps;
  }) => ReactNode;
}

interface ControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/** Label + control + hint/error, wired for screen readers. */
export function Field({ label, hint, error, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const describedBy = error || hint ? hintId : undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        describedBy,
        invalid: Boolean(error),
        control: { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined },
      })}
      {error ? (
        <span id={hintId} className="field-error" role="alert">
          {error}
        </span>
      ) : hint ? (
        <span id={hintId} className="field-hint">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** The words every labelled control shows around itself, as Field takes them. */
type FieldWords = Pick<FieldProps, 'label' | 'hint' | 'error'>;

/** Monospace text in the box (code, headers); the label stays as every field's. */
type Mono = { mono?: boolean };

type InputProps = InputHTMLAttributes<HTMLInputElement> & FieldWords & Mono;

export function TextField({ label, hint, error, mono, className, ...rest }: InputProps) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {({ control }) => <input className={mono ? 'input input-mono' : 'input'} {...control} {...rest} />}
    </Field>
  );
}

/** A form's state as the fields bound to it see it: the values, a patch setter, each field's messages. */
export interface FormBinding<M> {
  values: M;
  set: (patch: Partial<M>) => void;
  error?: (name: string) => string | undefined;
  /** Shown in place of the field's hint. */
  warning?: (name: string) => string | undefined;
}

type StringKeys<M> = { [K in keyof M]: M[K] extends string ? K : never }[keyof M] & string;

/** A text field for one string value of a form: value, change, error and warning come from the binding. */
export function BoundTextField<M, K extends StringKeys<M>>({
  form,
  name,
  numeric,
  hint,
  ...rest
}: Omit<InputProps, 'value' | 'onChange' | 'form' | 'name'> & {
  form: FormBinding<M>;
  name: K;
  /** A count: the numeric keyboard. */
  numeric?: boolean;
}) {
  return (
    <TextField
      {...rest}
      inputMode={numeric ? 'numeric' : rest.inputMode}
      value={form.values[name] as string}
      error={rest.error ?? form.error?.(name)}
      hint={form.warning?.(name) ?? hint}
      onChange={(event) => form.set({ [name]: event.target.value } as Partial<M>)}
    />
  );
}

type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & FieldWords;

export function SelectField({ label, hint, error, className, children, ...rest }: SelectProps) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {({ control }) => (
        <select className="select" {...control} {...rest}>
          {children}
        </select>
      )}
    </Field>
  );
}

type TextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldWords & Mono;

/** `className` goes on the field (label, box and hint), as for TextField; `mono` styles the box alone. */
export function TextareaField({ label, hint, error, mono, className, ...rest }: TextareaProps) {
  return (
    <Field label={label} hint={hint} error={error} className={className}>
      {({ control }) => (
        <textarea className={mono ? 'textarea input-mono' : 'textarea'} {...control} {...rest} />
      )}
    </Field>
  );
}

export function Switch({
  label,
  description,
  checked,
  onChange,
  disabled,
}: {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="switch-text">
        <span className="field-label">{label}</span>
        {description ? <span className="field-hint">{description}</span> : null}
      </span>
    </label>
  );
}

export function Segmented<T extends string>({
  value,
  options,
  onChange,
  label,
}: {
  value: T;
  /** The choices in order: a list, or `{ value: label }` (`{ text: 'Text', json: 'JSON' }`). */
  options: readonly { value: T; label: ReactNode }[] | Readonly<Partial<Record<T, ReactNode>>>;
  onChange: (value: T) => void;
  label: string;
}) {
  const choices = Array.isArray(options)
    ? (options as readonly { value: T; label: ReactNode }[])
    : (Object.entries(options) as [T, ReactNode][]).map(([key, text]) => ({ value: key, label: text }));
  return (
    <div className="segmented" role="group" aria-label={label}>
      {choices.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
