// The Messages area: one tab per job. Route: #/messages/<tab>/<param…>, e.g. #/messages/logs/msg_123.
// Each tab is its own lazily loaded module, so opening the composer does not load the logs list.
import { tabbedArea } from '../../shell/TabbedArea';

export default tabbedArea('messages', 'Publish, batch, schedule, follow deliveries', {
  compose: () => import('./composer/ComposerTab'),
  batch: () => import('./batch/BatchTab'),
  webhook: () => import('./webhook/WebhookTab'),
  logs: () => import('./logs/LogsTab'),
  schedules: () => import('./schedules/SchedulesTab'),
  queues: () => import('./queues/QueuesTab'),
  'flow-control': () => import('./flow-control/FlowControlTab'),
  keys: () => import('./signing-keys/SigningKeysTab'),
});
