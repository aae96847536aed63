// The KV area: one tab per job. Route: #/kv/<tab>/<param…>, e.g. #/kv/keys/user%3A1. Each tab is its own
// lazily loaded module, so opening the workbench does not load the key browser.
import { areaTab, tabbedArea } from '../../shell/TabbedArea';

export default tabbedArea({
  area: 'kv',
  title: 'KV',
  subtitle: 'Commands, keys and live traffic of the key-value store',
  tabs: [
    areaTab('kv', 'workbench', () => import('./workbench/WorkbenchTab')),
    areaTab('kv', 'keys', () => import('./keys/KeysTab')),
    areaTab('kv', 'monitor', () => import('./monitor/MonitorTab')),
    areaTab('kv', 'pubsub', () => import('./pubsub/PubSubTab')),
  ],
});
