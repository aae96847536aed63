import { useEffect, useRef } from 'react';
import { errorMessage } from '../../bridge/client';
import { useBridgeMutation } from '../../bridge/react';
import { PageHeader } from '../../shell/PageHeader';
import { STACK_STATE_LABEL, useStackStatus } from '../../shell/data';
import { Button } from '../../ui/Button';
import { RefreshIcon } from '../../ui/icons';
import { Callout, Spinner } from '../../ui/misc';
import { toast } from '../../ui/toast';
import { ClockCard } from '../../clock/ClockCard';
import { formatLogLine } from './log-line';
import { plural } from '../../ui/format';
import { confirmStackRestart, isRunning } from '../../shell/stack-restart';

export default function StackArea() {
  const status = useStackStatus();
  const restart = useBridgeMutation('stack.restart', {
    onError: (error) => toast.error('Could not restart the local stack', errorMessage(error)),
  });
  const logRef = useRef<HTMLPreElement>(null);
  const lines = status?.log.length ?? 0;
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [lines]);

  return (
    <>
      <PageHeader
        title="Local stack"
        subtitle="The message, workflow and KV services on this machine — the Local profile's environment"
        actions={
          <Button
            variant="primary"
            icon={<RefreshIcon />}
            busy={restart.isPending}
            onClick={async () => {
              if (isRunning(status) && !(await confirmStackRestart())) return;
              restart.mutate({});
            }}
          >
            {isRunning(status) ? 'Restart' : 'Start'}
          </Button>
        }
      />
      <div className="page-body stack" style={{ gap: 16, maxWidth: 980 }}>
        {!status ? (
          <Spinner />
        ) : (
          <>
            {status.state === 'failed' || status.state === 'unavailable' ? (
              <Callout tone="danger" title={STACK_STATE_LABEL[status.state]}>
                {status.message}
              </Callout>
            ) : status.kvError ? (
              <Callout tone="warning" title="KV service unavailable.">
                {status.kvError}
              </Callout>
            ) : null}
            <section className="card">
              <div className="card-header">
                <span className={`dot dot-${status.state}`} aria-hidden="true" />
                <h2 data-testid="stack-page-state">{STACK_STATE_LABEL[status.state]}</h2>
                {/* Said once: a failure's message is in the callout above. */}
                {status.message !== `${STACK_STATE_LABEL[status.state]}.` &&
                status.state !== 'failed' &&
                status.state !== 'unavailable' ? (
                  <span className="muted">{status.message}</span>
                ) : null}
              </div>
              <div className="card-body">
                <dl className="kv-list">
                  <dt>Message + workflow API</dt>
                  <dd className="mono">{status.messagesUrl ?? '—'}</dd>
                  <dt>KV REST</dt>
                  <dd className="mono">{status.kvUrl ?? '—'}</dd>
                  <dt>Data folder</dt>
                  <dd className="mono">{status.dataDir ?? '—'}</dd>
                  <dt>Process</dt>
                  <dd className="mono">{status.pid ? `pid ${status.pid}` : '—'}</dd>
                </dl>
              </div>
            </section>
            <ClockCard />
            <section className="stack" style={{ gap: 8 }}>
              <h3 className="section-title">Log (last {plural(status.log.length, 'line')})</h3>
              <pre className="log-view" ref={logRef} role="region" aria-label="Local stack log" tabIndex={0}>
                {status.log.length
                  ? status.log.map((raw, index) => <LogRow key={index} raw={raw} />)
                  : 'No output yet.'}
              </pre>
            </section>
          </>
        )}
      </div>
    </>
  );
}

function LogRow({ raw }: { raw: string }) {
  const line = formatLogLine(raw);
  return (
    <span className="log-line">
      {line.time ? <span className="log-time">{line.time} </span> : null}
      {line.level ? (
        <span className={`log-level log-level-${line.level}`}>{line.level.toUpperCase()} </span>
      ) : null}
      {line.message}
      {line.fields ? <span className="log-fields"> {line.fields}</span> : null}
    </span>
  );
}
