// "Run now" for one item that waits for the clock — a delayed or retrying message, a workflow run's sleep,
// retry or wait timeout, a schedule's tick — through the local stack's clock-independent path (the clock does
// not move). The cloud services have no equivalent, so on any other profile the button is off and says so.
//
// Reusable: <RunNowButton profile={profile} item={{ kind: 'message', messageId }} waiting={…} /> anywhere an
// item's waiting is shown (Logs, the run page's "why not done"); useRunNow() for a custom control.
import type { ClockItem } from '../../../shared/bridge/procedures/clock';
import type { DueItem } from '../../../shared/local-stack/clock';
import { LOCAL_PROFILE_ID, type ProfileView } from '../../../shared/profiles';
import { errorMessage } from '../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../bridge/react';
import { Button } from '../ui/Button';
import { toast } from '../ui/toast';
import { WriteButton } from '../ui/WriteButton';
import { dueItemWords } from './clock-words';
import { pollEvery } from '../bridge/polling';

export const LOCAL_ONLY_TITLE =
  'Local stack only: the cloud service has no way to run a waiting item early. Switch to the Local profile to use it there.';

export interface RunNowState {
  /** On the Local profile: what of the item waits for the clock (undefined while loading, or elsewhere). */
  waiting?: DueItem[];
  /** Runs the first waiting item now. */
  run(): void;
  pending: boolean;
}

/** What of `item` waits for the local stack's clock, and Run now for it (Local profile only). */
export function useRunNow(profile: Pick<ProfileView, 'id'>, item: ClockItem): RunNowState {
  const local = profile.id === LOCAL_PROFILE_ID;
  const due = useBridgeQuery(
    'stack.clock.due',
    { profileId: LOCAL_PROFILE_ID, item },
    { enabled: local, refetchInterval: pollEvery(local ? 5_000 : false) },
  );
  const runNow = useBridgeMutation('stack.clock.runNow', {
    onSuccess: (ran) => toast.success('Run now', `${dueItemWords(ran)}: running now.`),
    onError: (error) => toast.error('Could not run it now', errorMessage(error)),
  });
  return {
    waiting: local ? due.data : undefined,
    run: () => runNow.mutate({ profileId: LOCAL_PROFILE_ID, item }),
    pending: runNow.isPending,
  };
}

/**
 * The Run now button. On the Local profile it shows while the item waits for the clock; elsewhere, where the
 * caller knows the item waits (`waiting`), it is off with the reason as its title.
 */
export function RunNowButton({
  profile,
  item,
  waiting,
  label = 'Run now',
}: {
  profile: ProfileView;
  item: ClockItem;
  /** Outside the Local profile: whether the item is known to wait (a delay, a retry, a sleep). */
  waiting?: boolean;
  label?: string;
}) {
  if (profile.id !== LOCAL_PROFILE_ID) {
    return waiting ? (
      <Button size="sm" disabled title={LOCAL_ONLY_TITLE} data-testid="run-now">
        {label}
      </Button>
    ) : null;
  }
  return <LocalRunNow profile={profile} item={item} label={label} />;
}

function LocalRunNow({ profile, item, label }: { profile: ProfileView; item: ClockItem; label: string }) {
  const { waiting, run, pending } = useRunNow(profile, item);
  const first = waiting?.[0];
  if (!first) return null;
  return (
    <WriteButton
      profile={profile}
      size="sm"
      busy={pending}
      onClick={run}
      data-testid="run-now"
      title={`Local stack: ${dueItemWords(first)} now, without moving the stack clock`}
    >
      {label}
    </WriteButton>
  );
}
