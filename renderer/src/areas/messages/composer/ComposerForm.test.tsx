// The form's rules are shown where each option is set, and follow what the user types.
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { type ComposerModel, emptyComposer } from '../../../../../shared/composer/model';
import { validateComposer } from '../../../../../shared/composer/validate';
import { ComposerForm } from './ComposerForm';

const NOW = Date.UTC(2026, 0, 1);

function Harness({ initial, showAll = false }: { initial: ComposerModel; showAll?: boolean }) {
  const [model, setModel] = useState(initial);
  return (
    <ComposerForm
      model={model}
      onChange={setModel}
      validation={validateComposer(model, NOW)}
      showAll={showAll}
      profileId="local"
    />
  );
}

describe('ComposerForm', () => {
  it('retries: the default and "up to 1 + N deliveries" follow the value', () => {
    render(<Harness initial={emptyComposer({ url: 'https://e.io' })} />);
    expect(screen.getByText('Default 3: up to 1 + 3 = 4 deliveries.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Retries', { exact: true }), { target: { value: '0' } });
    expect(screen.getByText('Up to 1 + 0 = 1 delivery; then the message goes to the DLQ.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Retries', { exact: true }), { target: { value: '101' } });
    expect(screen.getByText('a whole number from 0 to 100')).toBeTruthy();
  });

  it('retry delay: the default backoff when empty, the expression’s times when typed, its error when wrong', () => {
    render(<Harness initial={emptyComposer({ url: 'https://e.io' })} />);
    const preview = screen.getByTestId('retry-preview');
    expect(preview.textContent).toBe('Default backoff:#1 12s#2 2m28s#3 30m8s');
    const field = screen.getByLabelText('Retry delay expression', { exact: true });
    fireEvent.change(field, { target: { value: '500 * (1 + retried)' } });
    expect(screen.getByTestId('retry-preview').textContent).toBe('Retries after:#1 500ms#2 1s#3 1.5s');
    fireEvent.change(field, { target: { value: 'pow(2,' } });
    expect(screen.getByText('expression ends too early')).toBeTruthy();
  });

  it('delay and earliest time: the unit rule, and that the earliest time wins', () => {
    render(<Harness initial={emptyComposer({ url: 'https://e.io', notBefore: NOW / 1000 + 3600 })} />);
    expect(
      screen.getByText(
        /Sent as Upstash-Not-Before: 1767229200 \(2026-01-01 01:00:00 UTC\)\. Wins over the delay\./,
      ),
    ).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Delay', { exact: true }), { target: { value: '10s' } });
    expect(screen.getByText('an earliest time is set: it wins, and this delay is ignored')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Delay', { exact: true }), { target: { value: '10' } });
    expect(screen.getByText(/missing unit after '10'/)).toBeTruthy();
  });

  it('api/llm: POST only, and the callback becomes required', () => {
    render(<Harness initial={emptyComposer({ destinationKind: 'llm' })} showAll />);
    expect((screen.getByLabelText('Method', { exact: true }) as HTMLSelectElement).disabled).toBe(true);
    expect(screen.getByText('Callback (required)')).toBeTruthy();
    expect(screen.getByText(/api\/llm needs a callback/)).toBeTruthy();
  });

  it('"is empty" errors wait for a send attempt; others show at once', () => {
    const { unmount } = render(<Harness initial={emptyComposer({ url: '' })} />);
    expect(screen.queryByText('destination URL is empty')).toBeNull();
    unmount();
    render(<Harness initial={emptyComposer({ url: '' })} showAll />);
    expect(screen.getByText('destination URL is empty')).toBeTruthy();
  });

  it('an empty JSON body: no warning on a fresh form, shown once the body was left or a send tried', () => {
    const empty = /^empty, while Content-Type says application\/json/;
    const fresh = render(<Harness initial={emptyComposer({ url: 'https://e.io' })} />);
    expect(screen.queryByText(empty)).toBeNull();
    expect(document.querySelector('.body-field.has-warning')).toBeNull();
    fireEvent.focusOut(document.querySelector('.body-field')!);
    expect(screen.getByText(empty)).toBeTruthy();
    expect(document.querySelector('.body-field.has-warning')).not.toBeNull();
    fresh.unmount();

    render(<Harness initial={emptyComposer({ url: 'https://e.io' })} showAll />);
    expect(screen.getByText(empty)).toBeTruthy();
  });
});
