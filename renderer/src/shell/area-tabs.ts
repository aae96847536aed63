// The tabs of the tabbed areas by id and label, without their (lazily loaded) modules: the areas take
// their labels from here, and the command palette offers "Open <area> › <tab>" for each.
import type { AreaId } from './nav';

export const AREA_TABS = {
  messages: [
    { id: 'compose', label: 'Compose' },
    { id: 'batch', label: 'Batch' },
    { id: 'webhook', label: 'Webhook intake' },
    { id: 'logs', label: 'Logs' },
    { id: 'queues', label: 'Queues' },
    { id: 'keys', label: 'Signing keys' },
  ],
  workflows: [
    { id: 'runs', label: 'Runs' },
    { id: 'compare', label: 'Compare' },
    { id: 'dlq', label: 'DLQ triage' },
    { id: 'jobs', label: 'Jobs' },
  ],
  kv: [
    { id: 'workbench', label: 'Workbench' },
    { id: 'keys', label: 'Keys' },
    { id: 'monitor', label: 'Monitor' },
    { id: 'pubsub', label: 'Pub/Sub' },
  ],
} as const satisfies Partial<Record<AreaId, readonly { id: string; label: string }[]>>;

export type TabbedAreaId = keyof typeof AREA_TABS;
export type TabIdOf<A extends TabbedAreaId> = (typeof AREA_TABS)[A][number]['id'];

export function tabLabel<A extends TabbedAreaId>(area: A, id: TabIdOf<A>): string {
  return (AREA_TABS[area] as readonly { id: string; label: string }[]).find((tab) => tab.id === id)!.label;
}
