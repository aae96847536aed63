// "Why not done" at the top of a run: one line per thing the run waits for (an event, a sleep, a retry, a
// flow-control key, a call, an invoked run…), or how it ended when it was canceled or failed — the sentence
// of shared/workflows/explain.ts, with the action that fits (Notify with the event id filled in; the
// invoked run; the run it was restarted from).
import { type RunReason, ATTENTION_KINDS, reasonText } from '../../../../../shared/workflows/explain';
import type { ProfileView } from '../../../../../shared/profiles';
import { formatTime } from '../../../ui/format';
import { InAppLink } from '../../../ui/InAppLink';
import { WriteButton } from '../../../ui/WriteButton';
import { RunNowButton } from '../../../clock/RunNow';
import { formatHash, useNav } from '../../../shell/nav';
import { Words } from './Words';

/** The reason's tone: attention (warning), the end of a failed run (danger), or plain information. */
export function reasonTone(reason: RunReason): 'warning' | 'danger' | 'info' {
  if (reason.kind === 'failed') return 'danger';
  return ATTENTION_KINDS.has(reason.kind) ? 'warning' : 'info';
}

export const REASON_FORMAT = { time: (ms: number) => formatTime(ms) };

export function WhyNotDone({
  profile,
  runId,
  reasons,
  onNotify,
  onOpenRun,
}: {
  profile: ProfileView;
  /** For Run now on the local stack (a sleep, a retry, a wait's timeout). */
  runId?: string;
  reasons: RunReason[];
  onNotify: (eventId: string) => void;
  onOpenRun: (runId: string, createdAt?: number) => void;
}) {
  const navigate = useNav((state) => state.navigate);
  if (reasons.length === 0) return null;
  const ended = reasons[0]?.kind === 'canceled' || reasons[0]?.kind === 'failed';
  return (
    <section className="wf-why" aria-label="Why not done" data-testid="why-not-done">
      <h3 className="section-title">{ended ? 'How it ended' : 'Why not done'}</h3>
      <ul className="wf-why-list">
        {reasons.map((reason, index) => (
          <li key={index} className={`wf-why-item tone-${reasonTone(reason)}`} data-kind={reason.kind}>
            <span className="wf-why-text">
              <Words text={reasonText(reason, REASON_FORMAT)} />
            </span>
            {/* The actions stay together on one row; the sentence beside them wraps instead. */}
            <span className="wf-why-actions">
              {reason.kind === 'waiting' && !reason.webhook ? (
                <WriteButton profile={profile} size="sm" onClick={() => onNotify(reason.eventId)}>
                  Notify…
                </WriteButton>
              ) : null}
              {(reason.kind === 'sleeping' || reason.kind === 'retrying' || reason.kind === 'scheduled') &&
              reason.messageId ? (
                <RunNowButton
                  profile={profile}
                  item={{ kind: 'message', messageId: reason.messageId }}
                  waiting
                />
              ) : null}
              {reason.kind === 'waiting' && reason.deadline !== undefined && runId ? (
                <RunNowButton
                  profile={profile}
                  item={{ kind: 'workflowRun', workflowRunId: runId }}
                  label="Time out now"
                />
              ) : null}
              {reason.kind === 'invoked' ? (
                <InAppLink
                  href={`#/workflows/run/${encodeURIComponent(reason.child.workflowRunId)}`}
                  onOpen={() => onOpenRun(reason.child.workflowRunId, reason.child.workflowRunCreatedAt)}
                >
                  Open the invoked run
                </InAppLink>
              ) : null}
              {reason.kind === 'held' ? (
                <InAppLink
                  href={formatHash({ area: 'messages', params: ['flow-control', reason.key] })}
                  onOpen={() => navigate('messages', 'flow-control', reason.key)}
                >
                  Open the key on the Flow control screen
                </InAppLink>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
