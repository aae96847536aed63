// An area made of tabs (Messages, Workflows, KV): the header, the tab strip and the current tab, each tab
// a lazily loaded module. Route: #/<area>/<tab>/<param…>; no or an unknown tab shows the first one.
import { type ComponentType, Suspense } from 'react';
import { Spinner } from '../ui/misc';
import { type AreaId, useNav } from './nav';
import { PageHeader } from './PageHeader';

export interface AreaTab {
  id: string;
  label: string;
  component: ComponentType<{ params: string[] }>;
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
