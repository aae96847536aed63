import type { ReactNode } from 'react';
import { create } from 'zustand';
import { Button } from './Button';
import { AlertIcon, CheckIcon, InfoIcon, XIcon } from './icons';

type Tone = 'success' | 'error' | 'info';

interface Toast {
  id: number;
  tone: Tone;
  title: string;
  body?: ReactNode;
}

interface ToastState {
  toasts: Toast[];
  push: (toast: Omit<Toast, 'id'>) => void;
  dismiss: (id: number) => void;
}

let nextId = 1;

const useToastStore = create<ToastState>((set) => ({
  toasts: [],
  push: (toast) => {
    const id = nextId++;
    set((state) => ({ toasts: [...state.toasts.slice(-4), { ...toast, id }] }));
    // Errors stay until dismissed: they usually carry text the user wants to read or copy.
    if (toast.tone !== 'error') setTimeout(() => useToastStore.getState().dismiss(id), 4500);
  },
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
}));

export const toast = {
  success: (title: string, body?: ReactNode) =>
    useToastStore.getState().push({ tone: 'success', title, body }),
  error: (title: string, body?: ReactNode) => useToastStore.getState().push({ tone: 'error', title, body }),
  info: (title: string, body?: ReactNode) => useToastStore.getState().push({ tone: 'info', title, body }),
};

const ICONS = { success: CheckIcon, error: AlertIcon, info: InfoIcon };

export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  return (
    <div className="toaster" role="region" aria-label="Notifications">
      {toasts.map((item) => {
        const Icon = ICONS[item.tone];
        return (
          <div
            key={item.id}
            className={`toast toast-${item.tone}`}
            role={item.tone === 'error' ? 'alert' : 'status'}
          >
            <Icon width={16} height={16} />
            <div className="toast-body">
              <div className="toast-title">{item.title}</div>
              {item.body ? <div className="muted">{item.body}</div> : null}
            </div>
            <Button
              variant="ghost"
              size="sm"
              aria-label="Dismiss"
              icon={<XIcon />}
              onClick={() => dismiss(item.id)}
            />
          </div>
        );
      })}
    </div>
  );
}
