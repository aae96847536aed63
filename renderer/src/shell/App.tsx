import { Suspense, useEffect, useState } from 'react';
import { useConnectionState } from '../bridge/react';
import { ConfirmHost } from '../ui/confirm';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { AlertIcon } from '../ui/icons';
import { Spinner } from '../ui/misc';
import { Toaster } from '../ui/toast';
import { AREAS, areaById, preloadAreas } from './areas';
import { CommandPalette } from './CommandPalette';
import { StackWatcher, useActiveProfile } from './data';
import { whenIdle } from './lazy';
import { listenToHistory, useNav } from './nav';
import { Sidebar } from './Sidebar';

export function App() {
  const route = useNav((state) => state.route);
  const navigate = useNav((state) => state.navigate);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const connection = useConnectionState();
  const active = useActiveProfile();
  const area = areaById(route.area);
  const AreaComponent = area.component;

  useEffect(() => listenToHistory(), []);
  useEffect(() => whenIdle(preloadAreas), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteOpen((open) => !open);
        return;
      }
      if (event.altKey && !event.ctrlKey && !event.metaKey) {
        const target = AREAS.find((candidate) => candidate.shortcut === event.key);
        if (target) {
          event.preventDefault();
          navigate(target.id);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  const isProd = active?.env === 'prod';
  return (
    <div className={`app${isProd ? ' app-prod' : ''}`} data-env={active?.env}>
      <StackWatcher />
      <Sidebar onOpenPalette={() => setPaletteOpen(true)} />
      <main className="main">
        {isProd ? (
          <div className="prod-banner" role="note">
            <AlertIcon width={14} height={14} />
            PRODUCTION — {active.name}. Changes here affect live systems.
          </div>
        ) : null}
        {connection !== 'open' ? (
          <div className="connection-banner" role="status">
            {connection === 'connecting'
              ? 'Connecting to the Switchyard back end…'
              : 'Connection to the back end lost. Reconnecting…'}
          </div>
        ) : null}
        <ErrorBoundary key={area.id} area={area.label}>
          <Suspense
            fallback={
              <div className="page-body">
                <Spinner />
              </div>
            }
          >
            <AreaComponent params={route.params} />
          </Suspense>
        </ErrorBoundary>
      </main>
      <CommandPalette open={paletteOpen} onClose={() => setPaletteOpen(false)} />
      <ConfirmHost />
      <Toaster />
    </div>
  );
}
