// The checkbox cells of a selectable table (see use-selection.ts): one in the header for every loaded
// row, one per row that does not open the row when clicked.
interface CheckProps {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}

function Check({ label, checked, onChange }: CheckProps) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
    />
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
