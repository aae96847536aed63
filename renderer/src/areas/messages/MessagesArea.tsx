// The Messages area: one tab per job. Route: #/messages/<tab>/<param…>, e.g. #/messages/logs/msg_123.
// Each tab is its own lazily loaded module, so opening the composer does not load the logs list.
import { tabLabel } from '../../shell/area-tabs';
import { lazyWithPreload } from '../../shell/lazy';
import { type AreaTab, TabbedArea } from '../../shell/TabbedArea';

export const MESSAGE_TABS = [
  {
    id: 'compose',
    label: tabLabel('messages', 'compose'),
    component: lazyWithPreload(() => import('./compose/ComposeTab')),
  },
  {
    id: 'batch',
    label: tabLabel('messages', 'batch'),
    component: lazyWithPreload(() => import('./batch/BatchTab')),
  },
  {
    id: 'webhook',
    label: tabLabel('messages', 'webhook'),
    component: lazyWithPreload(() => import('./webhook/WebhookTab')),
  },
  {
    id: 'logs',
    label: tabLabel('messages', 'logs'),
    component: lazyWithPreload(() => import('./logs/LogsTab')),
  },
  {
    id: 'queues',
    label: tabLabel('messages', 'queues'),
    component: lazyWithPreload(() => import('./queues/QueuesTab')),
  },
  {
    id: 'keys',
    label: tabLabel('messages', 'keys'),
    component: lazyWithPreload(() => import('./keys/SigningKeysTab')),
  },
] as const satisfies readonly [AreaTab, ...AreaTab[]];

// The composer is what people open most: start loading it as soon as this area's code loads (the
// shell preloads areas while idle), so the first open renders at once.
void MESSAGE_TABS[0].component.preload();

export type MessageTabId = (typeof MESSAGE_TABS)[number]['id'];

export default function MessagesArea({ params }: { params: string[] }) {
  return (
    <TabbedArea
      area="messages"
      title="Messages"
      subtitle="Publish, batch, follow deliveries"
      tabs={MESSAGE_TABS}
      params={params}
    />
  );
}
