// The KV area: one tab per job. Route: #/kv/<tab>/<param…>, e.g. #/kv/keys/user%3A1. Each tab is its own
// lazily loaded module, so opening the workbench does not load the key browser.
import { tabLabel } from '../../shell/area-tabs';
import { lazyWithPreload } from '../../shell/lazy';
import { type AreaTab, TabbedArea } from '../../shell/TabbedArea';

export const KV_TABS = [
  {
    id: 'workbench',
    label: tabLabel('kv', 'workbench'),
    component: lazyWithPreload(() => import('./workbench/WorkbenchTab')),
  },
  { id: 'keys', label: tabLabel('kv', 'keys'), component: lazyWithPreload(() => import('./keys/KeysTab')) },
  {
    id: 'monitor',
    label: tabLabel('kv', 'monitor'),
    component: lazyWithPreload(() => import('./monitor/MonitorTab')),
  },
  {
    id: 'pubsub',
    label: tabLabel('kv', 'pubsub'),
    component: lazyWithPreload(() => import('./pubsub/PubSubTab')),
  },
] as const satisfies readonly [AreaTab, ...AreaTab[]];

void KV_TABS[0].component.preload();

export default function KvArea({ params }: { params: string[] }) {
  return (
    <TabbedArea
      area="kv"
      title="KV"
      subtitle="Commands, keys and live traffic of the key-value store"
      tabs={KV_TABS}
      params={params}
    />
  );
}
