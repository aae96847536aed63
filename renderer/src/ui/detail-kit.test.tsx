// The detail-panel kit: facts a record lacks are left out, in-app links stay in the page.
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Fact } from './Fact';
import { InAppLink } from './InAppLink';

describe('Fact', () => {
  it('lists a value, 0 included, and leaves out what the record does not have', () => {
    const { container } = render(
      <dl>
        <Fact label="Queue" value="orders" />
        <Fact label="Retries" value={0} />
        <Fact label="Callback" mono value={undefined} />
        <Fact label="Labels" value="" />
        <Fact label="Invoked by">{null}</Fact>
        <Fact label="Created">
          <span>today</span>
        </Fact>
      </dl>,
    );
    expect([...container.querySelectorAll('dt')].map((dt) => dt.textContent)).toEqual([
      'Queue',
      'Retries',
      'Created',
    ]);
    expect(screen.getByText('0').tagName).toBe('DD');
  });

  it('sets the value in monospace when asked', () => {
    render(
      <dl>
        <Fact label="URL" mono value="http://x" />
      </dl>,
    );
    expect(screen.getByText('http://x').className).toBe('mono');
  });
});

describe('InAppLink', () => {
  it('keeps its route as href and opens in the page on click', () => {
    const onOpen = vi.fn();
    render(
      <InAppLink href="#/workflows/runs" onOpen={onOpen}>
        open
      </InAppLink>,
    );
    const link = screen.getByRole('link', { name: 'open' });
    expect(link.getAttribute('href')).toBe('#/workflows/runs');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    fireEvent(link, click);
    expect(onOpen).toHaveBeenCalledTimes(1);
    expect(click.defaultPrevented).toBe(true);
  });
});
