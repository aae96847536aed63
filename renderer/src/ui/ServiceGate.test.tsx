// What a screen shows before its body: the service gate (default) waits for the local stack and the
// profile's URL and token; the profile gate (screens that edit drafts) waits only for an active profile.
import { render, screen } from '@testing-library/react';
import { useContext } from 'react';
import { describe, expect, it } from 'vitest';
import type { StackStatus } from '../../../shared/stack-status';
import { stagingProfile, UNSET_SECRET } from '../test-support/profiles';
import { ServiceGate } from './ServiceGate';
import { ServiceAccessContext } from './service-access';

const starting = { state: 'starting' } as StackStatus;
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
});
