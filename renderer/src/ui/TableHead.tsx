// A table's header row from its column titles, with an "Actions" column last (its title for screen readers only) when rows have
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
        {actions ? <UntitledHeader name="Actions" className={actionsClassName} /> : null}
      </tr>
    </thead>
  );
}

/** A column header with no title on screen (the actions, a checkbox column): its name for screen readers. */
export function UntitledHeader({ name, className }: { name: string; className?: string | undefined }) {
  return (
    <th className={className}>
      <span className="visually-hidden">{name}</span>
    </th>
  );
}
