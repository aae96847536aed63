// An editable list of headers: name, value, a tick to keep a row without sending it, add and remove.
import type { HeaderRow } from '../../../../../shared/composer/model';
import { Button } from '../../../ui/Button';
import { PlusIcon } from '../../../ui/icons';
import { RemoveRowButton } from '../../../ui/RemoveRowButton';

export function HeaderTable({
  label,
  rows,
  onChange,
  errors,
  errorPrefix,
  hint,
}: {
  /** Names the table for screen readers and tests ("Forward headers"). */
  label: string;
  rows: HeaderRow[];
  onChange: (rows: HeaderRow[]) => void;
  errors: Record<string, string>;
  /** Error keys of row i are `${errorPrefix}.${i}.name|value`. */
  errorPrefix: string;
  hint?: string;
}) {
  const update = (index: number, patch: Partial<HeaderRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  const textCell = (index: number, field: 'name' | 'value', placeholder: string, error?: string) => (
    <input
      className="input input-mono"
      placeholder={placeholder}
      aria-label={`${label}: ${field} ${index + 1}`}
      aria-invalid={error ? true : undefined}
      value={rows[index]![field]}
      spellCheck={false}
      onChange={(event) => update(index, { [field]: event.target.value })}
    />
  );
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      <div className="header-table" role="group" aria-label={label}>
        {rows.map((row, index) => {
          const nameError = errors[`${errorPrefix}.${index}.name`];
          const valueError = errors[`${errorPrefix}.${index}.value`];
          return (
            <div className="header-row" key={index}>
              <input
                type="checkbox"
                checked={row.enabled}
                aria-label={`Send header ${index + 1}`}
                title={row.enabled ? 'Sent' : 'Kept, not sent'}
                onChange={(event) => update(index, { enabled: event.target.checked })}
              />
              {textCell(index, 'name', 'Name', nameError)}
              {textCell(index, 'value', 'Value', valueError)}
              <RemoveRowButton
                label={`Remove header ${index + 1}`}
                onClick={() => onChange(rows.filter((_, i) => i !== index))}
              />
              {nameError || valueError ? (
                <span className="field-error header-row-error" role="alert">
                  {nameError ?? valueError}
                </span>
              ) : null}
            </div>
          );
        })}
        <div>
          <Button
            size="sm"
            variant="ghost"
            icon={<PlusIcon />}
            onClick={() => onChange([...rows, { name: '', value: '', enabled: true }])}
          >
            Add header
          </Button>
        </div>
      </div>
      {hint ? <span className="field-hint">{hint}</span> : null}
    </div>
  );
}
