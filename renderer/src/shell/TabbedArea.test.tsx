// A click on a tab whose code has not loaded yet keeps the current tab up until it has, then shows the new
// tab at once: no Suspense fallback, so React's 300 ms reveal throttle never delays a first tab open.
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { expect, it } from 'vitest';
import { lazyWithPreload } from './lazy';
import { useNav } from './nav';
import { type AreaTab, TabbedArea } from './TabbedArea';

type TabModule = { default: ComponentType<{ params: string[] }> };

it('keeps the current tab up while the clicked tab loads, then shows it without a fallback', async () => {
  const first: AreaTab = {
    id: 'one',
    label: 'One',
    component: lazyWithPreload(async () => ({ default: () => <p>first tab</p> })),
  };
  await first.component.preload();
  let finishLoading: (module: TabModule) => void = () => {};
  const second: AreaTab = {
    id: 'two',
    label: 'Two',
    component: lazyWithPreload(() => new Promise<TabModule>((resolve) => (finishLoading = resolve))),
  };
  function Harness() {
    const params = useNav((state) => state.route.params);
    return <TabbedArea area="kv" title="KV" subtitle="" tabs={[first, second]} params={params} />;
  }
  act(() => useNav.getState().navigate('kv', 'one'));
  render(<Harness />);
  expect(screen.getByText('first tab')).toBeTruthy();

  fireEvent.click(screen.getByRole('tab', { name: 'Two' }));
  // Still loading: the first tab stays, nothing suspends.
  expect(screen.getByText('first tab')).toBeTruthy();
  expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
  expect(useNav.getState().route.params).toEqual(['one']);

  await act(async () => finishLoading({ default: () => <p>second tab</p> }));
  expect(screen.getByText('second tab')).toBeTruthy();
  expect(screen.queryByText('first tab')).toBeNull();
  expect(screen.getByRole('tab', { name: 'Two' }).getAttribute('aria-selected')).toBe('true');
  expect(useNav.getState().route.params).toEqual(['two']);
});

it('is one stop of the Tab order; the arrows, Home and End move the focus along the strip, opening nothing', async () => {
  const tab = (id: string, label: string): AreaTab => ({
    id,
    label,
    component: lazyWithPreload(async () => ({ default: () => <p>{label} tab</p> })),
  });
  const tabs: [AreaTab, ...AreaTab[]] = [tab('one', 'One'), tab('two', 'Two'), tab('three', 'Three')];
  await Promise.all(tabs.map((candidate) => candidate.component.preload()));
  function Harness() {
    const params = useNav((state) => state.route.params);
    return <TabbedArea area="kv" title="KV" subtitle="" tabs={tabs} params={params} />;
  }
  act(() => useNav.getState().navigate('kv', 'two'));
  render(<Harness />);
  const byName = (name: string) => screen.getByRole('tab', { name });
  expect(['One', 'Two', 'Three'].map((name) => byName(name).tabIndex)).toEqual([-1, 0, -1]);
  expect(screen.getByRole('tabpanel', { name: 'Two' }).textContent).toBe('Two tab');

  const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
  byName('Two').focus();
  press('ArrowRight');
  expect(document.activeElement).toBe(byName('Three'));
  press('ArrowRight');
  expect(document.activeElement).toBe(byName('One'));
  press('ArrowLeft');
  expect(document.activeElement).toBe(byName('Three'));
  press('Home');
  expect(document.activeElement).toBe(byName('One'));
  press('End');
  expect(document.activeElement).toBe(byName('Three'));
  // Moving the focus opens nothing.
  expect(useNav.getState().route.params).toEqual(['two']);
  await act(async () => fireEvent.click(byName('Three')));
  expect(useNav.getState().route.params).toEqual(['three']);
  expect(['One', 'Two', 'Three'].map((name) => byName(name).tabIndex)).toEqual([-1, -1, 0]);
});
