// What a screen shows before its body: the service gate (default) waits for the local stack and the
// profile's URL and token; the profile gate (screens that edit drafts) waits only for an active profile.
import { fireEvent, render, screen } from '@testing-library/react';
import { useContext, useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { StackStatus } from '../../../shared/stack-status';
import { stagingProfile, UNSET_SECRET } from '../test-support/profiles';
import { ServiceGate } from './ServiceGate';
import { ServiceAccessContext } from './service-access';

const starting = { state: 'starting' } as StackStatus;
const ready = { state: 'ready' } as StackStatus;
const failed = { state: 'failed', message: 'The local stack exited (signal SIGKILL).' } as StackStatus;
const local = stagingProfile({ id: 'local', name: 'Local' });
const noToken = stagingProfile({
  secrets: { ...stagingProfile().secrets, messageToken: UNSET_SECRET },
});

function Body() {
  const access = useContext(ServiceAccessContext);
  return <p data-testid="body">{`body for ${access?.profile.name} (${access?.service})`}</p>;
}

describe('ServiceGate', () => {
  it('waits for the local stack and for a message token before a service screen', () => {
    const { rerender } = render(
      <ServiceGate profile={local} stack={starting}>
        {() => <Body />}
      </ServiceGate>,
    );
    expect(screen.getByText('Starting the local stack…')).toBeTruthy();
    expect(screen.queryByTestId('body')).toBeNull();

    rerender(
      <ServiceGate profile={noToken} stack={starting}>
        {() => <Body />}
      </ServiceGate>,
    );
    expect(screen.getByText('Profile “Staging” cannot reach the message API yet.')).toBeTruthy();
    expect(screen.queryByTestId('body')).toBeNull();
  });

  it('with needsService={false}, shows the body once a profile is active, stack starting or no token', () => {
    const { rerender } = render(
      <ServiceGate profile={undefined} stack={starting} needsService={false}>
        {() => <Body />}
      </ServiceGate>,
    );
    expect(screen.queryByTestId('body')).toBeNull();

    rerender(
      <ServiceGate profile={local} stack={starting} needsService={false}>
        {() => <Body />}
      </ServiceGate>,
    );
    expect(screen.getByTestId('body').textContent).toBe('body for Local (messages)');

    rerender(
      <ServiceGate profile={noToken} stack={starting} needsService={false}>
        {() => <Body />}
      </ServiceGate>,
    );
    expect(screen.getByTestId('body').textContent).toBe('body for Staging (messages)');
    expect(screen.queryByText(/cannot reach the message API/)).toBeNull();
  });

  it('hides a shown screen while the local stack restarts and brings it back as the user left it', () => {
    const effects: string[] = [];
    function Typing() {
      const [text, setText] = useState('');
      useEffect(() => {
        effects.push('open');
        return () => void effects.push('close');
      }, []);
      return <input aria-label="Command" value={text} onChange={(event) => setText(event.target.value)} />;
    }
    const gate = (stack: StackStatus) => (
      <ServiceGate profile={local} stack={stack}>
        {() => <Typing />}
      </ServiceGate>
    );
    const { rerender } = render(gate(ready));
    fireEvent.change(screen.getByLabelText('Command'), { target: { value: 'SET half written' } });
    expect(effects).toEqual(['open']);

    // The stack exits: the gate says so, the screen is hidden and its effects (streams, polling) stop.
    rerender(gate(failed));
    expect(screen.getByText('The local stack is not running.')).toBeTruthy();
    expect(screen.getByLabelText('Command').closest('[hidden], [style*="none"]')).not.toBeNull();
    expect(effects).toEqual(['open', 'close']);

    // It runs again: the same screen, with what the user typed, and its effects open again.
    rerender(gate(starting));
    rerender(gate(ready));
    expect(screen.queryByText(/local stack/)).toBeNull();
    expect((screen.getByLabelText('Command') as HTMLInputElement).value).toBe('SET half written');
    expect(effects).toEqual(['open', 'close', 'open']);
  });
});
