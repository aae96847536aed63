// A dialog that edits something and submits it: the body is the form; the footer is Cancel and one primary
// submit button, busy (and so not clickable twice) while the request runs. `extra` stands before Cancel:
// a note on what will be sent, or a second action such as "Remove expiry".
import type { ReactNode } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';

export interface FormDialogProps {
  title: ReactNode;
  onClose: () => void;
  submitLabel: ReactNode;
  onSubmit: () => void;
  /** The request is running: a spinner on the submit button. */
  busy?: boolean;
  /** The form cannot be sent as it is (invalid, empty, read-only profile). */
  disabled?: boolean;
  extra?: ReactNode;
  className?: string;
  children: ReactNode;
}

export function FormDialog({
  title,
  onClose,
  submitLabel,
  onSubmit,
  busy,
  disabled,
  extra,
  className,
  children,
}: FormDialogProps) {
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      className={className}
      footer={
        <>
          {extra}
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={busy} disabled={busy || disabled} onClick={onSubmit}>
            {submitLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
