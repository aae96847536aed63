// A dialog that edits something and submits it: the body is the form; the footer is Cancel and one primary
// submit button, busy (and so not clickable twice) while the request runs. `note` stands before Cancel
// (what will be sent); `secondary`, a second action such as "Remove expiry", between Cancel and submit.
// A `dirty` form asks before it closes (Escape, the backdrop, Cancel): one key must not throw away what
// the user typed into a large form. A clean form closes at once.
import type { ReactNode } from 'react';
import { Button } from './Button';
import { confirm, type ConfirmRequest } from './confirm';
import { Dialog } from './Dialog';

const DISCARD_CHANGES: ConfirmRequest = {
  title: 'Discard changes?',
  body: 'What you entered in this form is lost.',
  confirmLabel: 'Discard',
  cancelLabel: 'Keep editing',
  danger: true,
};

export interface FormDialogProps {
  title: ReactNode;
  onClose: () => void;
  submitLabel: ReactNode;
  onSubmit: () => void;
  /** The request is running: a spinner on the submit button. */
  busy?: boolean;
  /** The form cannot be sent as it is (invalid, empty, read-only profile). */
  disabled?: boolean;
  /** The form holds changes the user made: closing it without submitting asks first. */
  dirty?: boolean;
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
  dirty,
  note,
  secondary,
  className,
  children,
}: FormDialogProps) {
  const close = async () => {
    if (dirty && !(await confirm(DISCARD_CHANGES))) return;
    onClose();
  };
  return (
    <Dialog
      open
      onClose={() => void close()}
      title={title}
      className={className}
      footer={
        <>
          {note}
          <Button onClick={() => void close()}>Cancel</Button>
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
