// The Messages area: one tab per job. Route: #/messages/<tab>/<param…>, e.g. #/messages/logs/msg_123.
// Each tab is its own lazily loaded module, so opening the composer does not load the logs list.
import { areaTab, tabbedArea } from '../../shell/TabbedArea';

export default tabbedArea({
  area: 'messages',
  title: 'Messages',
  subtitle: 'Publish, batch, follow deliveries',
  tabs: [
    areaTab('messages', 'compose', () => import('./compose/ComposeTab')),
    areaTab('messages', 'batch', () => import('./batch/BatchTab')),
    areaTab('messages', 'webhook', () => import('./webhook/WebhookTab')),
    areaTab('messages', 'logs', () => import('./logs/LogsTab')),
    areaTab('messages', 'queues', () => import('./queues/QueuesTab')),
    areaTab('messages', 'keys', () => import('./keys/SigningKeysTab')),
  ],
});
