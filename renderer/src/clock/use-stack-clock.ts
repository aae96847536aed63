// The local stack's clock as the console reads it: only while the Local profile is active and its stack runs
// (main refuses the clock for any other profile). Also tells ui/format.ts how far the stack is ahead, so that
// relative times ("in 2 h", "5 min ago") on the Local profile are counted from the stack's clock.
import { useEffect } from 'react';
import type { ClockState } from '../../../shared/local-stack/clock';
import { LOCAL_PROFILE_ID, type ProfileView } from '../../../shared/profiles';
import { useBridgeQuery } from '../bridge/react';
import { useActiveProfile, useStackStatus } from '../shell/data';
import { setServiceClockOffset } from '../ui/format';
import { pollEvery } from '../bridge/polling';

/** How often the status bar re-reads the clock (an advance made elsewhere, e.g. by a test script). */
const REFRESH_MS = 15_000;

export interface StackClockView {
  /** The Local profile is active and its stack runs: the clock can be read and moved. */
  available: boolean;
  /** The Local profile, while the clock is available (what its Advance… button acts for). */
  profile?: ProfileView;
  clock?: ClockState;
  error?: Error | null;
}

export function useStackClock(): StackClockView {
  const profile = useActiveProfile();
  const stack = useStackStatus();
  const available = profile?.id === LOCAL_PROFILE_ID && stack?.state === 'ready';
  const query = useBridgeQuery(
    'stack.clock.get',
    { profileId: LOCAL_PROFILE_ID },
    {
      enabled: available,
      refetchInterval: pollEvery(available ? REFRESH_MS : false),
      // A page that shows the clock reads it as it opens: something published since the last refresh may be
      // the next due item.
      refetchOnMount: 'always',
    },
  );
  const offset = available ? (query.data?.offsetMs ?? 0) : 0;
  useEffect(() => setServiceClockOffset(offset), [offset]);
  return {
    available,
    profile: available ? profile : undefined,
    clock: available ? query.data : undefined,
    error: query.error,
  };
}
