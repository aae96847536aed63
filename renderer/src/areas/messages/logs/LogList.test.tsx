// A row shows the message's current state even when the list is filtered by another state, and a
// finished message is not offered for cancel. The bridge here is an in-memory transport answering the
// one call the row makes (the logs of one message, newest first), as main would.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../../../../shared/messages/types';
import { BridgeClient } from '../../../bridge/client';
import { BridgeProvider } from '../../../bridge/react';
import type { Transport } from '../../../bridge/transport';
import { groupByMessage } from './group-events';
import { TrailRow } from './LogList';

const event = (messageId: string, state: LogEntry['state'], time: number) =>
  ({ messageId, state, time, url: 'https://x.test/' }) as LogEntry;

/** Current (newest) event of each message, as `messages.logs.list {filters: {messageId}, count: 1}` answers. */
const newest: Record<string, LogEntry> = {
  msg_done: event('msg_done', 'DELIVERED', 30),
  msg_waiting: event('msg_waiting', 'CREATED', 20),
};

const transport: Transport = {
  call: (name, input) => {
    const messageId = (input as { filters?: { messageId?: string } }).filters?.messageId;
    if (name !== 'messages.logs.list' || !messageId) throw new Error(`unexpected call ${name}`);
    return Promise.resolve({ ok: true, value: { events: [newest[messageId]] } });
  },
  open: () => () => {},
  job: () => {
    throw new Error('no jobs here');
  },
  onConnection: () => () => {},
};

function renderList(stateFiltered: boolean) {
  // The list filtered by CREATED: each message's CREATED event only.
  const trails = groupByMessage([event('msg_done', 'CREATED', 10), event('msg_waiting', 'CREATED', 20)]);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={new BridgeClient(transport)}>
        {trails.map((trail) => (
          <TrailRow
            key={trail.messageId}
            trail={trail}
            selected={false}
            checked={false}
            onOpen={() => {}}
            onCheck={() => {}}
            canCancel
            profileId="local"
            stateFiltered={stateFiltered}
          />
        ))}
      </BridgeProvider>
    </QueryClientProvider>,
  );
}

describe('LogList under a state filter', () => {
  it('shows each message’s current state and offers cancel only for unfinished ones', async () => {
    renderList(true);
    // A row is named by the cells that say which message it is: id, current state, destination, time.
    const row = (id: string, state: string) =>
      screen.findByRole('listitem', { name: new RegExp(`^${id} ${state} https://x\\.test/ \\d\\d:\\d\\d`) });
    const done = await row('msg_done', 'DELIVERED');
    const badge = (row: HTMLElement) => row.querySelector('.log-row-state')?.textContent;
    await waitFor(() => expect(badge(done)).toMatch(/^Delivered$/i));
    expect((screen.getByLabelText('Select msg_done') as HTMLInputElement).disabled).toBe(true);
    const waiting = await row('msg_waiting', 'CREATED');
    await waitFor(() => expect(badge(waiting)).toMatch(/^Created$/i));
    expect((screen.getByLabelText('Select msg_waiting') as HTMLInputElement).disabled).toBe(false);
  });
});
