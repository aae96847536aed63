// The filter bar of the message logs and the DLQ: text fields (comma-separated where a filter takes
// several values), a From/To range in local time, Apply (or Enter) and Clear. The screen's store keeps
// the draft (text as typed) and what was applied; the bar only edits the draft and calls apply / clear.
import type { ReactNode } from 'react';
import { Button } from './Button';
import { Form } from './Form';
import './filter-bar.css';

/** The form state a filter bar works on (each screen's zustand store has this shape). */
export interface FilterForm<Draft extends { from: string; to: string }> {
  draft: Draft;
  setDraft: (patch: Partial<Draft>) => void;
  apply: () => void;
  clear: () => void;
}

/** The keys of a draft whose values are plain text. */
type TextKey<Draft> = { [Key in keyof Draft]: Draft[Key] extends string ? Key : never }[keyof Draft];

export interface TextFilter<Draft> {
  key: TextKey<Draft>;
  label: string;
  placeholder: string;
  /** For long values such as URLs. */
  wide?: boolean;
  /** What the box takes beyond its placeholder (which must fit the box), shown on hover. */
  title?: string;
}

/** One labelled control of the bar. */
export function FilterField({
  label,
  wide,
  date,
  children,
}: {
  label: string;
  wide?: boolean;
  /** A date-time input: wide enough for the browser's whole "mm/dd/yyyy, --:-- --" and its picker. */
  date?: boolean;
  children: ReactNode;
}) {
  return (
    <label
      className={['filter-field', wide && 'filter-wide', date && 'filter-date'].filter(Boolean).join(' ')}
    >
      <span className="field-label">{label}</span>
      {children}
    </label>
  );
}

/** The time window every filter form has. */
const DATE_BOUNDS = [
  { key: 'from', label: 'From' },
  { key: 'to', label: 'To' },
] as const;

export function FilterBar<Draft extends { from: string; to: string }>({
  label,
  form,
  fields,
  children,
}: {
  /** The form's accessible name. */
  label: string;
  form: FilterForm<Draft>;
  /** Text fields, in order; they follow `children`. */
  fields: TextFilter<Draft>[];
  /** Controls other than text fields, first in the bar (e.g. a select). */
  children?: ReactNode;
}) {
  const { draft, setDraft, apply, clear } = form;
  const setText = (key: keyof Draft, value: string) => setDraft({ [key]: value } as Partial<Draft>);
  return (
    <Form className="filter-bar" aria-label={label} onSubmit={() => apply()}>
      {children}
      {fields.map(({ key, label: fieldLabel, placeholder, wide, title }) => (
        <FilterField key={String(key)} label={fieldLabel} wide={wide}>
          <input
            className="input input-mono"
            value={draft[key] as string}
            placeholder={placeholder}
            title={title}
            onChange={(event) => setText(key, event.target.value)}
          />
        </FilterField>
      ))}
      {DATE_BOUNDS.map(({ key, label: boundLabel }) => (
        <FilterField key={key} label={boundLabel} date>
          <input
            className="input"
            type="datetime-local"
            value={draft[key]}
            onChange={(event) => setText(key, event.target.value)}
          />
        </FilterField>
      ))}
      <div className="filter-actions">
        <Button type="submit" variant="primary" size="sm">
          Apply
        </Button>
        <Button size="sm" variant="ghost" onClick={clear}>
          Clear
        </Button>
      </div>
    </Form>
  );
}
