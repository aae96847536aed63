// Shell-wide server state: profiles and the local stack's status (kept fresh by one stream that writes
// into the query cache, so every component reads the same data).
import { useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import type { ProfileView } from '../../../shared/profiles';
import type { StackStatus } from '../../../shared/stack-status';
import { bridgeKey, useBridgeQuery, useBridgeStream } from '../bridge/react';

export function useProfiles() {
  return useBridgeQuery('profiles.list', {});
}

export function useActiveProfile(): ProfileView | undefined {
  const { data } = useProfiles();
  return data?.profiles.find((profile) => profile.id === data.activeId);
}

export function useStackStatus(): StackStatus | undefined {
  return useBridgeQuery('stack.status', {}, { staleTime: Infinity }).data;
}

/** Mounted once in the shell: mirrors `stack.watch` into the cache; refreshes profiles when the stack's state changes (the Local profile's URLs and tokens come from it). */
export function StackWatcher() {
  const queryClient = useQueryClient();
  const lastState = useRef<string | undefined>(undefined);
  useBridgeStream('stack.watch', {}, (events) => {
    const status = events[events.length - 1];
    if (!status) return;
    queryClient.setQueryData(bridgeKey('stack.status', {}), status);
    if (status.state !== lastState.current) {
      lastState.current = status.state;
      void queryClient.invalidateQueries({ queryKey: ['profiles.list'] });
    }
  });
  return null;
}

export const STACK_STATE_LABEL: Record<StackStatus['state'], string> = {
  stopped: 'Stopped',
  starting: 'Starting…',
  ready: 'Running',
  failed: 'Failed',
  unavailable: 'Not available',
};
