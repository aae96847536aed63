// The run list's add-filter form is a draft: with nothing applied it must not look like "State: Run
// failed" (issue 19 item 9). The bridge here is an in-memory transport answering the saved-views query.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ProfileView } from '../../../../../shared/profiles';
import { BridgeClient } from '../../../bridge/client';
import { BridgeProvider } from '../../../bridge/react';
import type { Transport } from '../../../bridge/transport';
import { RunFilterBar } from './RunsTab';

const transport: Transport = {
  call: (name) =>
    Promise.resolve(
      name === 'workflows.views.list'
        ? { ok: true, value: [] }
        : { ok: false, error: { code: 'INTERNAL', message: `unexpected ${name}` } },
    ),
  open: () => () => {},
  job: () => {
    throw new Error('no jobs here');
  },
  onConnection: () => () => {},
};

function renderBar() {
  const onChange = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <BridgeProvider client={new BridgeClient(transport)}>
        <RunFilterBar profile={{ id: 'local' } as ProfileView} filters={{}} onChange={onChange} />
      </BridgeProvider>
    </QueryClientProvider>,
  );
  return onChange;
}

describe('RunFilterBar', () => {
  it('shows no state preselected while the list is unfiltered', () => {
    renderBar();
    const state = screen.getByLabelText('State') as HTMLSelectElement;
    expect(state.value).toBe('');
    expect(state.selectedOptions[0]?.textContent).toBe('Pick a state…');
    expect(screen.getByLabelText('Applied filters').textContent).toContain('All runs, newest first');
  });

  it('applies nothing until a state is picked and added; then the draft is empty again', () => {
    const onChange = renderBar();
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Pick a state.');

    const state = screen.getByLabelText('State') as HTMLSelectElement;
    fireEvent.change(state, { target: { value: 'RUN_FAILED' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(onChange).toHaveBeenCalledWith({ state: 'RUN_FAILED' });
    expect(state.value).toBe('');
  });
});
