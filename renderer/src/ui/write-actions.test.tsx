// Write actions: a read-only profile turns them off and says why; row actions are off with nothing to act on;
// a row's remove button is named for what it removes.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RemoveRowButton } from './RemoveRowButton';
import { RowActions } from './RowActions';
import { READ_ONLY_TITLE, WriteButton } from './WriteButton';

const writable = { readOnly: false };
const readOnly = { readOnly: true };

describe('WriteButton', () => {
  it('keeps its own title and disabled state on a writable profile', () => {
    const onClick = vi.fn();
    render(
      <>
        <WriteButton profile={writable} title="Delete queue" onClick={onClick}>
          Delete
        </WriteButton>
        <WriteButton profile={writable} disabled>
          Busy elsewhere
        </WriteButton>
      </>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('title')).toBe('Delete queue');
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Busy elsewhere' })).toHaveProperty('disabled', true);
  });

  it('is disabled on a read-only profile and its title says why', () => {
    const onClick = vi.fn();
    render(
      <WriteButton profile={readOnly} title="Delete queue" onClick={onClick}>
        Delete
      </WriteButton>,
    );
    const button = screen.getByRole('button', { name: 'Delete' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('title')).toBe(READ_ONLY_TITLE);
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });
});

describe('RowActions', () => {
  const actions = (retry: () => void) => [
    { label: 'Retry selected…', variant: 'primary' as const, onClick: retry },
    { label: 'Delete selected…', variant: 'danger' as const, onClick: vi.fn() },
  ];

  it('renders one small button per action, in order, that runs its action', () => {
    const retry = vi.fn();
    render(<RowActions profile={writable} available title="The selected entries" actions={actions(retry)} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((button) => button.textContent)).toEqual(['Retry selected…', 'Delete selected…']);
    expect(buttons[0]!.className).toBe('btn btn-primary btn-sm');
    expect(buttons[1]!.className).toBe('btn btn-danger btn-sm');
    expect(buttons[0]!.getAttribute('title')).toBe('The selected entries');
    fireEvent.click(buttons[0]!);
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('is off while there is nothing to act on', () => {
    render(<RowActions profile={writable} available={false} actions={actions(vi.fn())} />);
    for (const button of screen.getAllByRole('button')) expect(button).toHaveProperty('disabled', true);
  });

  it('is off on a read-only profile even with rows to act on, and says why', () => {
    render(
      <RowActions profile={readOnly} available title="The selected entries" actions={actions(vi.fn())} />,
    );
    for (const button of screen.getAllByRole('button')) {
      expect(button).toHaveProperty('disabled', true);
      expect(button.getAttribute('title')).toBe(READ_ONLY_TITLE);
    }
  });
});

describe('RemoveRowButton', () => {
  it('is a small ghost icon button named for what it removes', () => {
    const onClick = vi.fn();
    render(<RemoveRowButton label="Remove row 2" onClick={onClick} />);
    const button = screen.getByRole('button', { name: 'Remove row 2' });
    expect(button.className).toBe('btn btn-ghost btn-sm btn-icon');
    expect(button.querySelector('svg')).not.toBeNull();
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('with a profile it is a write action: off on a read-only profile', () => {
    render(
      <>
        <RemoveRowButton profile={writable} label="Delete emails" title="Delete queue" />
        <RemoveRowButton profile={readOnly} label="Delete orders" title="Delete queue" />
      </>,
    );
    const writableButton = screen.getByRole('button', { name: 'Delete emails' });
    expect(writableButton).toHaveProperty('disabled', false);
    expect(writableButton.getAttribute('title')).toBe('Delete queue');
    const readOnlyButton = screen.getByRole('button', { name: 'Delete orders' });
    expect(readOnlyButton).toHaveProperty('disabled', true);
    expect(readOnlyButton.getAttribute('title')).toBe(READ_ONLY_TITLE);
  });
});
