// The checkbox cells of a selectable list (see use-selection.ts): in a table, one in the header for every
// loaded row and one per row; in a listbox (the run list), a box drawn on each option. Clicking one never
// opens its row.
import { CheckIcon } from '../icons';

interface CheckProps {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  /** Off, e.g. for a row that the action cannot touch; `title` says why. */
  disabled?: boolean;
  title?: string;
}

function Check({ label, checked, onChange, disabled, title }: CheckProps) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      title={title}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

/**
 * A listbox option's checkbox (a grid cell of its own), drawn for the mouse only: an option may hold no
 * control, so its checked state is the option's own aria-checked and the keyboard's Space toggles it
 * (the run list). A click toggles it without opening the row; `label` is its tooltip.
 */
export function RowCheck({ label, checked, onChange, disabled, title }: CheckProps) {
  return (
    <span
      className="row-check"
      aria-hidden="true"
      title={title ?? label}
      data-testid="row-check"
      onClick={(event) => {
        event.stopPropagation();
        if (!disabled) onChange(!checked);
      }}
    >
      <span className={`row-check-box${checked ? ' is-checked' : ''}${disabled ? ' is-disabled' : ''}`}>
        {checked ? <CheckIcon width={11} height={11} strokeWidth={3} /> : null}
      </span>
    </span>
  );
}

/** The header cell that checks or unchecks every loaded row. */
export function SelectAllCell(props: CheckProps) {
  return (
    <th className="cell-check">
      <Check {...props} />
    </th>
  );
}

/** A row's checkbox cell; clicks on it do not open the row. */
export function SelectCell(props: CheckProps) {
  return (
    <td className="cell-check" onClick={(event) => event.stopPropagation()}>
      <Check {...props} />
    </td>
  );
}
