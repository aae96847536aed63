// A list whose service does not answer: after a few seconds it says how long it has waited and offers to
// stop; stopping aborts the bridge call (what main turns into an aborted request) and says so, with Retry.
// The same for a refresh of a list already shown: the rows stay, a line above them says so.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { CallResult } from '../../../shared/bridge/frames';
import { BridgeClient } from '../bridge/client';
import { BridgeProvider, useBridgeQuery } from '../bridge/react';
import type { Transport } from '../bridge/transport';
import { ListBody } from './list/ListBody';
import { RefreshStatus } from './Waiting';

/** main's side of the bridge: calls hang until `answer` is set; each call's signal is kept. */
function hangingTransport() {
  const signals: (AbortSignal | undefined)[] = [];
  const state = { answer: null as CallResult | null };
  const transport: Transport = {
    call: (_name, _input, signal) => {
      signals.push(signal);
      return state.answer ? Promise.resolve(state.answer) : new Promise<CallResult>(() => {});
    },
    open: () => () => {},
    job: () => {
      throw new Error('no jobs in this test');
    },
    onConnection: () => () => {},
  };
  return { transport, signals, state };
}

function Queues() {
  const query = useBridgeQuery('messages.queues.list', { profileId: 'p' });
  return (
    <>
      <button onClick={() => void query.refetch()}>Reload</button>
      <ListBody query={query} failure="Could not load queues." empty={undefined}>
        <p>the queues</p>
      </ListBody>
    </>
  );
}

/** Renders `ui` on a bridge over `transport`. */
function renderOn(transport: Transport, ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={new BridgeClient(transport)}>{ui}</BridgeProvider>
    </QueryClientProvider>,
  );
}

const renderQueues = (transport: Transport) => renderOn(transport, <Queues />);

describe('Waiting (ListBody before the first page)', () => {
  it('says how long it waited, stops the call on Stop waiting, and asks again on Retry', async () => {
    const { transport, signals, state } = hangingTransport();
    renderQueues(transport);
    expect(screen.getByRole('status', { name: 'Loading' })).toBeTruthy();
    expect(
      await screen.findByText(/^Still waiting for the message service… \(\d+ s\)$/, {}, { timeout: 8000 }),
    ).toBeTruthy();
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Stop waiting' }));
    expect(await screen.findByText('Stopped waiting for the message service.')).toBeTruthy();
    expect(signals[0]?.aborted).toBe(true);

    state.answer = { ok: true, value: { queues: [] } };
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('the queues')).toBeTruthy();
    expect(signals).toHaveLength(2);
  });
});

describe('RefreshStatus (ListBody over rows already shown)', () => {
  it('keeps the rows while a refresh waits, says so after a few seconds, stops it, and says what is shown', async () => {
    const { transport, signals, state } = hangingTransport();
    state.answer = { ok: true, value: { queues: [] } };
    renderQueues(transport);
    expect(await screen.findByText('the queues')).toBeTruthy();

    // The refresh hangs: nothing is said at first, then how long, the rows still there.
    state.answer = null;
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(screen.queryByRole('status')).toBeNull();
    const status = await screen.findByRole('status', {}, { timeout: 8000 });
    expect(status.textContent).toMatch(/^Refreshing: still waiting for the message service…\d+ s/);
    expect(screen.getByText('the queues')).toBeTruthy();
    expect(signals).toHaveLength(2);

    // Stopped: the call is aborted, the rows stay, the line says when they were answered.
    await userEvent.click(screen.getByRole('button', { name: 'Stop waiting' }));
    expect(signals[1]?.aborted).toBe(true);
    expect((await screen.findByRole('status')).textContent).toMatch(
      /^Stopped refreshing: the message service did not answer\. Shown as of \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\./,
    );
    expect(screen.getByText('the queues')).toBeTruthy();

    // Refresh asks again; answered, the line goes.
    state.answer = { ok: true, value: { queues: [] } };
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(signals).toHaveLength(3);
    expect(screen.getByText('the queues')).toBeTruthy();
  });
});

/** A key's facts and its value: two queries, one refresh line (as KeyDetail shows them). */
function KeyPanel() {
  const info = useBridgeQuery('kv.keys.lookup', { profileId: 'p', key: 'k' });
  const value = useBridgeQuery('kv.keys.value', {
    profileId: 'p',
    key: 'k',
    type: 'string',
    cursor: '0',
    count: 100,
  });
  return (
    <>
      <button onClick={() => void value.refetch()}>Reload value</button>
      <button onClick={() => void Promise.all([info.refetch(), value.refetch()])}>Reload both</button>
      <RefreshStatus query={[info, value]} />
      {info.data && value.data ? <p>the key</p> : null}
    </>
  );
}

describe('RefreshStatus (one line for several queries)', () => {
  it('says so when any one refresh waits, once for all; Stop waiting stops each; Refresh asks the stopped ones', async () => {
    const { transport, signals, state } = hangingTransport();
    state.answer = { ok: true, value: {} };
    renderOn(transport, <KeyPanel />);
    expect(await screen.findByText('the key')).toBeTruthy();
    expect(signals).toHaveLength(2);

    // Only the value's refresh waits: the line says so.
    state.answer = null;
    await userEvent.click(screen.getByRole('button', { name: 'Reload value' }));
    const status = await screen.findByRole('status', {}, { timeout: 8000 });
    expect(status.textContent).toMatch(/^Refreshing: still waiting for the KV service…\d+ s/);
    await userEvent.click(screen.getByRole('button', { name: 'Stop waiting' }));
    expect(signals[2]?.aborted).toBe(true);
    expect((await screen.findByRole('status')).textContent).toMatch(/^Stopped refreshing: the KV service/);

    // Both wait: one line; Stop waiting stops both.
    await userEvent.click(screen.getByRole('button', { name: 'Reload both' }));
    await waitFor(() => expect(screen.getAllByRole('status')).toHaveLength(1), { timeout: 8000 });
    await screen.findByText(/^Refreshing: still waiting/, {}, { timeout: 8000 });
    expect(signals).toHaveLength(5);
    await userEvent.click(screen.getByRole('button', { name: 'Stop waiting' }));
    expect(signals.slice(3).map((signal) => signal?.aborted)).toEqual([true, true]);
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByText('the key')).toBeTruthy();

    // Refresh asks both again; answered, the line goes.
    state.answer = { ok: true, value: {} };
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(signals).toHaveLength(7);
  });
});
