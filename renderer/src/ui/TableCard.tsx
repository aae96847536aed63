// A page's main table on a card: the list of queues, of URL groups. The rows are the caller's; `actions`
// adds the untitled last column for row buttons.
import type { ReactNode } from 'react';
import { TableHead } from './TableHead';

export function TableCard({
  label,
  columns,
  actions,
  children,
}: {
  /** The table's accessible name. */
  label: string;
  columns: readonly string[];
  actions?: boolean;
  children: ReactNode;
}) {
  return (
    <section className="card">
      <table className="table" aria-label={label}>
        <TableHead columns={columns} actions={actions} />
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
