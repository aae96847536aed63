// Checkbox selection of a list screen: a set of ids, narrowed to the rows currently loaded (a row that
// left the list after a refresh is no longer "selected", so a bulk action never reaches a hidden row).
//
//   const selection = useSelection(entries.map((entry) => entry.dlqId));
//   selection.ids            // checked ids among the loaded rows, in row order
//   selection.isChecked(id); selection.toggle(id, on); selection.setAll(on); selection.clear();
import { useCallback, useMemo, useState } from 'react';

export function useSelection(rowIds: readonly string[]) {
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set());
  const ids = useMemo(() => rowIds.filter((id) => checked.has(id)), [rowIds, checked]);
  const toggle = useCallback(
    (id: string, on: boolean) =>
      setChecked((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const setAll = useCallback((on: boolean) => setChecked(on ? new Set(rowIds) : new Set()), [rowIds]);
  const clear = useCallback(() => setChecked(new Set()), []);
  return {
    ids,
    count: ids.length,
    allChecked: rowIds.length > 0 && ids.length === rowIds.length,
    isChecked: (id: string) => checked.has(id),
    toggle,
    setAll,
    clear,
  };
}

export type Selection = ReturnType<typeof useSelection>;
