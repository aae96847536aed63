// Bulk delete by pattern: first a full scan counts what matches (the preview), then UNLINK in chunks with a
// progress bar; Cancel closes the stream and main stops between chunks; a summary says what was done. An
// empty or match-everything pattern is refused (by the schema in main too); production asks for the
// profile's name.
import { useEffect, useRef, useState } from 'react';
import type { BridgeErrorData } from '../../../../../shared/bridge/errors';
import type { KvBulkEvent, KvType } from '../../../../../shared/bridge/procedures/kv/keys';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridge } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { Dialog } from '../../../ui/Dialog';
import { TextField } from '../../../ui/fields';
import { Callout } from '../../../ui/misc';
import { ProgressBar } from '../../../ui/ProgressBar';
import { plural } from '../../../ui/format';

type Phase =
  | { step: 'edit' }
  | { step: 'counting'; matched: number }
  | { step: 'counted'; matched: number }
  | { step: 'deleting'; matched: number; deleted: number; total: number }
  | { step: 'summary'; deleted: number; total: number; cancelled: boolean; error?: string };

export function BulkDeleteDialog({
  profile,
  initialPattern,
  type,
  onClose,
}: {
  profile: ProfileView;
  initialPattern: string;
  type?: KvType;
  onClose: (changed: boolean) => void;
}) {
  const bridge = useBridge();
  const [pattern, setPattern] = useState(initialPattern);
  const [phase, setPhase] = useState<Phase>({ step: 'edit' });
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const stop = useRef<(() => void) | undefined>(undefined);
  useEffect(() => () => stop.current?.(), []);

  const patternProblem = !pattern.trim()
    ? 'a pattern is needed'
    : /^\*+$/.test(pattern.trim())
      ? 'a pattern that matches every key is refused: use FLUSHDB in the workbench'
      : undefined;

  /** Streams a bulk job over the keys matching the pattern: each batch's latest event, then the end. */
  const run = (
    procedure: 'kv.keys.bulkCount' | 'kv.keys.bulkDelete',
    onLatest: (event: KvBulkEvent) => void,
    onEnd: (last: KvBulkEvent | undefined, err: BridgeErrorData | undefined) => void,
  ) => {
    let last: KvBulkEvent | undefined;
    stop.current = bridge.open(
      procedure,
      { profileId: profile.id, pattern: pattern.trim(), type },
      {
        onEvents: (events) => {
          last = events[events.length - 1] ?? last;
          if (last) onLatest(last);
        },
        onEnd: (err) => {
          stop.current = undefined;
          onEnd(last, err);
        },
      },
    );
  };

  const count = () => {
    setError(undefined);
    setPhase({ step: 'counting', matched: 0 });
    run(
      'kv.keys.bulkCount',
      (last) => setPhase({ step: 'counting', matched: last.matched }),
      (last, err) => {
        if (err) {
          setError(err.message);
          setPhase({ step: 'edit' });
        } else setPhase({ step: 'counted', matched: last?.matched ?? 0 });
      },
    );
  };

  const remove = (total: number) => {
    setPhase({ step: 'deleting', matched: 0, deleted: 0, total });
    run(
      'kv.keys.bulkDelete',
      (last) => setPhase({ step: 'deleting', matched: last.matched, deleted: last.deleted, total }),
      (last, err) =>
        setPhase({
          step: 'summary',
          deleted: last?.deleted ?? 0,
          total,
          cancelled: !err && !last?.done,
          error: err?.message,
        }),
    );
  };

  const cancel = () => {
    const current = stop.current;
    stop.current = undefined;
    current?.();
    if (phase.step === 'counting') setPhase({ step: 'edit' });
    if (phase.step === 'deleting')
      setPhase({ step: 'summary', deleted: phase.deleted, total: phase.total, cancelled: true });
  };

  const needsName = profile.env === 'prod';
  const busy = phase.step === 'counting' || phase.step === 'deleting';
  return (
    <Dialog
      open
      onClose={() => {
        stop.current?.();
        onClose(phase.step === 'summary' || phase.step === 'deleting');
      }}
      title="Bulk delete by pattern"
      footer={
        <>
          {busy ? (
            <Button onClick={cancel}>Cancel</Button>
          ) : (
            <Button onClick={() => onClose(phase.step === 'summary')}>
              {phase.step === 'summary' ? 'Close' : 'Cancel'}
            </Button>
          )}
          {phase.step === 'edit' || phase.step === 'counting' ? (
            <Button
              variant="primary"
              disabled={!!patternProblem || busy}
              busy={phase.step === 'counting'}
              onClick={count}
            >
              Count matching keys
            </Button>
          ) : null}
          {phase.step === 'counted' ? (
            <Button
              variant="danger"
              disabled={phase.matched === 0 || (needsName && typed !== profile.name)}
              onClick={() => remove(phase.matched)}
            >
              Delete {plural(phase.matched, 'key')}
            </Button>
          ) : null}
        </>
      }
    >
      <TextField
        label="MATCH pattern"
        mono
        value={pattern}
        autoFocus
        disabled={phase.step !== 'edit'}
        error={pattern ? patternProblem : undefined}
        hint={type ? `Only keys of type ${type} (the browser's type filter).` : 'Glob-style: * ? [abc]'}
        onChange={(event) => setPattern(event.target.value)}
      />
      {error ? <Callout tone="danger" title={error} /> : null}
      {phase.step === 'counting' ? (
        <ProgressBar label="Counting" max={0}>
          Scanning… {phase.matched.toLocaleString()} matching keys so far
        </ProgressBar>
      ) : null}
      {phase.step === 'counted' ? (
        <>
          <Callout
            tone={phase.matched ? 'warning' : 'info'}
            title={`${plural(phase.matched, 'key')} ${phase.matched === 1 ? 'matches' : 'match'} ${pattern}.`}
          >
            {phase.matched
              ? 'They are removed with UNLINK in chunks of 500; this cannot be undone. Keys created meanwhile that match are removed too.'
              : 'Nothing to delete.'}
          </Callout>
          {needsName && phase.matched ? (
            <TextField
              label={
                <>
                  Type <code>{profile.name}</code> to confirm
                </>
              }
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
            />
          ) : null}
        </>
      ) : null}
      {phase.step === 'deleting' ? (
        <ProgressBar
          label="Deleting"
          value={phase.deleted}
          max={Math.max(phase.total, phase.deleted)}
          tone="danger"
        >
          {phase.deleted.toLocaleString()} of {phase.total.toLocaleString()} deleted
        </ProgressBar>
      ) : null}
      {phase.step === 'summary' ? (
        <Callout
          tone={phase.error ? 'danger' : phase.cancelled ? 'warning' : 'success'}
          title={`${phase.cancelled ? 'Cancelled: ' : phase.error ? 'Stopped: ' : ''}${phase.deleted.toLocaleString()} of ${plural(phase.total, 'key')} deleted.`}
        >
          {phase.error}
        </Callout>
      ) : null}
    </Dialog>
  );
}
