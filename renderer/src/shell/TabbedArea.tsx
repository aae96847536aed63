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
  component: ComponentType<{ params: string[] }>;
}

/** One tab of an area (its label from area-tabs.ts); its module loads when first shown or preloaded. */
export function areaTab<A extends TabbedAreaId>(
  area: A,
  id: TabIdOf<A>,
  load: () => Promise<{ default: ComponentType<{ params: string[] }> }>,
): AreaTab & { component: PreloadableComponent<{ params: string[] }> } {
  return { id, label: tabLabel(area, id), component: lazyWithPreload(load) };
}

/**
 * An area's screen (its module's default export): the tabs under the area's header. The first tab is
 * what people open most: it starts loading with the area's code (the shell preloads areas while idle),
 * so the first open renders at once. The other tabs load once the browser is idle after it: a tab whose
 * chunk is still missing shows the Suspense fallback, and React then holds the tab back until that
 * fallback has been up for 300 ms (its reveal throttle) — most of the key browser's first, cold open.
 */
export function tabbedArea(props: {
  area: AreaId;
  title: string;
  subtitle: string;
  tabs: readonly [ReturnType<typeof areaTab>, ...ReturnType<typeof areaTab>[]];
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
            onClick={() => navigate(area, candidate.id)}
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
