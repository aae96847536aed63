import type { MessageState } from '../../../../../shared/messages/types';
import { Badge } from '../../../ui/misc';
import type { TrailStep } from './group-events';

export const MESSAGE_STATE_TONE: Record<MessageState, 'success' | 'warning' | 'danger' | 'info' | undefined> =
  {
    CREATED: undefined,
    ACTIVE: 'info',
    RETRY: 'warning',
    ERROR: 'danger',
    DELIVERED: 'success',
    FAILED: 'danger',
    CANCEL_REQUESTED: 'warning',
    CANCELLED: undefined,
  };

export function MessageStateBadge({ state }: { state: MessageState }) {
  return <Badge tone={MESSAGE_STATE_TONE[state]}>{state.replace('_', ' ')}</Badge>;
}

/** CREATED → ACTIVE → … as small chips; long retry loops shortened (see trailSteps). */
export function Trail({ steps }: { steps: TrailStep[] }) {
  return (
    <span className="trail">
      {steps.map((step, index) => (
        <span key={index} className="trail-step">
          {index > 0 ? <span className="trail-arrow">→</span> : null}
          {step.kind === 'state' ? (
            <span className={`trail-chip tone-${MESSAGE_STATE_TONE[step.state] ?? 'plain'}`}>
              {step.state}
            </span>
          ) : step.kind === 'older' ? (
            <span
              className="trail-chip trail-gap"
              title="Older events of this message are on a page not loaded yet"
            >
              …
            </span>
          ) : (
            <span className="trail-chip trail-gap" title={`${step.hidden} more events`}>
              … {step.attempts} attempts …
            </span>
          )}
        </span>
      ))}
    </span>
  );
}
