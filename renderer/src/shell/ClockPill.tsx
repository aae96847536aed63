// The local stack's clock in the status bar (the sidebar's footer) when it runs ahead of this computer's
// ("Stack clock +7 d"), with Advance… behind it. Nothing on other profiles, or while the clock is in step.
import { useState } from 'react';
import type { ClockState } from '../../../shared/local-stack/clock';
import { offsetWords } from '../clock/clock-words';
import { useStackClock } from '../clock/use-stack-clock';
import { ClockIcon } from '../ui/icons';
import { lazyWithPreload } from './lazy';

const AdvanceDialog = lazyWithPreload<{ clock: ClockState; onClose: () => void }>(() =>
  import('../clock/AdvanceDialog').then((module) => ({ default: module.AdvanceDialog })),
);

export function ClockPill() {
  const { clock } = useStackClock();
  const [open, setOpen] = useState(false);
  const ahead = clock ? offsetWords(clock.offsetMs) : undefined;
  if (!clock || !ahead) return null;
  return (
    <>
      <button
        type="button"
        className="stack-pill clock-pill"
        onClick={() => setOpen(true)}
        onMouseEnter={() => void AdvanceDialog.preload()}
        title="The local stack's clock runs ahead of this computer's. Click to advance it further."
        data-testid="clock-pill"
      >
        <ClockIcon width={14} height={14} />
        <span>Stack clock</span>
        <span className="spacer" />
        <span className="mono">{ahead}</span>
        {/* Named by what it shows, then what it means and does (WCAG 2.5.3: the name holds the label). */}
        <span className="visually-hidden">ahead of this computer. Advance…</span>
      </button>
      {open ? <AdvanceDialog clock={clock} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
