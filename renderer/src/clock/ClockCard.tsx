// The stack clock on the Local stack page: its time, how far it is ahead of this computer, what it fires
// next, and Advance…. Also says that KV TTLs do not follow it.
import { useState } from 'react';
import { ErrorCallout } from '../ui/ErrorCallout';
import { Fact } from '../ui/Fact';
import { formatTime } from '../ui/format';
import { WriteButton } from '../ui/WriteButton';
import { AdvanceDialog, KV_TTL_NOTE, NextDueFact } from './AdvanceDialog';
import { offsetWords } from './clock-words';
import { useStackClock } from './use-stack-clock';

export function ClockCard() {
  const { available, profile, clock, error } = useStackClock();
  const [open, setOpen] = useState(false);
  if (!available || !profile) return null;
  const ahead = clock ? offsetWords(clock.offsetMs) : undefined;
  return (
    <section className="card" aria-label="Stack clock" data-testid="stack-clock-card">
      <div className="card-header">
        <h2>Clock</h2>
        <span className="muted">
          {clock ? (ahead ? `${ahead} ahead of this computer` : 'in step with this computer') : '…'}
        </span>
        <span className="spacer" />
        <WriteButton profile={profile} size="sm" disabled={!clock} onClick={() => setOpen(true)}>
          Advance…
        </WriteButton>
      </div>
      <div className="card-body stack" style={{ gap: 10 }}>
        <ErrorCallout error={error} title="Could not read the stack clock." />
        {clock ? (
          <dl className="kv-list">
            <Fact label="Stack time" value={formatTime(clock.now)} />
            <NextDueFact clock={clock} />
          </dl>
        ) : null}
        <p className="muted">
          Every timer of the stack — delays, retries, workflow sleeps and wait timeouts, schedules,
          flow-control windows — follows this clock, and the times it records are its own. Move it forward to
          test what would take hours or days; it never goes back. {KV_TTL_NOTE}
        </p>
      </div>
      {open && clock ? <AdvanceDialog clock={clock} onClose={() => setOpen(false)} /> : null}
    </section>
  );
}
