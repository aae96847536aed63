// The tabs of the tabbed areas by id and label, in order, without their (lazily loaded) modules: each area
// (tabbedArea) gives a module per tab id listed here, and the command palette offers "Open <area> › <tab>".
// A tab `under` another is a page of its own route that the strip shows as that tab (not in the palette).
import type { AreaId } from './nav';

export const AREA_TABS = {
  messages: [
    { id: 'compose', label: 'Compose' },
    { id: 'batch', label: 'Batch' },
    { id: 'webhook', label: 'Webhook intake' },
    { id: 'logs', label: 'Logs' },
    { id: 'schedules', label: 'Schedules' },
    { id: 'queues', label: 'Queues' },
    { id: 'flow-control', label: 'Flow control' },
    { id: 'keys', label: 'Signing keys' },
  ],
  workflows: [
    { id: 'runs', label: 'Runs' },
    // A run's own page (#/workflows/run/<id>/<createdAt>), opened from the run list: no tab of its own.
    { id: 'run', label: 'Run', under: 'runs' },
    { id: 'compare', label: 'Compare' },
    { id: 'dlq', label: 'DLQ triage' },
  ],
  kv: [
    { id: 'workbench', label: 'Workbench' },
    { id: 'keys', label: 'Keys' },
    { id: 'search', label: 'Search' },
    { id: 'monitor', label: 'Monitor' },
    { id: 'pubsub', label: 'Pub/Sub' },
  ],
} as const satisfies Partial<Record<AreaId, readonly { id: string; label: string; under?: string }[]>>;

export type TabbedAreaId = keyof typeof AREA_TABS;
export type TabIdOf<A extends TabbedAreaId> = (typeof AREA_TABS)[A][number]['id'];
