// A list screen's body: the list, and beside it the detail panel of the opened row when one is open
// (the split gets `has-detail`, so the list can drop columns the panel covers).
import { Fragment, type ReactNode } from 'react';
import './list.css';

export function ListWithDetail({
  className,
  mainClassName,
  open,
  detail,
  children,
}: {
  /** The screen's own classes for the split and for the list's side, where its CSS needs them. */
  className?: string;
  mainClassName?: string;
  /** The opened row's id (none: no panel). The panel is keyed by it: another row's starts afresh. */
  open: string | undefined;
  /** The opened row's panel. */
  detail: (open: string) => ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={['list-split', className, open ? 'has-detail' : ''].filter(Boolean).join(' ')}>
      <div className={['list-split-main', mainClassName].filter(Boolean).join(' ')}>{children}</div>
      {open ? <Fragment key={open}>{detail(open)}</Fragment> : null}
    </div>
  );
}
