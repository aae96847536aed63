// The checkbox cells of a selectable list (see use-selection.ts): in a table, one in the header for every
// loaded row and one per row; in a list of rows (the logs, the run list), one per row. Clicking one never
// opens its row.
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

/** A list row's checkbox (a grid cell of its own). */
export function RowCheck(props: CheckProps) {
  return (
    <span className="row-check" onClick={(event) => event.stopPropagation()}>
      <Check {...props} />
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
