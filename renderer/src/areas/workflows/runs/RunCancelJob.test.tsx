// The run list's cancel actions as the list stands: the second action is "Cancel matching…" with filters
// and "Cancel all active…" without, and a text search turns it off and says why (the cancel goes by the
// filters, not by the search). What each action opens is e2e/workflows-jobs.spec.ts's.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stagingProfile } from '../../../test-support/profiles';
import { RunCancelActions } from './RunCancelJob';

const SEARCH_FIRST = 'Clear the search first: this cancels by the filters, not by the search';
const MATCHING = 'Every active run the filters match, also ones not loaded';
const doomed = { label: ['doomed'] };

describe('the run list cancel actions', () => {
  it.each([
    { filters: {}, searching: false, label: 'Cancel all active…', title: 'Every active run', on: true },
    { filters: doomed, searching: false, label: 'Cancel matching…', title: MATCHING, on: true },
    { filters: {}, searching: true, label: 'Cancel all active…', title: SEARCH_FIRST, on: false },
    { filters: doomed, searching: true, label: 'Cancel matching…', title: SEARCH_FIRST, on: false },
  ])('$label (searching: $searching)', ({ filters, searching, label, title, on }) => {
    const profile = stagingProfile();
    render(
      <RunCancelActions
        profile={profile}
        selected={[]}
        filters={filters}
        searching={searching}
        onEnded={() => {}}
      />,
    );
    const action = screen.getByRole('button', { name: label }) as HTMLButtonElement;
    expect(action.disabled).toBe(!on);
    expect(action.title).toBe(title);
    const selected = screen.getByRole('button', { name: 'Cancel selected…' }) as HTMLButtonElement;
    expect(selected.disabled).toBe(true);
    expect(selected.title).toBe('Check active runs in the list');
  });
});
