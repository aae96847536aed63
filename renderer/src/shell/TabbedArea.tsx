// An area made of tabs (Messages, Workflows, KV): the header, the tab strip and the current tab, each tab
// a lazily loaded module. Route: #/<area>/<tab>/<param…>; no or an unknown tab shows the first one.
import { type ComponentType, type KeyboardEvent, Suspense, useMemo } from 'react';
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
  const current = tab.under ?? tab.id;
  const tabElementId = (id: string) => `tab-${area}-${id}`;
  const panelId = `tabpanel-${area}`;
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <div className="tabs" role="tablist" aria-label={title} onKeyDown={onTabStripKeys}>
        {tabs
          .filter((candidate) => !candidate.under)
          .map((candidate) => (
            <button
              key={candidate.id}
              id={tabElementId(candidate.id)}
              type="button"
              role="tab"
              className="tab"
              aria-selected={candidate.id === current}
              aria-controls={panelId}
              // One stop in the Tab order (the current tab); the arrow keys walk the strip (onTabStripKeys).
              tabIndex={candidate.id === current ? 0 : -1}
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
      <div className="tab-panel" role="tabpanel" id={panelId} aria-labelledby={tabElementId(current)}>
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
      </div>
    </>
  );
}

/**
 * The keys of a tab strip (the WAI-ARIA tabs pattern, activated by hand): Left and Right move the focus to
 * the previous or next tab, round the ends, Home and End to the first and last; Enter or Space opens the
 * focused tab (it is a button). Opening is left to the keys that say so because a tab may load its code first.
 */
export function onTabStripKeys(event: KeyboardEvent<HTMLElement>) {
  const strip = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
  const at = strip.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  const to =
    event.key === 'ArrowRight'
      ? (at + 1) % strip.length
      : event.key === 'ArrowLeft'
        ? (at - 1 + strip.length) % strip.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? strip.length - 1
            : -1;
  if (to < 0) return;
  event.preventDefault();
  strip[to]!.focus();
}
