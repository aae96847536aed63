// Run now against a cloud profile: the button says why it is off (the cloud has no clock and no way to run a
// waiting item early) and never asks main for anything — main refuses it too (services/stack-clock/).
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stagingProfile } from '../test-support/profiles';
import { LOCAL_ONLY_TITLE, RunNowButton } from './RunNow';

const cloud = stagingProfile({ id: 'p-cloud' });

describe('Run now on a cloud profile', () => {
  it('is off, with the reason as its title, where the item is known to wait', () => {
    render(<RunNowButton profile={cloud} item={{ kind: 'message', messageId: 'msg_1' }} waiting />);
    const button = screen.getByTestId('run-now');
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('title')).toBe(LOCAL_ONLY_TITLE);
    expect(LOCAL_ONLY_TITLE).toMatch(/Local stack only/);
  });

  it('is not shown where nothing is known to wait', () => {
    render(<RunNowButton profile={cloud} item={{ kind: 'workflowRun', workflowRunId: 'wfr_1' }} />);
    expect(screen.queryByTestId('run-now')).toBeNull();
  });
});
