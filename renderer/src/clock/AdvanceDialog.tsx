// "Advance…": moves the local stack's clock forward by a preset (1 h, 1 d, 7 d), to its next due item, or by a
// duration the user types (validated as the stack validates it). Everything due on the way fires at once.
import { useState } from 'react';
import { type ClockState, parseAdvanceBy } from '../../../shared/local-stack/clock';
import type { AdvanceBy } from '../../../shared/bridge/procedures/clock';
import { LOCAL_PROFILE_ID } from '../../../shared/profiles';
import { useBridgeMutation } from '../bridge/react';
import { ErrorCallout } from '../ui/ErrorCallout';
import { Fact } from '../ui/Fact';
import { Segmented, TextField } from '../ui/fields';
import { formatTime } from '../ui/format';
import { FormDialog } from '../ui/FormDialog';
import { Callout } from '../ui/misc';
import { toast } from '../ui/toast';
import { dueItemWords, durationWords, offsetWords, untilWords } from './clock-words';

/** "Advance by": the choices, in order. */
const CHOICES = { '1h': '1 h', '1d': '1 d', '7d': '7 d', next: 'To the next due item', other: 'Other…' };
type Choice = keyof typeof CHOICES;

export const KV_TTL_NOTE =
  'KV TTLs live in redis-server and do not follow this clock: keys expire on this computer’s time.';

/** What the clock fires next and when, or that nothing waits for it (the dialog and the Local stack page). */
export function NextDueFact({ clock }: { clock: ClockState }) {
  return (
    <Fact label="Next due">
      {clock.next ? (
        <>
          {dueItemWords(clock.next)} <span className="muted">{untilWords(clock.next.dueAt, clock.now)}</span>
        </>
      ) : (
        <span className="muted">Nothing waits for the clock.</span>
      )}
    </Fact>
  );
}

export function AdvanceDialog({ clock, onClose }: { clock: ClockState; onClose: () => void }) {
  const next = clock.next && clock.next.dueAt > clock.now ? clock.next : null;
  const [choice, setChoice] = useState<Choice>(next ? 'next' : '1h');
  const [other, setOther] = useState('');
  const advance = useBridgeMutation('stack.clock.advance', {
    onSuccess: (moved) => {
      toast.success(
        'Stack clock advanced',
        `It is now ${formatTime(moved.now)} on the stack (${offsetWords(moved.offsetMs) ?? 'in step'}).`,
      );
      onClose();
    },
  });

  const typed = choice === 'other' ? parseAdvanceBy(other.trim()) : undefined;
  // The next item's own time, not a distance: main measures it from the clock as it is then (this dialog's
  // reading can be seconds old).
  const durationText =
    choice === 'next' ? undefined : choice === 'other' ? (typed?.ok ? other.trim() : undefined) : choice;
  const by: AdvanceBy | undefined =
    choice === 'next'
      ? next
        ? { to: next.dueAt }
        : undefined
      : durationText
        ? { duration: durationText }
        : undefined;
  const byMs =
    choice === 'next'
      ? next
        ? next.dueAt - clock.now
        : undefined
      : durationText
        ? (parseAdvanceBy(durationText) as { ms: number }).ms
        : undefined;

  return (
    <FormDialog
      title="Advance the stack clock"
      className="advance-dialog"
      submitLabel={byMs ? `Advance ${durationWords(byMs)}` : 'Advance'}
      busy={advance.isPending}
      disabled={!by}
      onClose={onClose}
      onSubmit={() => by && advance.mutate({ profileId: LOCAL_PROFILE_ID, by })}
      note={<span className="faint dialog-note">Local stack only</span>}
    >
      <dl className="kv-list">
        <Fact label="Stack time">
          {formatTime(clock.now)}{' '}
          <span className="muted">
            {offsetWords(clock.offsetMs)
              ? `(${offsetWords(clock.offsetMs)} ahead of this computer)`
              : '(in step with this computer)'}
          </span>
        </Fact>
        <NextDueFact clock={clock} />
      </dl>
      <Segmented label="Advance by" value={choice} options={CHOICES} onChange={setChoice} />
      {choice === 'next' && !next ? (
        <p className="muted">Nothing waits for the clock: there is no next due item to move to.</p>
      ) : null}
      {choice === 'other' ? (
        <TextField
          label="Duration"
          value={other}
          mono
          autoFocus
          placeholder="2h30m"
          hint="s, m, h, d and combinations such as 1d12h; at most 365d"
          error={other.trim() && typed && !typed.ok ? typed.error : undefined}
          onChange={(event) => setOther(event.target.value)}
        />
      ) : null}
      <p className="muted">
        Everything that falls due on the way fires at once, each at its own time: delayed messages, retries,
        workflow sleeps and wait timeouts, schedules (once for the ticks passed), flow-control windows. The
        clock never goes back, not even after a restart.
      </p>
      <Callout tone="info">{KV_TTL_NOTE}</Callout>
      <ErrorCallout error={advance.error} title="The stack refused." />
    </FormDialog>
  );
}
