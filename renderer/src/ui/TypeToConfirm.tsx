// The one type-to-confirm of the console: a field that must hold an exact word (the production profile's
// name, or "all" before a job on everything) before a dangerous action is allowed. Used by confirm() and
// by the job dialog.
import type { ReactNode } from 'react';
import { TextField } from './fields';

export function TypeToConfirm({
  word,
  typed,
  onType,
  why,
  onEnter,
  autoFocus,
}: {
  word: string;
  typed: string;
  onType: (typed: string) => void;
  /** Before "type … to confirm", e.g. "Production profile:". */
  why?: ReactNode;
  /** Enter in the field, once the word matches. */
  onEnter?: () => void;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label={
        <>
          {why ? <>{why} type</> : 'Type'} <code>{word}</code> to confirm
        </>
      }
      value={typed}
      autoFocus={autoFocus}
      autoComplete="off"
      spellCheck={false}
      onChange={(event) => onType(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && typed === word) onEnter?.();
      }}
    />
  );
}
