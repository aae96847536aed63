// A write-only secret field: shows whether a value is stored (masked hint from main), accepts a new
// value, or clears the stored one. The stored value itself never reaches the renderer.
import type { SecretStatus } from '../../../../shared/profiles';
import { Button } from '../../ui/Button';
import { Field } from '../../ui/fields';
import type { SecretEdit } from './profile-draft';

export function SecretInput({
  label,
  status,
  edit,
  onChange,
  hint,
}: {
  label: string;
  status: SecretStatus | undefined;
  edit: SecretEdit;
  onChange: (edit: SecretEdit) => void;
  hint?: string;
}) {
  const stored = status?.hasValue ? status.hint : null;
  const placeholder =
    edit.mode === 'clear'
      ? 'Will be removed on save'
      : stored
        ? `${stored} stored · type to replace`
        : 'Not set';
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <div className="secret-row">
          <input
            id={id}
            type="password"
            className="input input-mono"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={describedBy}
            placeholder={placeholder}
            value={edit.mode === 'set' ? edit.value : ''}
            onChange={(event) =>
              onChange(event.target.value ? { mode: 'set', value: event.target.value } : { mode: 'keep' })
            }
          />
          {stored && edit.mode !== 'clear' ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => onChange({ mode: 'clear' })}
              aria-label={`Clear ${label}`}
            >
              Clear
            </Button>
          ) : null}
          {edit.mode === 'clear' ? (
            <Button size="sm" variant="ghost" onClick={() => onChange({ mode: 'keep' })}>
              Undo
            </Button>
          ) : null}
        </div>
      )}
    </Field>
  );
}
