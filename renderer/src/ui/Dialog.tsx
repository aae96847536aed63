import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  /** Accessible label when the title is not plain text. */
  ariaLabel?: string;
  className?: string;
}

/**
 * Shows and hides a native <dialog> as a modal following `open`, and reports its closing. The platform
 * queues a dialog's close event as a task, so it can arrive after the dialog has already been reopened (a
 * quick Ctrl+K, a second confirmation): only a dialog that is really closed reports it.
 */
export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  open: boolean,
  onClose: () => void,
): () => void {
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [ref, open]);
  return () => {
    if (!ref.current?.open) onClose();
  };
}

/** A modal on the native <dialog> element: focus trapping, Escape and the backdrop come from the platform. */
export function Dialog({ open, onClose, title, children, footer, ariaLabel, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const onDialogClose = useModalDialog(ref, open, onClose);
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      className={['dialog', className].filter(Boolean).join(' ')}
      aria-label={ariaLabel}
      aria-labelledby={ariaLabel ? undefined : titleId}
      onClose={onDialogClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onMouseDown={(event) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (event.target === ref.current) onClose();
      }}
    >
      {open ? (
        <>
          <div className="dialog-header">
            <h2 id={titleId}>{title}</h2>
          </div>
          <div className="dialog-body">{children}</div>
          {footer ? <div className="dialog-footer">{footer}</div> : null}
        </>
      ) : null}
    </dialog>
  );
}
