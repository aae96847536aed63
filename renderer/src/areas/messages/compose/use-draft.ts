// Drafts live in main (composer.json in the console's data folder), so they survive a restart whatever
// port the browser host gets next time. The tab holds the value; changes are saved shortly after typing
// stops, and the shared query cache is updated at once so another tab opened next sees the same draft.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DraftKey, Drafts } from '../../../../../shared/bridge/procedures/messages/composer';
import type { BridgeClient } from '../../../bridge/client';
import { bridgeKey, useBridge, useBridgeQuery } from '../../../bridge/react';

const SAVE_AFTER_MS = 300;

export function storeDraft<K extends DraftKey>(
  queryClient: QueryClient,
  bridge: BridgeClient,
  key: K,
  value: Drafts[K] | null,
): Promise<unknown> {
  queryClient.setQueryData<Drafts>(bridgeKey('messages.composer.drafts', {}), (old) => {
    const next = { ...old };
    if (value === null) delete next[key];
    else next[key] = value as Drafts[K];
    return next;
  });
  return bridge.call('messages.composer.saveDraft', { key, value } as never);
}

/** [value, setValue, loaded, flush]: the draft of one tab, loaded from main once and saved as it changes. */
export function useDraft<K extends DraftKey>(
  key: K,
  fallback: () => NonNullable<Drafts[K]>,
): [
  NonNullable<Drafts[K]>,
  (update: (current: NonNullable<Drafts[K]>) => NonNullable<Drafts[K]>) => void,
  boolean,
  () => void,
] {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const drafts = useBridgeQuery('messages.composer.drafts', {}, { staleTime: Infinity });
  const [initialFallback] = useState(fallback);
  const loaded = drafts.isSuccess || drafts.isError;
  const stored = (drafts.data?.[key] as NonNullable<Drafts[K]> | undefined) ?? initialFallback;
  // null until the user changes something: until then the stored draft is shown as it is.
  const [local, setLocal] = useState<NonNullable<Drafts[K]> | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef<NonNullable<Drafts[K]> | null>(null);
  const storedRef = useRef(stored);
  useEffect(() => {
    storedRef.current = stored;
  });

  // Saves what is pending now: before a send, when the tab closes (switching tabs unmounts it) and when
  // the page goes away (reload, window closed).
  const flush = useCallback(() => {
    if (timer.current !== undefined && latest.current !== null) {
      clearTimeout(timer.current);
      timer.current = undefined;
      void storeDraft(queryClient, bridge, key, latest.current);
    }
  }, [bridge, queryClient, key]);
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const update = useCallback(
    (change: (current: NonNullable<Drafts[K]>) => NonNullable<Drafts[K]>) => {
      setLocal((current) => {
        const next = change(current ?? storedRef.current);
        latest.current = next;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          timer.current = undefined;
          void storeDraft(queryClient, bridge, key, next);
        }, SAVE_AFTER_MS);
        return next;
      });
    },
    [bridge, queryClient, key],
  );

  return [local ?? stored, update, loaded, flush];
}
