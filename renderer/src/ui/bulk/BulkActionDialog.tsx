// The one flow of every bulk job in the console (message DLQ retry/delete, workflow DLQ restart, resume,
// delete, failure callback): preview — the service's part says what the job does, to how many entries,
// with which overrides; this part adds the read-only notice and type-to-confirm on production —, run (a
// bridge stream with a progress bar; Cancel closes the stream, so no further chunk is sent), and a
// summary the service's part renders. Leaving the dialog any way while the job runs closes the stream.
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { BridgeErrorData } from '../../../../shared/bridge/errors';
import type { ProfileView } from '../../../../shared/profiles';
import { Button } from '../Button';
import { needsConfirmation } from '../confirm-danger';
import { Dialog } from '../Dialog';
import { TextField } from '../fields';
import { Callout } from '../misc';
import { ProgressBar } from '../ProgressBar';

export interface BulkProgress {
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
}

/** What a bulk job's stream sends; each service's event type fits this shape. */
export type BulkJobEvent<Summary> =
  | { type: 'collecting'; found: number }
  | { type: 'started' }
  | ({ type: 'progress' } & BulkProgress)
  | { type: 'done'; summary: Summary };

export interface BulkJobHandlers<Summary> {
  onEvents(events: BulkJobEvent<Summary>[]): void;
  onEnd(error?: BridgeErrorData): void;
}

type Phase<Summary> =
  | { kind: 'preview' }
  | { kind: 'running'; collected?: number; progress?: BulkProgress }
  | { kind: 'done'; summary: Summary }
  | { kind: 'stopped'; progress?: BulkProgress }
  | { kind: 'failed'; error: BridgeErrorData };

/** What a screen's bulk dialog (the message DLQ's, the workflow DLQ's) is opened with. */
export interface BulkDialogProps<Request> {
  profile: ProfileView;
  request: Request;
  onClose: () => void;
  /** Called when the job ends or stops: what it acted on has changed. */
  onChanged: () => void;
}

export interface BulkActionDialogProps<Summary> {
  profile: ProfileView;
  title: string;
  /** "Retry", "Restart": the progress bar's label. */
  verb: string;
  /** The start button, e.g. "Delete 250 entries". */
  startLabel: string;
  danger: boolean;
  /** The service's part is complete (a count, no override errors); read-only and confirmation are added here. */
  ready: boolean;
  /** What the job does, to what, with which overrides. */
  preview: ReactNode;
  /** Opens the job's bridge stream and returns its close function. */
  start: (handlers: BulkJobHandlers<Summary>) => () => void;
  /** Under the running progress bar: where Cancel stops. */
  runningHint: string;
  /** After "n of m processed" when cancelled: what is left and where. */
  stoppedHint: string;
  summary: (summary: Summary) => ReactNode;
  onClose: () => void;
  /** Called when the job ends or stops: the list has changed. */
  onChanged: () => void;
}

export function BulkActionDialog<Summary>(props: BulkActionDialogProps<Summary>) {
  const { profile, onClose, onChanged } = props;
  const [phase, setPhase] = useState<Phase<Summary>>({ kind: 'preview' });
  const [typed, setTyped] = useState('');
  const closeStream = useRef<(() => void) | null>(null);
  const confirmWord = profile.env === 'prod' ? profile.name : undefined;

  useEffect(() => () => closeStream.current?.(), []);

  const start = () => {
    setPhase({ kind: 'running' });
    closeStream.current = props.start({
      onEvents: (events) => {
        for (const event of events) {
          if (event.type === 'collecting') setPhase({ kind: 'running', collected: event.found });
          else if (event.type === 'progress') setPhase({ kind: 'running', progress: event });
          else if (event.type === 'done') setPhase({ kind: 'done', summary: event.summary });
        }
      },
      onEnd: (error) => {
        closeStream.current = null;
        if (error) setPhase({ kind: 'failed', error });
        onChanged();
      },
    });
  };
  const stop = () => {
    closeStream.current?.();
    closeStream.current = null;
    setPhase((current) => ({
      kind: 'stopped',
      progress: current.kind === 'running' ? current.progress : undefined,
    }));
    onChanged();
  };

  const running = phase.kind === 'running';
  const blocked = !props.ready || profile.readOnly || (confirmWord !== undefined && typed !== confirmWord);

  return (
    <Dialog
      open
      onClose={() => (running ? undefined : onClose())}
      title={props.title}
      className="dialog-wide"
      footer={
        phase.kind === 'preview' ? (
          <>
            <Button onClick={onClose}>Cancel</Button>
            <Button variant={props.danger ? 'danger' : 'primary'} disabled={blocked} onClick={start}>
              {props.startLabel}
            </Button>
          </>
        ) : running ? (
          <Button variant="danger" onClick={stop}>
            Cancel
          </Button>
        ) : (
          <Button variant="primary" onClick={onClose}>
            Done
          </Button>
        )
      }
    >
      {phase.kind === 'preview' ? (
        <div className="stack" data-testid="bulk-preview">
          {props.preview}
          {profile.readOnly ? (
            <Callout tone="warning">This profile is read-only: the console will not send this.</Callout>
          ) : null}
          {confirmWord !== undefined ? (
            <TextField
              label={
                <>
                  Production profile: type <code>{confirmWord}</code> to confirm
                </>
              }
              value={typed}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setTyped(event.target.value)}
            />
          ) : needsConfirmation(profile) ? null : (
            <p className="faint">This profile does not ask before dangerous actions.</p>
          )}
        </div>
      ) : phase.kind === 'running' ? (
        <div className="stack" data-testid="bulk-running">
          <ProgressBar
            label={`${props.verb} progress`}
            value={phase.progress?.processed}
            max={phase.progress?.total || 1}
            tone={phase.progress && phase.progress.failed > 0 ? 'danger' : 'accent'}
          >
            {runningText(phase)}
          </ProgressBar>
          <p className="faint">{props.runningHint}</p>
        </div>
      ) : phase.kind === 'stopped' ? (
        <Callout tone="warning" title="Cancelled.">
          {phase.progress
            ? `${phase.progress.processed} of ${phase.progress.total} processed (${phase.progress.succeeded} succeeded). `
            : 'Nothing was processed yet. '}
          {props.stoppedHint}
        </Callout>
      ) : phase.kind === 'failed' ? (
        <Callout tone="danger" title="The job stopped.">
          {phase.error.message}
        </Callout>
      ) : (
        props.summary(phase.summary)
      )}
    </Dialog>
  );
}

function runningText({ progress, collected }: { progress?: BulkProgress; collected?: number }): string {
  if (progress) {
    const failed = progress.failed ? ` · ${progress.failed} failed` : '';
    return `${progress.processed.toLocaleString()} of ${progress.total.toLocaleString()} processed · ${progress.succeeded.toLocaleString()} succeeded${failed}`;
  }
  if (collected !== undefined) return `Listing the matching entries… ${collected.toLocaleString()} found`;
  return 'Starting…';
}
