// A table's header row from its column titles, with an untitled "Actions" column last when rows have
// buttons; cells that are more than a title (a select-all checkbox) come first as children.
import type { ReactNode } from 'react';

export function TableHead({
  columns,
  actions = false,
  actionsClassName,
  children,
}: {
  columns: readonly string[];
  actions?: boolean;
  actionsClassName?: string;
  children?: ReactNode;
}) {
  return (
    <thead>
      <tr>
        {children}
        {columns.map((column) => (
          <th key={column}>{column}</th>
        ))}
        {actions ? <th className={actionsClassName} aria-label="Actions" /> : null}
      </tr>
    </thead>
  );
}
