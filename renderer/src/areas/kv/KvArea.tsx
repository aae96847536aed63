// The KV area: one tab per job. Route: #/kv/<tab>/<param…>, e.g. #/kv/keys/user%3A1. Each tab is its own
// lazily loaded module, so opening the workbench does not load the key browser.
import { tabbedArea } from '../../shell/TabbedArea';

export default tabbedArea('kv', 'Commands, keys, search and live traffic of the key-value store', {
  workbench: () => import('./workbench/WorkbenchTab'),
  keys: () => import('./keys/KeysTab'),
  search: () => import('./search/SearchTab'),
  monitor: () => import('./monitor/MonitorTab'),
  pubsub: () => import('./pubsub/PubSubTab'),
});
