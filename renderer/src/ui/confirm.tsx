// Ask-first for dangerous actions: `await confirm({...})` resolves true only when the user confirms.
// With `typeToConfirm`, the confirm button stays disabled until the user types that exact text.
import { type ReactNode, useState } from 'react';
import { create } from 'zustand';
import { Button } from './Button';
import { Dialog } from './Dialog';
import { TypeToConfirm } from './TypeToConfirm';

export interface ConfirmRequest {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  /** The button that backs out; by default "Cancel", or "Go back" when confirming is itself a cancel. */
  cancelLabel?: string;
  danger?: boolean;
  typeToConfirm?: string;
}

interface ConfirmState {
  request: (ConfirmRequest & { resolve: (ok: boolean) => void }) | null;
  ask: (request: ConfirmRequest) => Promise<boolean>;
  settle: (ok: boolean) => void;
}

const useConfirmStore = create<ConfirmState>((set, get) => ({
  request: null,
  ask: (request) =>
    new Promise<boolean>((resolve) => {
      get().request?.resolve(false);
      set({ request: { ...request, resolve } });
    }),
  settle: (ok) => {
    get().request?.resolve(ok);
    set({ request: null });
  },
}));

export function confirm(request: ConfirmRequest): Promise<boolean> {
  return useConfirmStore.getState().ask(request);
}

/** Mounted once by the shell. */
export function ConfirmHost() {
  const request = useConfirmStore((state) => state.request);
  const settle = useConfirmStore((state) => state.settle);
  return request ? (
    <ConfirmDialog key={request.title + request.confirmLabel} request={request} onSettle={settle} />
  ) : null;
}

/** "Cancel" next to "Cancel message" reads as two ways to cancel: the way back then says so. */
export function dismissLabel(request: Pick<ConfirmRequest, 'confirmLabel' | 'cancelLabel'>): string {
  if (request.cancelLabel) return request.cancelLabel;
  return /^cancel\b/i.test(request.confirmLabel.trim()) ? 'Go back' : 'Cancel';
}

function ConfirmDialog({ request, onSettle }: { request: ConfirmRequest; onSettle: (ok: boolean) => void }) {
  const [typed, setTyped] = useState('');
  const blocked = request.typeToConfirm !== undefined && typed !== request.typeToConfirm;
  return (
    <Dialog
      open
      onClose={() => onSettle(false)}
      title={request.title}
      footer={
        <>
          <Button onClick={() => onSettle(false)}>{dismissLabel(request)}</Button>
          <Button
            variant={request.danger ? 'danger' : 'primary'}
            disabled={blocked}
            onClick={() => onSettle(true)}
          >
            {request.confirmLabel}
          </Button>
        </>
      }
    >
      <div className="muted">{request.body}</div>
      {request.typeToConfirm !== undefined ? (
        <TypeToConfirm
          word={request.typeToConfirm}
          typed={typed}
          onType={setTyped}
          onEnter={() => onSettle(true)}
          autoFocus
        />
      ) : null}
    </Dialog>
  );
}
