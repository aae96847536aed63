// A list screen's body: the list, and beside it the detail panel of the opened row when one is open
// (the split gets `has-detail`, so the list can drop columns the panel covers).
import type { ReactNode } from 'react';
import './list.css';

export function ListWithDetail({
  className,
  mainClassName,
  detail,
  children,
}: {
  /** The screen's own class for the split and for the list's side. */
  className: string;
  mainClassName: string;
  /** The opened row's panel, or nothing. */
  detail: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={['list-split', className, detail ? 'has-detail' : ''].filter(Boolean).join(' ')}>
      <div className={`list-split-main ${mainClassName}`}>{children}</div>
      {detail}
    </div>
  );
}
