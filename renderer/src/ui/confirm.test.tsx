// The confirm dialog's way back never reads like the action it backs out of.
import { render, screen } from '@testing-library/react';
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { confirm, ConfirmHost, dismissLabel } from './confirm';
import { confirmDanger } from './confirm-danger';

// jsdom has <dialog> but not its modal methods.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false;
};

describe('confirm', () => {
  it('says "Go back" (or what the caller names) when confirming is itself a cancel', () => {
    expect(dismissLabel({ confirmLabel: 'Delete queue' })).toBe('Cancel');
    expect(dismissLabel({ confirmLabel: 'Cancel message' })).toBe('Go back');
    expect(dismissLabel({ confirmLabel: 'Cancel 2 messages', cancelLabel: 'Keep them' })).toBe('Keep them');
  });

  it('renders the two buttons with different names and resolves false on the way back', async () => {
    render(<ConfirmHost />);
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = confirm({
        title: 'Cancel this message?',
        body: 'x',
        confirmLabel: 'Cancel message',
        cancelLabel: 'Keep message',
      });
    });
    const buttons = screen.getAllByRole('button').map((button) => button.textContent);
    expect(buttons).toContain('Keep message');
    expect(buttons).toContain('Cancel message');
    expect(buttons).not.toContain('Cancel');
    act(() => screen.getByRole('button', { name: 'Keep message' }).click());
    await expect(answer).resolves.toBe(false);
  });

  it('asks a non-destructive write with the primary button, a dangerous one with the red one', async () => {
    render(<ConfirmHost />);
    const profile = { env: 'dev' as const, confirmDangerous: true, name: 'Local' };
    const buttonOf = async (danger: boolean | undefined, label: string) => {
      let answer: Promise<boolean> = Promise.resolve(false);
      act(() => {
        answer = confirmDanger(profile, { title: label, body: 'x', confirmLabel: label, danger });
      });
      const button = screen.getByRole('button', { name: label });
      const classes = [...button.classList];
      act(() => screen.getByRole('button', { name: 'Cancel' }).click());
      await expect(answer).resolves.toBe(false);
      return classes;
    };
    expect(await buttonOf(false, 'Publish now')).toContain('btn-primary');
    expect(await buttonOf(false, 'Publish now')).not.toContain('btn-danger');
    expect(await buttonOf(undefined, 'Delete schedule')).toContain('btn-danger');
  });
});
