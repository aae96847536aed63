// An area made of tabs (Messages, Workflows, KV): the header, the tab strip and the current tab, each tab
// a lazily loaded module. Route: #/<area>/<tab>/<param…>; no or an unknown tab shows the first one.
import { type ComponentType, Suspense, useMemo } from 'react';
import { Spinner } from '../ui/misc';
import { AREA_TABS, type TabbedAreaId, type TabIdOf } from './area-tabs';
import { areaById } from './areas';
import { lazyWithPreload, type PreloadableComponent, whenIdle } from './lazy';
import { type AreaId, useNav } from './nav';
import { PageHeader } from './PageHeader';
import { ScreenRouteContext } from './screen-route';

export interface AreaTab {
  id: string;
  label: string;
  /** A page shown under another tab of the strip (it has no tab of its own). */
  under?: string;
  component: PreloadableComponent<{ params: string[] }>;
}

/** A tab's lazily loaded module. */
export type TabModule = () => Promise<{ default: ComponentType<{ params: string[] }> }>;

/**
 * An area's screen (its module's default export): the tabs under the area's header, in the order and with
 * the labels of area-tabs.ts, each from its module in `modules` (the compiler checks that every tab has
 * one); the title is the area's name in the sidebar. The first tab is
 * what people open most: it starts loading with the area's code (the shell preloads areas while idle),
 * so the first open renders at once. The other tabs load once the browser is idle after it, and a click on a
 * tab whose chunk is still missing waits for it with the current tab up: a tab whose chunk is missing when it
 * renders shows the Suspense fallback, and React then holds the tab back until that fallback has been up for
 * 300 ms (its reveal throttle) — most of the key browser's first, cold open.
 */
export function tabbedArea<A extends TabbedAreaId>(
  area: A,
  subtitle: string,
  modules: Record<TabIdOf<A>, TabModule>,
) {
  const listed: readonly { id: TabIdOf<A>; label: string; under?: string }[] = AREA_TABS[area];
  const [first, ...others] = listed.map(({ id, label, under }): AreaTab => ({
    id,
    label,
    ...(under ? { under } : {}),
    component: lazyWithPreload(modules[id]),
  }));
  const tabs: [AreaTab, ...AreaTab[]] = [first!, ...others];
  const title = areaById(area).label;
  void first!.component.preload().then(() =>
    whenIdle(() => {
      for (const tab of tabs) void tab.component.preload();
    }),
  );
  return function Area({ params }: { params: string[] }) {
    return <TabbedArea area={area} title={title} subtitle={subtitle} tabs={tabs} params={params} />;
  };
}

export function TabbedArea({
  area,
  title,
  subtitle,
  tabs,
  params,
}: {
  area: AreaId;
  title: string;
  subtitle: string;
  tabs: readonly [AreaTab, ...AreaTab[]];
  params: string[];
}) {
  const navigate = useNav((state) => state.navigate);
  const [tabId, ...rest] = params;
  const tab = tabs.find((candidate) => candidate.id === tabId) ?? tabs[0];
  const Tab = tab.component;
  const screen = useMemo(() => ({ area, params: [tab.id] }), [area, tab.id]);
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <div className="tabs" role="tablist" aria-label={title}>
        {tabs
          .filter((candidate) => !candidate.under)
          .map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              role="tab"
              className="tab"
              aria-selected={candidate.id === (tab.under ?? tab.id)}
              onClick={() => {
                // The current tab stays up until the new tab's code is there, so a click never shows the
                // Suspense fallback (and React's 300 ms reveal throttle) when the idle preload has not run yet.
                const open = () => navigate(area, candidate.id);
                candidate.component.preload().then(open, open);
              }}
            >
              {candidate.label}
            </button>
          ))}
      </div>
      <Suspense
        fallback={
          <div className="page-body">
            <Spinner />
          </div>
        }
      >
        <ScreenRouteContext.Provider value={screen}>
          <Tab params={rest} />
        </ScreenRouteContext.Provider>
      </Suspense>
    </>
  );
}
