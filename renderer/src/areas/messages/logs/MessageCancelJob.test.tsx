// The Logs screen's cancel actions and their job dialog, with main's side played by the test: which
// target each action opens (never an empty filter: "all" only when no filter is set, and typed), the
// preview count main listed, the guard rails (typing "all", the production profile's name), the start
// with the confirmed count, and closing the dialog closing the job.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../../../shared/profiles';
import { BridgeClient } from '../../../bridge/client';
import { BridgeProvider } from '../../../bridge/react';
import type { StreamHandlers, Transport } from '../../../bridge/transport';
import { stagingProfile } from '../../../test-support/profiles';
import { useJobDialog } from '../../../ui/job/useJobDialog';
import type { CancelScope } from './log-filters';
import { MessageCancelActions, MessageCancelDialog } from './MessageCancelJob';

// jsdom has <dialog> but not its modal methods.
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  this.open = false;
};

/** main's side: the jobs opened, their starts and closes; `send` plays events to the last one. */
function fakeMain() {
  const opened: { name: string; input: unknown; started?: [unknown, number]; closed: boolean }[] = [];
  let handlers: StreamHandlers | undefined;
  const transport: Transport = {
    call: () => Promise.reject(new Error('no calls')),
    open: () => () => {},
    job: (name, input, jobHandlers) => {
      const job = { name, input, closed: false } as (typeof opened)[number];
      opened.push(job);
      handlers = jobHandlers;
      return {
        start: (options, confirmed) => (job.started = [options, confirmed]),
        close: () => (job.closed = true),
      };
    },
    onConnection: () => () => {},
  };
  return { transport, opened, send: (...events: unknown[]) => act(() => handlers!.onEvents(events, 0)) };
}

function Screen({
  profile,
  selected = [],
  matching,
}: {
  profile: ProfileView;
  selected?: string[];
  matching: CancelScope;
}) {
  const [cancelDialog, askCancel] = useJobDialog(MessageCancelDialog, profile);
  return (
    <>
      <MessageCancelActions profile={profile} selected={selected} matching={matching} onAsk={askCancel} />
      {cancelDialog}
    </>
  );
}

function renderScreen(main: ReturnType<typeof fakeMain>, props: Parameters<typeof Screen>[0]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <BridgeProvider client={new BridgeClient(main.transport)}>
        <Screen {...props} />
      </BridgeProvider>
    </QueryClientProvider>,
  );
}

const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
const listed = (found: number) => ({ type: 'collecting', jobId: 'j1', found, done: true, capped: false });

describe('message cancel from the Logs screen, as a job', () => {
  it('cancels the selected messages: preview, start with the listed count, summary', () => {
    const main = fakeMain();
    renderScreen(main, { profile: stagingProfile(), selected: ['msg_a', 'msg_b'], matching: 'all' });
    expect(main.opened).toEqual([]);
    fireEvent.click(button('Cancel selected…'));
    expect(main.opened).toMatchObject([
      {
        name: 'messages.logs.job',
        input: {
          profileId: 'p1',
          target: { ids: ['msg_a', 'msg_b'] },
          description: 'the 2 selected messages',
        },
      },
    ]);
    main.send(listed(2));
    expect(screen.getByTestId('bulk-count').textContent).toBe('2 pending messages');
    fireEvent.click(button('Cancel 2 pending messages'));
    expect(main.opened[0]!.started).toEqual([{}, 2]);
    main.send(
      { type: 'started', jobId: 'j1', total: 2 },
      { type: 'progress', total: 2, processed: 2, succeeded: 1, failed: 0 },
      {
        type: 'done',
        summary: {
          jobId: 'j1',
          action: 'cancel',
          status: 'done',
          total: 2,
          processed: 2,
          succeeded: 1,
          skipped: 1,
          failed: 0,
          failures: [],
          created: [],
        },
      },
    );
    expect(screen.getByTestId('bulk-summary').textContent).toMatch(/1 of 2 cancelled\..*1 were already gone/);
  });

  it('"all" only with no filter set, and only after typing "all"; going back closes the job', () => {
    const main = fakeMain();
    renderScreen(main, { profile: stagingProfile(), matching: 'all' });
    expect(button('Cancel selected…').disabled).toBe(true);
    fireEvent.click(button('Cancel all pending…'));
    expect(main.opened[0]!.input).toMatchObject({ target: { all: true } });
    main.send(listed(7));
    const start = button('Cancel 7 pending messages');
    expect(start.disabled).toBe(true);
    fireEvent.change(screen.getByRole('textbox', { name: /type all to confirm/i }), {
      target: { value: 'all' },
    });
    expect(start.disabled).toBe(false);
    fireEvent.click(button('Go back'));
    expect(main.opened[0]!.closed).toBe(true);
    expect(main.opened[0]!.started).toBeUndefined();
  });

  it('by filter: the filters cancel understands; with only other filters set the action is off', () => {
    const main = fakeMain();
    const view = renderScreen(main, {
      profile: stagingProfile(),
      matching: { filters: { label: ['nightly'] }, text: 'label nightly' },
    });
    fireEvent.click(button('Cancel matching…'));
    expect(main.opened[0]!.input).toMatchObject({
      target: { filters: { label: ['nightly'] } },
      description: 'every pending message matching label nightly',
    });
    view.unmount();

    renderScreen(main, { profile: stagingProfile(), matching: { off: 'the state filter does not apply' } });
    expect(button('Cancel matching…').disabled).toBe(true);
    expect(button('Cancel matching…').title).toBe('the state filter does not apply');
  });

  it('a production profile asks for its name before any cancel starts', () => {
    const main = fakeMain();
    const profile = stagingProfile({ env: 'prod', name: 'Payments prod', confirmDangerous: true });
    renderScreen(main, { profile, selected: ['msg_a'], matching: 'all' });
    fireEvent.click(button('Cancel selected…'));
    expect(screen.getByRole('dialog', { name: 'Cancel this message' })).toBeTruthy();
    main.send(listed(1));
    const start = button('Cancel 1 pending message');
    const field = screen.getByRole('textbox', { name: /production profile: type payments prod to confirm/i });
    fireEvent.change(field, { target: { value: 'payments' } });
    expect(start.disabled).toBe(true);
    fireEvent.change(field, { target: { value: 'Payments prod' } });
    expect(start.disabled).toBe(false);
    fireEvent.click(start);
    expect(main.opened[0]!.started).toEqual([{}, 1]);
  });
});
