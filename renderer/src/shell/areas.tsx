// The console's areas: one entry each, loaded lazily so the first screen ships only the shell.
// A feature replaces its placeholder module under renderer/src/areas/<id>/.
import type { ComponentType } from 'react';
import {
  DatabaseIcon,
  GroupIcon,
  InboxIcon,
  JobsIcon,
  SendIcon,
  ServerIcon,
  UserIcon,
  WorkflowIcon,
} from '../ui/icons';
import { lazyWithPreload, type PreloadableComponent } from './lazy';
import type { AreaId } from './nav';

export interface AreaDef {
  id: AreaId;
  label: string;
  icon: ComponentType<{ width?: number; height?: number }>;
  /** Alt+<digit> goes there. */
  shortcut: string;
  section: 'services' | 'console';
  component: PreloadableComponent<{ params: string[] }>;
}

export const AREAS: AreaDef[] = [
  {
    id: 'messages',
    label: 'Messages',
    icon: SendIcon,
    shortcut: '1',
    section: 'services',
    component: lazyWithPreload(() => import('../areas/messages/MessagesArea')),
  },
  {
    id: 'url-groups',
    label: 'URL groups',
    icon: GroupIcon,
    shortcut: '2',
    section: 'services',
    component: lazyWithPreload(() => import('../areas/url-groups/UrlGroupsArea')),
  },
  {
    id: 'workflows',
    label: 'Workflows',
    icon: WorkflowIcon,
    shortcut: '3',
    section: 'services',
    component: lazyWithPreload(() => import('../areas/workflows/WorkflowsArea')),
  },
  {
    id: 'dlq',
    label: 'DLQ',
    icon: InboxIcon,
    shortcut: '4',
    section: 'services',
    component: lazyWithPreload(() => import('../areas/dlq/MessageDlqArea')),
  },
  {
    id: 'kv',
    label: 'KV',
    icon: DatabaseIcon,
    shortcut: '5',
    section: 'services',
    component: lazyWithPreload(() => import('../areas/kv/KvArea')),
  },
  {
    id: 'jobs',
    label: 'Jobs',
    icon: JobsIcon,
    shortcut: '8',
    section: 'console',
    component: lazyWithPreload(() => import('../areas/jobs/JobsArea')),
  },
  {
    id: 'profiles',
    label: 'Profiles',
    icon: UserIcon,
    shortcut: '6',
    section: 'console',
    component: lazyWithPreload(() => import('../areas/profiles/ProfilesArea')),
  },
  {
    id: 'stack',
    label: 'Local stack',
    icon: ServerIcon,
    shortcut: '7',
    section: 'console',
    component: lazyWithPreload(() => import('../areas/stack/StackArea')),
  },
];

export function areaById(id: AreaId): AreaDef {
  return AREAS.find((area) => area.id === id) ?? AREAS[0]!;
}

/** Loads every area's code in the background once the first screen is up, so switching never waits. */
export function preloadAreas(): void {
  for (const area of AREAS) void area.component.preload();
}
