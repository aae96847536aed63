// A dialog that edits something and submits it: the body is the form; the footer is Cancel and one primary
// submit button, busy (and so not clickable twice) while the request runs. `note` stands before Cancel
// (what will be sent); `secondary`, a second action such as "Remove expiry", between Cancel and submit.
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
  note?: ReactNode;
  secondary?: ReactNode;
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
  note,
  secondary,
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
          {note}
          <Button onClick={onClose}>Cancel</Button>
          {secondary}
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
