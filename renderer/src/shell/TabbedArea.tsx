// An area made of tabs (Messages, Workflows, KV): the header, the tab strip and the current tab, each tab
// a lazily loaded module. Route: #/<area>/<tab>/<param…>; no or an unknown tab shows the first one.
import { type ComponentType, Suspense } from 'react';
import { Spinner } from '../ui/misc';
import { type TabbedAreaId, type TabIdOf, tabLabel } from './area-tabs';
import { lazyWithPreload, type PreloadableComponent, whenIdle } from './lazy';
import { type AreaId, useNav } from './nav';
import { PageHeader } from './PageHeader';

export interface AreaTab {
  id: string;
  label: string;
  component: PreloadableComponent<{ params: string[] }>;
}

/** One tab of an area (its label from area-tabs.ts); its module loads when first shown or preloaded. */
export function areaTab<A extends TabbedAreaId>(
  area: A,
  id: TabIdOf<A>,
  load: () => Promise<{ default: ComponentType<{ params: string[] }> }>,
): AreaTab {
  return { id, label: tabLabel(area, id), component: lazyWithPreload(load) };
}

/**
 * An area's screen (its module's default export): the tabs under the area's header. The first tab is
 * what people open most: it starts loading with the area's code (the shell preloads areas while idle),
 * so the first open renders at once. The other tabs load once the browser is idle after it, and a click on a
 * tab whose chunk is still missing waits for it with the current tab up: a tab whose chunk is missing when it
 * renders shows the Suspense fallback, and React then holds the tab back until that fallback has been up for
 * 300 ms (its reveal throttle) — most of the key browser's first, cold open.
 */
export function tabbedArea(props: {
  area: AreaId;
  title: string;
  subtitle: string;
  tabs: readonly [AreaTab, ...AreaTab[]];
}) {
  void props.tabs[0].component.preload().then(() =>
    whenIdle(() => {
      for (const tab of props.tabs) void tab.component.preload();
    }),
  );
  return function Area({ params }: { params: string[] }) {
    return <TabbedArea {...props} params={params} />;
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
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <div className="tabs" role="tablist" aria-label={title}>
        {tabs.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={candidate.id === tab.id}
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
        <Tab params={rest} />
      </Suspense>
    </>
  );
}
