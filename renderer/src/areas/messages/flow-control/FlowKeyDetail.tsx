// One flow-control key beside the list: why its messages wait, its numbers, a chart of waiting and
// delivered over the last minutes, the message that brought the user here (if any), and the actions —
// each one asked first as a dangerous action (type the key on production profiles).
import { useMemo, useState } from 'react';
import type { FlowControlInfo } from '../../../../../shared/messages/flow-control';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { Chart, type ChartSeries } from '../../../ui/Chart';
import { confirmDanger } from '../../../ui/confirm-danger';
import { DetailPanelHeader } from '../../../ui/DetailPanelHeader';
import { DetailSection } from '../../../ui/DetailSection';
import '../../../ui/detail-panel.css';
import { Fact } from '../../../ui/Fact';
import { formatTime } from '../../../ui/format';
import { InAppLink } from '../../../ui/InAppLink';
import { Callout } from '../../../ui/misc';
import { QueryView } from '../../../ui/QueryView';
import { toast } from '../../../ui/toast';
import { WriteButton } from '../../../ui/WriteButton';
import { openLogs } from '../logs/log-filters';
import { explainHold, explainKey, FLOW_CONTROL_REFRESH_MS, periodText, usage } from './flow-control-model';
import { FlowKeyBadges } from './FlowKeyBadges';
import { Meter } from './FlowKeyList';
import { PinDialog } from './PinDialog';
import { pollEvery } from '../../../bridge/polling';

const HISTORY_SERIES: readonly ChartSeries[] = [
  { label: 'Waiting', color: '--warning' },
  { label: 'Delivered', color: '--success', kind: 'bars' },
];

export function FlowKeyDetail({
  profile,
  flowKey,
  messageId,
}: {
  profile: ProfileView;
  flowKey: string;
  messageId?: string;
}) {
  const input = { profileId: profile.id, key: flowKey };
  const query = useBridgeQuery('messages.flowControl.get', input, {
    refetchInterval: pollEvery(FLOW_CONTROL_REFRESH_MS),
  });
  const info = query.data;
  return (
    <aside className="detail-panel fc-detail" aria-label="Flow-control key">
      <DetailPanelHeader kind="Flow-control key" id={flowKey}>
        {info ? <KeyActions profile={profile} info={info} /> : null}
      </DetailPanelHeader>
      <div className="detail-panel-body fc-detail-body">
        <QueryView query={query} failure="Could not load this key.">
          {(info) => (
            <>
              <p className="fc-explain" data-testid="fc-explain">
                {explainKey(info)}
              </p>
              {messageId ? <HeldMessage profile={profile} flowKey={flowKey} messageId={messageId} /> : null}
              <KeyFacts info={info} />
              <History profile={profile} flowKey={flowKey} />
              <ShowLogs flowKey={flowKey} />
            </>
          )}
        </QueryView>
      </div>
    </aside>
  );
}

function KeyFacts({ info }: { info: FlowControlInfo }) {
  const inflight = usage(info.parallelismCount, info.parallelismMax);
  const rate = usage(info.rateCount, info.rateMax);
  return (
    <dl className="kv-list detail-facts" data-testid="fc-facts">
      <Fact label="State">
        {info.isPaused || info.isPinnedParallelism || info.isPinnedRate ? (
          <FlowKeyBadges info={info} />
        ) : (
          'Active'
        )}
      </Fact>
      <Fact label="Waiting" value={info.waitListSize.toLocaleString()} />
      <Fact label="In flight">
        <Meter text={inflight.text} ratio={inflight.ratio} label="In flight" />
      </Fact>
      <Fact label="Rate in this period">
        <Meter
          text={info.rateMax > 0 ? `${rate.text} ${periodText(info.ratePeriod)}` : rate.text}
          ratio={rate.ratio}
          label="Rate used"
        />
      </Fact>
      <Fact
        label="Period started"
        value={info.ratePeriodStart > 0 ? formatTime(info.ratePeriodStart * 1000) : undefined}
      />
    </dl>
  );
}

function HeldMessage({
  profile,
  flowKey,
  messageId,
}: {
  profile: ProfileView;
  flowKey: string;
  messageId: string;
}) {
  const hold = useBridgeQuery(
    'messages.flowControl.hold',
    { profileId: profile.id, key: flowKey, messageId },
    { refetchInterval: pollEvery(FLOW_CONTROL_REFRESH_MS) },
  );
  return (
    <Callout tone="info" title={<span className="mono">{messageId}</span>}>
      <span data-testid="fc-hold">
        {hold.error
          ? errorMessage(hold.error)
          : hold.data === undefined
            ? 'Looking for it in the waitlist…'
            : hold.data === null
              ? 'This service does not say where a message waits; the key’s numbers above tell why its messages wait.'
              : explainHold(hold.data)}
      </span>
    </Callout>
  );
}

function History({ profile, flowKey }: { profile: ProfileView; flowKey: string }) {
  const history = useBridgeQuery(
    'messages.flowControl.history',
    { profileId: profile.id, key: flowKey },
    { refetchInterval: pollEvery(5_000) },
  );
  const data = useMemo(() => {
    const points = history.data?.points ?? [];
    return [
      points.map((point) => point.at / 1000),
      points.map((point) => point.waiting),
      points.map((point) => point.delivered),
    ];
  }, [history.data]);
  return (
    <DetailSection title="Last 10 minutes">
      <QueryView query={history} failure="Could not load the history.">
        {(kept) =>
          kept === null ? (
            <p className="muted">This service keeps no history of its keys; the local stack does.</p>
          ) : (
            <>
              <Chart
                className="fc-chart"
                label={`Waiting and delivered per ${kept.bucketMs / 1000} s`}
                series={HISTORY_SERIES}
                data={data}
                width="fill"
                height={150}
              />
              <div className="fc-legend muted">
                <span className="fc-legend-item fc-legend-waiting">Waiting (most at once)</span>
                <span className="fc-legend-item fc-legend-delivered">
                  Delivered per {kept.bucketMs / 1000} s
                </span>
              </div>
            </>
          )
        }
      </QueryView>
    </DetailSection>
  );
}

function ShowLogs({ flowKey }: { flowKey: string }) {
  return (
    <InAppLink href="#/messages/logs" onOpen={() => openLogs({ flowControlKey: flowKey })}>
      Messages of this key in the logs
    </InAppLink>
  );
}

type Action = 'pause' | 'resume' | 'unpin' | 'resetRate';

function KeyActions({ profile, info }: { profile: ProfileView; info: FlowControlInfo }) {
  const key = info.flowControlKey;
  const [pinning, setPinning] = useState(false);
  const done = (what: string) => ({
    onSuccess: () => toast.success(`${key}: ${what}`),
    onError: (error: unknown) => toast.error(`Could not change ${key}`, errorMessage(error)),
  });
  const setPaused = useBridgeMutation('messages.flowControl.setPaused', done('done'));
  const unpin = useBridgeMutation('messages.flowControl.unpin', done('unpinned'));
  const resetRate = useBridgeMutation('messages.flowControl.resetRate', done('rate period reset'));
  const busy = setPaused.isPending || unpin.isPending || resetRate.isPending;
  const pinned = info.isPinnedParallelism || info.isPinnedRate;

  const ask = async (action: Action) => {
    const questions: Record<Action, { title: string; body: string; confirmLabel: string }> = {
      pause: {
        title: `Pause ${key}?`,
        body: 'No message or workflow step of this key starts until you resume it (attempts in flight finish). Nothing is lost: they wait, and resume releases them in order.',
        confirmLabel: 'Pause key',
      },
      resume: {
        title: `Resume ${key}?`,
        body: `${info.waitListSize === 1 ? 'The waiting message starts' : `The ${info.waitListSize.toLocaleString()} waiting messages start`} again, in order, as the key's limits allow.`,
        confirmLabel: 'Resume key',
      },
      unpin: {
        title: `Unpin ${key}?`,
        body: 'The next message that carries other settings changes the key’s parallelism and rate again; until then the pinned values stay.',
        confirmLabel: 'Unpin',
      },
      resetRate: {
        title: `Reset the rate of ${key}?`,
        body: 'The current period’s count goes back to 0 and a new period starts now: up to the full rate may start at once.',
        confirmLabel: 'Reset rate',
      },
    };
    if (!(await confirmDanger(profile, { ...questions[action], typeOnProd: key }))) return;
    const input = { profileId: profile.id, key };
    if (action === 'pause' || action === 'resume') setPaused.mutate({ ...input, paused: action === 'pause' });
    else if (action === 'unpin')
      unpin.mutate({ ...input, parallelism: info.isPinnedParallelism, rate: info.isPinnedRate });
    else resetRate.mutate(input);
  };

  return (
    <>
      <WriteButton
        profile={profile}
        size="sm"
        variant={info.isPaused ? 'primary' : 'default'}
        busy={setPaused.isPending}
        disabled={busy}
        onClick={() => void ask(info.isPaused ? 'resume' : 'pause')}
      >
        {info.isPaused ? 'Resume' : 'Pause'}
      </WriteButton>
      <WriteButton profile={profile} size="sm" disabled={busy} onClick={() => setPinning(true)}>
        Pin…
      </WriteButton>
      {pinned ? (
        <WriteButton
          profile={profile}
          size="sm"
          busy={unpin.isPending}
          disabled={busy}
          onClick={() => void ask('unpin')}
        >
          Unpin
        </WriteButton>
      ) : null}
      <WriteButton
        profile={profile}
        size="sm"
        busy={resetRate.isPending}
        disabled={busy || info.rateMax === 0}
        title={info.rateMax === 0 ? 'This key has no rate limit' : undefined}
        onClick={() => void ask('resetRate')}
      >
        Reset rate
      </WriteButton>
      {pinning ? <PinDialog profile={profile} info={info} onClose={() => setPinning(false)} /> : null}
    </>
  );
}
