import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BridgeClient } from './bridge/client';
import { BridgeProvider } from './bridge/react';
import { askAgainOnRecovery } from './bridge/recovery';
import { retryOnce } from './bridge/retry';
import {
  createIpcTransport,
  createWebSocketTransport,
  takeBrowserHostSecret,
  type Transport,
} from './bridge/transport';
import { App } from './shell/App';
import { initTheme } from './shell/theme';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/shell.css';

initTheme();
const root = createRoot(document.getElementById('root')!);

function pickTransport(): Transport | null {
  if (window.switchyard) return createIpcTransport(window.switchyard);
  const secret = takeBrowserHostSecret(window.location, window.history, window.sessionStorage);
  if (!secret) return null;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return createWebSocketTransport(
    `${scheme}://${window.location.host}/bridge?secret=${encodeURIComponent(secret)}`,
  );
}

const transport = pickTransport();
if (!transport) {
  root.render(
    <div className="empty">
      <h2>Open Switchyard from its link</h2>
      <p className="muted">
        This page needs the address printed by <code>npm start</code> or <code>npm run web</code> (“Switchyard
        ready at …”). It carries a secret for this launch, so that no other page on this machine can talk to
        the console.
      </p>
    </div>,
  );
} else {
  // Not refetched on focus: a window shown again asks again only what failed (askAgainOnRecovery).
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: retryOnce, refetchOnWindowFocus: false, staleTime: 5_000 },
    },
  });
  const bridge = new BridgeClient(transport);
  // A service that answers again is asked again at once by the queries that failed on it.
  askAgainOnRecovery(bridge, queryClient);
  root.render(
    <StrictMode>
      <BridgeProvider client={bridge}>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </BridgeProvider>
    </StrictMode>,
  );
}
