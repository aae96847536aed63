// The form dialog's footer (Cancel + one primary submit) and the async save hook behind the KV dialogs.
import { act, fireEvent, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmHost } from './confirm';
import { FormDialog } from './FormDialog';
import { useAsyncSave } from './use-async-save';

// jsdom has <dialog> but not its modal methods.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false;
};

function footerButtons() {
  return screen.getAllByRole('button').map((button) => ({
    text: button.textContent,
    primary: button.classList.contains('btn-primary'),
    disabled: (button as HTMLButtonElement).disabled,
  }));
}

describe('FormDialog', () => {
  it('shows the form with Cancel then the primary submit, after the note', () => {
    const onSubmit = vi.fn();
    const onClose = vi.fn();
    render(
      <FormDialog
        title="New queue"
        submitLabel="Create queue"
        onSubmit={onSubmit}
        onClose={onClose}
        note={<span>1 change to send</span>}
      >
        <input aria-label="Name" />
      </FormDialog>,
    );
    expect(screen.getByRole('dialog', { name: 'New queue' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Name' })).toBeTruthy();
    expect(screen.getByText('1 change to send').nextElementSibling?.textContent).toBe('Cancel');
    expect(footerButtons()).toEqual([
      { text: 'Cancel', primary: false, disabled: false },
      { text: 'Create queue', primary: true, disabled: false },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Create queue' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('puts a secondary action between Cancel and the submit', () => {
    render(
      <FormDialog
        title="Time to live"
        submitLabel="Set TTL"
        onSubmit={vi.fn()}
        onClose={vi.fn()}
        secondary={<button type="button">Remove expiry</button>}
      >
        x
      </FormDialog>,
    );
    expect(footerButtons().map((button) => button.text)).toEqual(['Cancel', 'Remove expiry', 'Set TTL']);
  });

  it('cannot submit a form that is not ready, nor twice while the request runs', () => {
    const onSubmit = vi.fn();
    const { rerender } = render(
      <FormDialog title="Rename" submitLabel="Rename" disabled onSubmit={onSubmit} onClose={vi.fn()}>
        x
      </FormDialog>,
    );
    expect(screen.getByRole('button', { name: 'Rename' })).toHaveProperty('disabled', true);
    rerender(
      <FormDialog
        title="Rename"
        submitLabel="Rename"
        busy
        disabled={false}
        onSubmit={onSubmit}
        onClose={vi.fn()}
      >
        x
      </FormDialog>,
    );
    const submit = screen.getByRole('button', { name: 'Rename' });
    expect(submit).toHaveProperty('disabled', true);
    expect(submit.getAttribute('aria-busy')).toBe('true');
    fireEvent.click(submit);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', false);
  });
});

describe('FormDialog with changes in it', () => {
  function renderEditor(dirty: boolean) {
    const onClose = vi.fn();
    render(
      <>
        <FormDialog
          title="New schedule"
          submitLabel="Create"
          onSubmit={vi.fn()}
          onClose={onClose}
          dirty={dirty}
        >
          <input aria-label="Cron" />
        </FormDialog>
        <ConfirmHost />
      </>,
    );
    return onClose;
  }

  it('closes a clean form at once', () => {
    const onClose = renderEditor(false);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull();
  });

  it('asks before closing a dirty form: Keep editing stays, Discard closes', async () => {
    const onClose = renderEditor(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Discard changes?' });
    act(() => fireEvent.click(within(ask).getByRole('button', { name: 'Keep editing' })));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull());
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    const again = await screen.findByRole('dialog', { name: 'Discard changes?' });
    act(() => fireEvent.click(within(again).getByRole('button', { name: 'Discard' })));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });
});

describe('useAsyncSave', () => {
  it('is busy while the save runs and passes its arguments on', async () => {
    let finish = () => {};
    const save = vi.fn((_ttl: number | null) => new Promise<void>((resolve) => (finish = resolve)));
    const { result } = renderHook(() => useAsyncSave(save));
    let running: Promise<void> = Promise.resolve();
    act(() => {
      running = result.current.run(60);
    });
    expect(save).toHaveBeenCalledWith(60);
    expect(result.current.busy).toBe(true);
    await act(async () => {
      finish();
      await running;
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.error).toBeUndefined();
  });

  it('keeps the failure as text and is ready for another try', async () => {
    const save = vi.fn(async (to: string) => {
      throw new Error(`${to} already exists`);
    });
    const { result } = renderHook(() => useAsyncSave(save));
    await act(() => result.current.run('orders:copy'));
    expect(result.current.error).toBe('orders:copy already exists');
    expect(result.current.busy).toBe(false);
  });
});
