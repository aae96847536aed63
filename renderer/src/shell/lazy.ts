// React.lazy with a preload handle. Once the chunk has loaded, the component renders synchronously:
// no Suspense fallback is shown, so React's reveal throttle (it keeps a shown fallback ≥300 ms) never
// delays a screen the user opens. The shell preloads areas while idle; areas preload their main tab.
import { type ComponentType, createElement, lazy } from 'react';

export type PreloadableComponent<P extends object> = ComponentType<P> & { preload: () => Promise<unknown> };

export function lazyWithPreload<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): PreloadableComponent<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () =>
    (pending ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const LazyComponent = lazy(preload);
  const Preloadable = (props: P) =>
    createElement(loaded ?? (LazyComponent as unknown as ComponentType<P>), props);
  Preloadable.displayName = 'Preloadable';
  return Object.assign(Preloadable, { preload });
}

/** Runs `task` when the browser is idle (or soon, where requestIdleCallback is missing). */
export function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 2000 });
  else setTimeout(task, 200);
}
