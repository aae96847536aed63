// Drafts live in main (composer.json in the console's data folder), so they survive a restart whatever
// port the browser host gets next time, and they belong to a profile: switching profile shows that
// profile's drafts, so a draft written against Local never stands ready to send under production. The
// tab holds the value; changes are saved shortly after typing stops, and the shared query cache is
// updated at once so another tab opened next sees the same draft. A save that fails is reported (the
// header says the draft is not saved, and why) — the typed value stays in the tab either way.
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DraftKey, Drafts } from '../../../../../shared/bridge/procedures/messages/composer';
import { errorMessage, type BridgeClient } from '../../../bridge/client';
import { bridgeKey, useBridge, useBridgeQuery } from '../../../bridge/react';

const SAVE_AFTER_MS = 300;

export function storeDraft<K extends DraftKey>(
  queryClient: QueryClient,
  bridge: BridgeClient,
  profileId: string,
  key: K,
  value: Drafts[K] | null,
): Promise<unknown> {
  queryClient.setQueryData<Drafts>(bridgeKey('messages.composer.drafts', { profileId }), (old) => {
    const next = { ...old };
    if (value === null) delete next[key];
    else next[key] = value as Drafts[K];
    return next;
  });
  return bridge.call('messages.composer.saveDraft', { profileId, key, value } as never);
}

/** Whether what the tab shows is saved: 'saved', 'pending' (typing), or the reason it could not be. */
export type DraftSaveState = { state: 'saved' } | { state: 'pending' } | { state: 'failed'; reason: string };

export interface DraftHandle<V> {
  value: V;
  update: (change: (current: V) => V) => void;
  loaded: boolean;
  /** Saves a pending change now (before a send, when the tab closes). */
  flush: () => void;
  save: DraftSaveState;
}

/** The draft of one tab for one profile, loaded from main once and saved as it changes. */
export function useDraft<K extends DraftKey>(
  profileId: string,
  key: K,
  fallback: () => NonNullable<Drafts[K]>,
): DraftHandle<NonNullable<Drafts[K]>> {
  type Value = NonNullable<Drafts[K]>;
  const bridge = useBridge();
  const queryClient = useQueryClient();
  // '' while the active profile is not known yet: nothing to load.
  const drafts = useBridgeQuery(
    'messages.composer.drafts',
    { profileId },
    { staleTime: Infinity, enabled: profileId !== '' },
  );
  const [initialFallback] = useState(fallback);
  const loaded = profileId !== '' && (drafts.isSuccess || drafts.isError);
  const stored = (drafts.data?.[key] as Value | undefined) ?? initialFallback;
  // null until the user changes something under this profile: until then the stored draft is shown.
  const [local, setLocal] = useState<{ profileId: string; value: Value } | null>(null);
  const [save, setSave] = useState<{ profileId: string; state: DraftSaveState }>({
    profileId,
    state: { state: 'saved' },
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef<Value | null>(null);
  const storedRef = useRef(stored);
  useEffect(() => {
    storedRef.current = stored;
  });

  const persist = useCallback(
    (value: Value) => {
      storeDraft(queryClient, bridge, profileId, key, value).then(
        () =>
          setSave((current) =>
            current.profileId === profileId ? { profileId, state: { state: 'saved' } } : current,
          ),
        (error: unknown) => setSave({ profileId, state: { state: 'failed', reason: draftErrorText(error) } }),
      );
    },
    [bridge, queryClient, profileId, key],
  );

  // Saves what is pending now: before a send, when the tab closes (switching tabs unmounts it), when the
  // profile changes and when the page goes away (reload, window closed).
  const flush = useCallback(() => {
    if (timer.current !== undefined && latest.current !== null) {
      clearTimeout(timer.current);
      timer.current = undefined;
      persist(latest.current);
    }
    latest.current = null;
  }, [persist]);
  useEffect(() => {
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const update = useCallback(
    (change: (current: Value) => Value) => {
      setLocal((current) => {
        const next = change(current?.profileId === profileId ? current.value : storedRef.current);
        latest.current = next;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => {
          timer.current = undefined;
          latest.current = null;
          persist(next);
        }, SAVE_AFTER_MS);
        return { profileId, value: next };
      });
      setSave((current) =>
        current.state.state === 'failed' && current.profileId === profileId
          ? current
          : { profileId, state: { state: 'pending' } },
      );
    },
    [persist, profileId],
  );

  return {
    value: local?.profileId === profileId ? local.value : stored,
    update,
    loaded,
    flush,
    save: save.profileId === profileId ? save.state : { state: 'saved' },
  };
}

/** "the body is larger than a draft can keep (4 MiB)" rather than the bridge's field path. */
function draftErrorText(error: unknown): string {
  const fields = (error as { fields?: Record<string, string> }).fields;
  const first = fields ? Object.values(fields)[0] : undefined;
  return first ?? errorMessage(error);
}
