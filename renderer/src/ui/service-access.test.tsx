// Which errors say "edit the profile, test the connection", and where that help shows: only inside a
// service screen (ServiceAccessContext), only for a refused, forbidden or missing token.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/bridge/errors';
import { BridgeClient } from '../bridge/client';
import { BridgeProvider } from '../bridge/react';
import type { Transport } from '../bridge/transport';
import { ErrorCallout } from './ErrorCallout';
import { ListToolbar } from './list/ListToolbar';
import { accessProblem, ServiceAccessContext } from './service-access';

const transport: Transport = {
  call: () => Promise.reject(new Error('no calls here')),
  open: () => () => {},
  job: () => {
    throw new Error('no jobs here');
  },
  onConnection: () => () => {},
};

const refused = new BridgeError({ code: 'SERVICE_ERROR', status: 401, message: 'invalid token' });

function renderInScreen(error: unknown) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <BridgeProvider client={new BridgeClient(transport)}>
        <ServiceAccessContext.Provider value={{ profile: { id: 'p1', name: 'Prod EU' }, service: 'kv' }}>
          <ErrorCallout error={error} title="Could not load." />
        </ServiceAccessContext.Provider>
      </BridgeProvider>
    </QueryClientProvider>,
  );
}

describe('service access errors', () => {
  it('are 401, 403 and a missing token — not a 500 or an unreachable host', () => {
    expect(accessProblem(refused)).toBe('refused');
    expect(accessProblem({ code: 'SERVICE_ERROR', status: 403, message: 'NOPERM' })).toBe('forbidden');
    expect(accessProblem({ code: 'NOT_CONFIGURED', message: 'no token' })).toBe('missing');
    expect(accessProblem({ code: 'SERVICE_ERROR', status: 500, message: 'boom' })).toBeUndefined();
    expect(accessProblem({ code: 'UNREACHABLE', message: 'ECONNREFUSED' })).toBeUndefined();
    expect(accessProblem('text')).toBeUndefined();
  });

  it('show the service’s text, then what to do, with a link to the profile', () => {
    renderInScreen(refused);
    expect(screen.getByText('invalid token')).toBeTruthy();
    expect(screen.getByTestId('access-help').textContent).toContain(
      'The service refused the KV token of profile “Prod EU”',
    );
    expect(screen.getByRole('link', { name: 'Edit profile' }).getAttribute('href')).toBe('#/profiles/p1');
    expect(screen.getByRole('button', { name: 'Test connection' })).toBeTruthy();
  });

  it('other errors show no access help; a failure on the service’s side says so, and to try again', () => {
    renderInScreen({ code: 'SERVICE_ERROR', status: 500, message: 'boom' });
    expect(screen.getByRole('alert').textContent).toBe(
      'Could not load. boom (HTTP 500: the service failed on its side — try again in a moment.)',
    );
    expect(screen.queryByTestId('access-help')).toBeNull();
  });

  it('a failed list’s toolbar says "Not loaded" and hides its counts', () => {
    render(
      <ListToolbar
        failed
        lead={<span>Running 0</span>}
        testId="summary"
        refreshing={false}
        onRefresh={() => {}}
      />,
    );
    expect(screen.getByTestId('summary').textContent).toBe('Not loaded');
    expect(screen.queryByText('Running 0')).toBeNull();
  });
});
