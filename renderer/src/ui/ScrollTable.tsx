// A compact table in a box that scrolls on its own — a dialog's preview, a bulk job's results — so a long
// list never grows the dialog past the screen. The rows are the caller's.
import type { ReactNode } from 'react';
import { TableHead } from './TableHead';

export function ScrollTable({
  label,
  columns,
  className,
  children,
}: {
  /** The table's accessible name. */
  label: string;
  columns: readonly string[];
  /** Added to the box, e.g. to style rows by their data attributes. */
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className ? `scroll-box ${className}` : 'scroll-box'}>
      <table className="table table-compact" aria-label={label}>
        <TableHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
