// The one dialog of every job in the console (message DLQ retry/delete, message cancel, workflow DLQ
// restart/resume/delete/failure callback, workflow run cancel, KV delete by pattern, a resumed job). The
// job opens with the dialog: main lists the target while "Listing…" shows, the count that comes back is
// the preview (and exactly what the job acts on), the service's part explains the action and takes its
// overrides, then type-to-confirm where the profile or an "all" target asks for it, the start, progress,
// and the summary (JobSummaryView) in the service's words, with the service's own part. Closing the
// dialog — Cancel, Escape, the backdrop — at any point cancels the job: its scans at once, its writes
// before the next chunk. While main waits for a service that failed for a moment (unreachable, 5xx, 429:
// the local stack restarting, a cloud blip), the running job says so and counts down to the next ask.
import { type ReactNode, useEffect, useState } from 'react';
import type { JobSummary } from '../../../../shared/bridge/job';
import type { InputOf, JobName, StartOf } from '../../../../shared/bridge/procedures';
import type { ProfileView } from '../../../../shared/profiles';
import { type BridgeJobState, type JobProgressState, useBridgeJob } from '../../bridge/react';
import { Button } from '../Button';
import { useNow } from '../use-now';
import { needsConfirmation } from '../confirm-danger';
import { Dialog } from '../Dialog';
import { Callout } from '../misc';
import { ProgressBar } from '../ProgressBar';
import { TypeToConfirm } from '../TypeToConfirm';
import { JobSummaryView } from './JobSummaryView';

/** What the two DLQs' jobs say (the defaults); jobs over other things word their own. */
const DEFAULT_HINTS = {
  capped: 'The job acts on the entries listed; run it again for the rest.',
  running: 'Cancel stops before the next request; the journal keeps where the job got to.',
  stopped: 'A request already sent when you cancelled completes; resume the rest from Jobs.',
};

export interface JobDialogProps<N extends JobName> {
  profile: ProfileView;
  procedure: N;
  /**
   * The job to open (its input but the profile, which `profile` gives); null while the dialog's own fields
   * come first (KV's pattern). A new object each render is fine: the job opens again only when it changes.
   */
  input: Omit<InputOf<N>, 'profileId'> | null;
  title: string;
  /** "Retry", "Delete": the start button and the progress bar's label. */
  verb: string;
  /** "250 entries", "3 runs". */
  unit: (count: number) => string;
  /** The target in a sentence: "every entry matching label nightly" (default: the input's description). */
  description?: string;
  danger: boolean;
  /** The start's options (overrides): null while the service's form has a problem; omitted, none. */
  options?: StartOf<N> | null;
  /** Shown before the job opens (the pattern of a KV delete). */
  setup?: ReactNode;
  /** The footer's button before the job opens ("Count matching keys"). */
  setupAction?: { label: string; disabled: boolean; onClick: () => void };
  /** Beside the count: what the job does, its overrides. */
  preview?: ReactNode;
  /** Under the count when the listing stopped at the limit: what happens to the rest (default: a DLQ's). */
  cappedNote?: string;
  /** Under the running progress bar: where Cancel stops (default: a DLQ job's). */
  runningHint?: string;
  /** After "n of m processed" when cancelled: what is left and where (default: a DLQ job's). */
  stoppedHint?: string;
  /** The summary's words: "3 of 3 cancelled." and the failures table's item column ("Run", "Key"). */
  verbed: string;
  itemLabel: string;
  /** The overrides the job ran with, listed in the summary. */
  overrides?: Record<string, unknown>;
  /** The service's own part of the summary: after the result line, and under it (what the job created). */
  summaryNotes?: ReactNode;
  summaryDetail?: (summary: JobSummary) => ReactNode;
  onClose: () => void;
  /** The job ended or was cancelled after it started: what it acted on has changed. */
  onEnded?: () => void;
}

export function JobDialog<N extends JobName>(props: JobDialogProps<N>) {
  const { profile, onClose, onEnded } = props;
  const job = useBridgeJob(
    props.procedure,
    props.input === null ? null : ({ ...props.input, profileId: profile.id } as InputOf<N>),
  );
  // Every job's summary is main's runner's JobSummary (shared/bridge/job.ts).
  const summary = job.summary as JobSummary | undefined;
  const [typed, setTyped] = useState('');
  const all = isAllTarget(props.input);
  const confirmWord = profile.env === 'prod' ? profile.name : all ? 'all' : undefined;
  const started = job.progress !== undefined;
  // "Cancel" beside "Cancel 3 runs" reads as two ways to cancel: for a cancel job the ways out say so.
  const cancelJob = /^cancel\b/i.test(props.verb);
  const over = job.phase === 'ended' || job.phase === 'stopped' || job.phase === 'failed';

  useEffect(() => {
    if (over && started) onEnded?.();
    // Tell the screen once per ending, not on every render.
  }, [over]); // eslint-disable-line react-hooks/exhaustive-deps

  const description = props.description ?? describedIn(props.input);
  const options = props.options === undefined ? ({} as StartOf<N>) : props.options;
  const canStart =
    job.phase === 'ready' &&
    job.found > 0 &&
    options !== null &&
    !profile.readOnly &&
    (confirmWord === undefined || typed === confirmWord);
  const start = () => {
    if (canStart && options !== null) job.start(options);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={props.title}
      className="dialog-wide"
      footer={
        job.phase === 'running' ? (
          <Button variant="danger" onClick={job.cancel}>
            {cancelJob ? 'Stop' : 'Cancel'}
          </Button>
        ) : over ? (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>{cancelJob ? 'Go back' : 'Cancel'}</Button>
            {job.phase === 'idle' && props.setupAction ? (
              <Button
                variant="primary"
                disabled={props.setupAction.disabled}
                onClick={props.setupAction.onClick}
              >
                {props.setupAction.label}
              </Button>
            ) : (
              <Button
                variant={props.danger ? 'danger' : 'primary'}
                disabled={!canStart}
                busy={job.phase === 'collecting'}
                onClick={start}
              >
                {job.phase === 'ready' ? `${props.verb} ${props.unit(job.found)}` : props.verb}
              </Button>
            )}
          </>
        )
      }
    >
      {props.setup && !started ? props.setup : null}
      {job.phase === 'collecting' ? (
        <div className="stack">
          <ProgressBar label="Listing" max={0}>
            Listing what the job will touch… {props.unit(job.found)} so far
          </ProgressBar>
          {/* The listing waits through an outage too (the runner's `waiting` before the start). */}
          {job.waiting ? <OutageWait waiting={job.waiting} /> : null}
        </div>
      ) : job.phase === 'ready' ? (
        <div className="stack" data-testid="bulk-preview">
          <p>
            {props.verb} <strong>{description}</strong>:{' '}
            <strong data-testid="bulk-count">{props.unit(job.found)}</strong>
            {job.capped ? ' (at least: listing stopped there)' : ''}.
          </p>
          {job.capped ? <p className="muted">{props.cappedNote ?? DEFAULT_HINTS.capped}</p> : null}
          {job.found === 0 ? <Callout tone="info">Nothing to do: nothing matches.</Callout> : null}
          {props.preview}
          {profile.readOnly ? (
            <Callout tone="warning">This profile is read-only: the console will not send this.</Callout>
          ) : null}
          {confirmWord !== undefined && job.found > 0 ? (
            <TypeToConfirm
              word={confirmWord}
              typed={typed}
              onType={setTyped}
              why={
                profile.env === 'prod' ? 'Production profile:' : 'This acts on everything, not on a filter:'
              }
              onEnter={start}
            />
          ) : needsConfirmation(profile) || all ? null : (
            <p className="faint">This profile does not ask before dangerous actions.</p>
          )}
        </div>
      ) : job.phase === 'running' ? (
        <div className="stack" data-testid="bulk-running">
          <ProgressBar
            label={`${props.verb} progress`}
            value={job.progress?.processed}
            max={job.progress?.total || 1}
            tone={job.progress && job.progress.failed > 0 ? 'danger' : 'accent'}
          >
            {progressText(job.progress)}
          </ProgressBar>
          {job.waiting ? <OutageWait waiting={job.waiting} /> : null}
          <p className="faint">{props.runningHint ?? DEFAULT_HINTS.running}</p>
        </div>
      ) : job.phase === 'stopped' ? (
        <Callout tone="warning" title="Cancelled.">
          {job.progress
            ? `${job.progress.processed.toLocaleString()} of ${job.progress.total.toLocaleString()} processed (${job.progress.succeeded.toLocaleString()} succeeded). `
            : 'Nothing was sent. '}
          {started ? (props.stoppedHint ?? DEFAULT_HINTS.stopped) : ''}
        </Callout>
      ) : job.phase === 'failed' ? (
        <Callout tone="danger" title={started ? 'The job stopped.' : 'The job could not start.'}>
          {job.error?.message}
        </Callout>
      ) : job.phase === 'ended' && summary !== undefined ? (
        <JobSummaryView
          summary={summary}
          verbed={props.verbed}
          itemLabel={props.itemLabel}
          overrides={props.overrides}
          notes={props.summaryNotes}
        >
          {props.summaryDetail?.(summary)}
        </JobSummaryView>
      ) : null}
    </Dialog>
  );
}

/** "The service is unavailable — trying again in 4 s (attempt 3).", counting down, and the service's words. */
function OutageWait({ waiting }: { waiting: NonNullable<BridgeJobState<unknown>['waiting']> }) {
  const left = Math.ceil((waiting.at + waiting.delayMs - useNow(1000)) / 1000);
  const when = left > 0 ? `in ${left} s` : 'now';
  return (
    <div data-testid="job-waiting">
      <Callout
        tone="warning"
        title={`The service is unavailable — trying again ${when} (attempt ${waiting.attempt}).`}
      >
        <span className="faint">{waiting.reason}</span>
      </Callout>
    </div>
  );
}

function progressText(progress: JobProgressState | undefined): string {
  if (!progress) return 'Starting…';
  const failed = progress.failed ? ` · ${progress.failed.toLocaleString()} failed` : '';
  return `${progress.processed.toLocaleString()} of ${progress.total.toLocaleString()} processed · ${progress.succeeded.toLocaleString()} succeeded${failed}`;
}

/** The target's sentence that goes to the journal with the input (jobInput's `description`). */
function describedIn(input: unknown): string {
  return (input as { description?: string } | null)?.description ?? '';
}

function isAllTarget(input: unknown): boolean {
  const target = (input as { target?: { all?: unknown } } | null)?.target;
  return target?.all === true;
}
