// The checkbox cells of a selectable table (see use-selection.ts): one in the header for every loaded
// row, one per row that does not open the row when clicked.
/** The header cell that checks or unchecks every loaded row. */
export function SelectAllCell({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <th className="cell-check">
      <input
        type="checkbox"
        aria-label={label}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
    </th>
  );
}

/** A row's checkbox cell; clicks on it do not open the row. */
export function SelectCell({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <td className="cell-check" onClick={(event) => event.stopPropagation()}>
      <input
        type="checkbox"
        aria-label={label}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
    </td>
  );
}
