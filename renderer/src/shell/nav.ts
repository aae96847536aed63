// Where the user is: `#/<area>/<param…>` in the address, mirrored in a small zustand store. Hash routing
// works the same under the browser host and Electron's custom protocol, and survives a reload.
import { create } from 'zustand';

export const AREA_IDS = [
  'messages',
  'url-groups',
  'workflows',
  'dlq',
  'kv',
  'jobs',
  'profiles',
  'stack',
] as const;
export type AreaId = (typeof AREA_IDS)[number];

export interface Route {
  area: AreaId;
  params: string[];
}

export const DEFAULT_ROUTE: Route = { area: 'messages', params: [] };

export function parseHash(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [area, ...params] = parts;
  // The Jobs screen was once a tab of Workflows: an old link still gets there.
  if (area === 'workflows' && params[0] === 'jobs') return { area: 'jobs', params: [] };
  return (AREA_IDS as readonly string[]).includes(area ?? '')
    ? { area: area as AreaId, params }
    : DEFAULT_ROUTE;
}

export function formatHash(route: Route): string {
  return `#/${[route.area, ...route.params].map(encodeURIComponent).join('/')}`;
}

interface NavState {
  route: Route;
  navigate: (area: AreaId, ...params: string[]) => void;
  /** Like navigate, without a history entry: a route that did its job once (a prefill link). */
  replace: (area: AreaId, ...params: string[]) => void;
}

export const useNav = create<NavState>((set) => ({
  route: typeof window === 'undefined' ? DEFAULT_ROUTE : parseHash(window.location.hash),
  navigate: (area, ...params) => {
    const route = { area, params };
    if (typeof window !== 'undefined') window.history.pushState(null, '', formatHash(route));
    set({ route });
  },
  replace: (area, ...params) => {
    const route = { area, params };
    if (typeof window !== 'undefined') window.history.replaceState(null, '', formatHash(route));
    set({ route });
  },
}));

/** Keeps the store in step with back/forward navigation. */
export function listenToHistory(): () => void {
  const onChange = () => useNav.setState({ route: parseHash(window.location.hash) });
  window.addEventListener('popstate', onChange);
  window.addEventListener('hashchange', onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener('hashchange', onChange);
  };
}
