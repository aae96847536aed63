// The KV area: one tab per job. Route: #/kv/<tab>/<param…>, e.g. #/kv/keys/user%3A1. Each tab is its own
// lazily loaded module, so opening the workbench does not load the key browser.
import { type ComponentType, Suspense } from 'react';
import { lazyWithPreload } from '../../shell/lazy';
import { useNav } from '../../shell/nav';
import { PageHeader } from '../../shell/PageHeader';
import { Spinner } from '../../ui/misc';

export const KV_TABS = [
  {
    id: 'workbench',
    label: 'Workbench',
    component: lazyWithPreload(() => import('./workbench/WorkbenchTab')),
  },
  { id: 'keys', label: 'Keys', component: lazyWithPreload(() => import('./keys/KeysTab')) },
  { id: 'monitor', label: 'Monitor', component: lazyWithPreload(() => import('./monitor/MonitorTab')) },
  { id: 'pubsub', label: 'Pub/Sub', component: lazyWithPreload(() => import('./pubsub/PubSubTab')) },
] as const satisfies readonly { id: string; label: string; component: ComponentType<{ params: string[] }> }[];

void KV_TABS[0].component.preload();

export default function KvArea({ params }: { params: string[] }) {
  const navigate = useNav((state) => state.navigate);
  const [tabId = 'workbench', ...rest] = params;
  const tab = KV_TABS.find((candidate) => candidate.id === tabId) ?? KV_TABS[0];
  const Tab = tab.component;
  return (
    <>
      <PageHeader title="KV" subtitle="Commands, keys and live traffic of the key-value store" />
      <div className="tabs" role="tablist" aria-label="KV">
        {KV_TABS.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={candidate.id === tab.id}
            onClick={() => navigate('kv', candidate.id)}
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
