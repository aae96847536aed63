// The Messages area: one tab per job. Route: #/messages/<tab>/<param…>, e.g. #/messages/logs/msg_123.
// Each tab is its own lazily loaded module, so opening the composer does not load the logs list.
import { type ComponentType, Suspense } from 'react';
import { lazyWithPreload } from '../../shell/lazy';
import { useNav } from '../../shell/nav';
import { PageHeader } from '../../shell/PageHeader';
import { Spinner } from '../../ui/misc';

export const MESSAGE_TABS = [
  { id: 'compose', label: 'Compose', component: lazyWithPreload(() => import('./compose/ComposeTab')) },
  { id: 'batch', label: 'Batch', component: lazyWithPreload(() => import('./batch/BatchTab')) },
  {
    id: 'webhook',
    label: 'Webhook intake',
    component: lazyWithPreload(() => import('./webhook/WebhookTab')),
  },
  { id: 'logs', label: 'Logs', component: lazyWithPreload(() => import('./logs/LogsTab')) },
  { id: 'queues', label: 'Queues', component: lazyWithPreload(() => import('./queues/QueuesTab')) },
  { id: 'keys', label: 'Signing keys', component: lazyWithPreload(() => import('./keys/SigningKeysTab')) },
] as const satisfies readonly { id: string; label: string; component: ComponentType<{ params: string[] }> }[];

// The composer is what people open most: start loading it as soon as this area's code loads (the
// shell preloads areas while idle), so the first open renders at once.
void MESSAGE_TABS[0].component.preload();

export type MessageTabId = (typeof MESSAGE_TABS)[number]['id'];

export default function MessagesArea({ params }: { params: string[] }) {
  const navigate = useNav((state) => state.navigate);
  const [tabId = 'compose', ...rest] = params;
  const tab = MESSAGE_TABS.find((candidate) => candidate.id === tabId) ?? MESSAGE_TABS[0];
  const Tab = tab.component;
  return (
    <>
      <PageHeader title="Messages" subtitle="Publish, batch, follow deliveries" />
      <div className="tabs" role="tablist" aria-label="Messages">
        {MESSAGE_TABS.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            className="tab"
            aria-selected={candidate.id === tab.id}
            onClick={() => navigate('messages', candidate.id)}
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
