// A list screen opens a row below its own address and its detail panel's close button goes back there:
// the tab's address inside a tabbed area, the area's own address for an area without tabs.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { DetailPanelHeader } from '../ui/DetailPanelHeader';
import { lazyWithPreload } from './lazy';
import { formatHash, useNav } from './nav';
import { useScreenRoute } from './screen-route';
import { type AreaTab, TabbedArea } from './TabbedArea';

afterEach(cleanup);

function ListScreen({ params }: { params: string[] }) {
  const route = useScreenRoute();
  return (
    <>
      <button type="button" onClick={() => route.open('row-7', '123')}>
        open row
      </button>
      {params[0] ? <DetailPanelHeader id={params[0]} /> : null}
    </>
  );
}

it('opens a row below the tab and closes its panel back to the tab', async () => {
  const tab: AreaTab = {
    id: 'runs',
    label: 'Runs',
    component: lazyWithPreload(async () => ({ default: ListScreen })),
  };
  const other: AreaTab = { id: 'compare', label: 'Compare', component: tab.component };
  await tab.component.preload();
  function Harness() {
    const params = useNav((state) => state.route.params);
    return <TabbedArea area="workflows" title="Workflows" subtitle="" tabs={[other, tab]} params={params} />;
  }
  act(() => useNav.getState().navigate('workflows', 'runs'));
  render(<Harness />);

  fireEvent.click(screen.getByRole('button', { name: 'open row' }));
  expect(formatHash(useNav.getState().route)).toBe('#/workflows/runs/row-7/123');
  expect(screen.getByText('row-7')).toBeTruthy();

  fireEvent.click(screen.getByRole('button', { name: 'Close detail' }));
  expect(formatHash(useNav.getState().route)).toBe('#/workflows/runs');
  expect(screen.queryByText('row-7')).toBeNull();
});

it('uses the area as the screen where the area has no tabs', () => {
  function Area() {
    const params = useNav((state) => state.route.params);
    return <ListScreen params={params} />;
  }
  act(() => useNav.getState().navigate('dlq'));
  render(<Area />);

  fireEvent.click(screen.getByRole('button', { name: 'open row' }));
  expect(formatHash(useNav.getState().route)).toBe('#/dlq/row-7/123');
  fireEvent.click(screen.getByRole('button', { name: 'Close detail' }));
  expect(formatHash(useNav.getState().route)).toBe('#/dlq');
});

it('leaves a panel that says where its close button goes to it', () => {
  const closed: string[] = [];
  act(() => useNav.getState().navigate('workflows', 'run', 'wfr_1'));
  render(<DetailPanelHeader id="wfr_1" closeLabel="Back to the runs" onClose={() => closed.push('own')} />);
  fireEvent.click(screen.getByRole('button', { name: 'Back to the runs' }));
  expect(closed).toEqual(['own']);
  expect(formatHash(useNav.getState().route)).toBe('#/workflows/run/wfr_1');
});
