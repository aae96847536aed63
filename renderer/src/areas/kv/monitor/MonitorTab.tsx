// The live monitor: every command the KV service runs, over main's SSE stream (the bridge delivers lines
// in ~50 ms batches through a bounded buffer and counts what it had to drop). Lines are kept in a ring
// buffer with a visible cap; the list is virtualized and re-rendered at most once per animation frame.
// Pause freezes the view while lines keep being kept; Stop closes the stream (and the server's MONITOR).
// The console's own commands are tagged by main and hidden unless asked for.
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { BridgeErrorData } from '../../../../../shared/bridge/errors';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { useBridge, useBridgeMutation, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { Button } from '../../../ui/Button';
import { Switch } from '../../../ui/fields';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { Form } from '../../../ui/Form';
import { formatClock, plural } from '../../../ui/format';
import { DownloadIcon } from '../../../ui/icons';
import { useStreamRows } from '../../../ui/list/VirtualRows';
import { Badge } from '../../../ui/misc';
import '../live.css';
import {
  compileFilters,
  DEFAULT_FILTERS,
  type KeptLine,
  type MonitorFilters,
  MonitorStore,
} from './monitor-model';
import { ToolbarInput, type ToolbarInputField, ToolbarInputs } from '../../../ui/ToolbarInput';
import { ReconnectingCallout, useReconnect } from '../../../ui/use-reconnect';
import { Sparkline } from './Sparkline';

const CAPS = [1_000, 10_000, 50_000] as const;
const ROW_HEIGHT = 26;

/** The text filters (commands, key pattern, client) over the kept lines. */
// The placeholders fit their boxes; how each filter reads its text is in the title.
const FILTER_FIELDS: readonly ToolbarInputField<'commands' | 'keyPattern' | 'client'>[] = [
  {
    name: 'commands',
    label: 'Filter by command',
    placeholder: 'Commands: get set',
    title: 'Command names separated by spaces or commas; a leading - hides one (-ping)',
  },
  { name: 'keyPattern', label: 'Filter by key pattern', placeholder: 'Key pattern: user:*' },
  {
    name: 'client',
    label: 'Filter by client',
    placeholder: 'Client: lua',
    title: 'Text the client must contain: lua, an address, or a token user such as read-only',
    className: 'kv-live-client',
  },
];

export default function MonitorTab(_props: { params: string[] }) {
  return <ActiveService service="kv">{(profile) => <Monitor profile={profile} />}</ActiveService>;
}

function Monitor({ profile }: { profile: ProfileView }) {
  const bridge = useBridge();
  const [running, setRunning] = useState(true);
  const [cap, setCap] = useState<number>(10_000);
  const [filters, setFilters] = useState<MonitorFilters>(DEFAULT_FILTERS);
  const [error, setError] = useState<BridgeErrorData>();
  const [exportName, setExportName] = useState('');
  const [store] = useState(() => new MonitorStore(10_000));
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // Lost with its service (a restart, the network): opened again by itself, lines kept.
  const { attempt, lost, ended, opened, reset } = useReconnect();

  useEffect(() => {
    if (!running) return;
    const close = bridge.open(
      'kv.monitor',
      { profileId: profile.id },
      {
        onEvents: (events, dropped) => {
          if (events.some((event) => event.kind === 'open')) opened();
          store.receive(events, dropped);
        },
        onEnd: (endError) => {
          store.disconnected();
          if (ended(endError)) return;
          if (endError) setError(endError);
          setRunning(false);
        },
      },
    );
    return () => {
      close();
      store.disconnected();
    };
  }, [bridge, profile.id, running, store, attempt, ended, opened]);

  // The chart moves even when no line arrives.
  useEffect(() => {
    const timer = setInterval(() => store.tick(), 1000);
    return () => clearInterval(timer);
  }, [store]);

  const matches = useMemo(() => compileFilters(filters), [filters]);
  const { kept, paused, series } = snap;
  const shown = useMemo(() => kept.filter(matches), [kept, matches]);
  const ownKept = useMemo(() => kept.reduce((n, line) => n + (line.own ? 1 : 0), 0), [kept]);
  const current = series[series.length - 2] ?? 0;
  const dropped = snap.bridgeDropped + snap.serverDropped;

  const exporter = useBridgeMutation('kv.monitor.export');
  // Main picks where the export goes (a save dialog, or its exports folder); the page may suggest a name.
  const saving = useBridgeQuery('app.info', {}, { staleTime: Infinity }).data?.fileSaving;

  return (
    <div className="kv-live" data-testid="kv-monitor">
      <div className="toolbar kv-live-toolbar">
        <Button
          size="sm"
          variant={running ? 'default' : 'primary'}
          onClick={() => {
            if (!running) setError(undefined);
            reset();
            setRunning(!running);
          }}
          aria-label={running ? 'Stop monitor' : 'Start monitor'}
        >
          {running ? 'Stop' : 'Start'}
        </Button>
        <Button
          size="sm"
          onClick={() => store.setPaused(!paused)}
          aria-pressed={paused}
          disabled={!running && !paused}
        >
          {paused ? 'Resume' : 'Pause'}
        </Button>
        <Button size="sm" variant="ghost" onClick={() => store.clear()}>
          Clear
        </Button>
        <span
          className={`kv-live-state ${running && snap.connected ? (paused ? 'is-paused' : 'is-live') : 'is-stopped'}`}
          data-testid="monitor-state"
        >
          {running
            ? !snap.connected
              ? lost
                ? 'Reconnecting…'
                : 'Connecting…'
              : paused
                ? 'Paused — still recording'
                : 'Live'
            : 'Stopped'}
        </span>
        <span className="kv-live-rate" title="Lines per second over the last minute">
          <Sparkline values={series.slice(0, -1)} label="Lines per second, last minute" />
          <strong data-testid="monitor-rate">{current.toLocaleString()}</strong> lines/s
        </span>
        <span className="kv-live-spacer" />
        <label className="kv-live-cap">
          Keep
          <select
            className="select"
            value={cap}
            onChange={(event) => {
              const next = Number(event.target.value);
              setCap(next);
              store.resize(next);
            }}
            aria-label="Lines kept in memory"
          >
            {CAPS.map((value) => (
              <option key={value} value={value}>
                {value.toLocaleString()}
              </option>
            ))}
          </select>
          lines
        </label>
      </div>

      <div className="toolbar kv-live-filters" role="search" aria-label="Monitor filters">
        <ToolbarInputs fields={FILTER_FIELDS} values={filters} onChange={setFilters} />
        <Switch
          label={`Show this console's commands (${ownKept.toLocaleString()})`}
          checked={filters.showOwn}
          onChange={(showOwn) => setFilters({ ...filters, showOwn })}
        />
      </div>

      <div className="kv-live-stats faint" data-testid="monitor-stats">
        <span>
          Showing <strong data-testid="monitor-shown">{shown.length.toLocaleString()}</strong> of{' '}
          <strong data-testid="monitor-kept">{kept.length.toLocaleString()}</strong> kept (cap{' '}
          {cap.toLocaleString()})
        </span>
        {paused ? (
          <span>
            Recording while paused:{' '}
            <strong data-testid="monitor-kept-now">{snap.keptNow.toLocaleString()}</strong> kept now
          </span>
        ) : null}
        <span>
          Evicted by the cap: <strong>{snap.evicted.toLocaleString()}</strong>
        </span>
        <span className={dropped > 0 ? 'kv-live-drops' : undefined}>
          Dropped: <strong data-testid="monitor-dropped">{dropped.toLocaleString()}</strong> (console{' '}
          {snap.bridgeDropped.toLocaleString()}, service {snap.serverDropped.toLocaleString()})
        </span>
      </div>

      <ErrorCallout error={error} title="The monitor stopped." />
      {running ? <ReconnectingCallout lost={lost} what="the monitor" /> : null}

      {/* Stopped by an error before any line: the error alone, not "No lines match" beside it. */}
      {error && kept.length === 0 ? null : <MonitorList lines={shown} follow={!paused} />}

      <Form
        className="toolbar kv-live-export"
        onSubmit={() => {
          exporter.mutate({
            lines: kept.map((line) => line.raw),
            format: 'text',
            suggestedName: exportName.trim() || undefined,
          });
        }}
      >
        {saving?.kind === 'folder' ? (
          <ToolbarInput
            label="Export file name"
            placeholder={`File name (optional), written to ${saving.folder}`}
            value={exportName}
            onChange={setExportName}
          />
        ) : null}
        <Button
          size="sm"
          type="submit"
          icon={<DownloadIcon />}
          busy={exporter.isPending}
          disabled={kept.length === 0}
        >
          Export {kept.length.toLocaleString()} kept lines
        </Button>
        {exporter.isSuccess ? (
          <span data-testid="export-result">
            {'canceled' in exporter.data ? (
              'Not saved: the save dialog was closed.'
            ) : (
              <>
                Saved {plural(exporter.data.lines, 'line')} to <code>{exporter.data.path}</code>
              </>
            )}
          </span>
        ) : exporter.isError ? (
          <span className="kv-live-drops">{errorMessage(exporter.error)}</span>
        ) : null}
      </Form>
    </div>
  );
}

function MonitorList({ lines, follow }: { lines: KeptLine[]; follow: boolean }) {
  const { scrollRef, virtualizer, items } = useStreamRows(lines, ROW_HEIGHT);
  // Follow the newest line while live (unless the user scrolled up to read). Rows have a fixed height, so
  // the end is the total size: one scroll write, where scrollToIndex measured the list (a forced layout)
  // on every batch.
  const atBottom = useRef(true);
  useEffect(() => {
    const element = scrollRef.current;
    if (follow && atBottom.current && element && lines.length > 0)
      element.scrollTop = lines.length * ROW_HEIGHT;
  }, [follow, lines, scrollRef]);
  return (
    <div
      ref={scrollRef}
      className="kv-live-list"
      role="list"
      aria-label="Monitor lines"
      data-testid="monitor-list"
      onScroll={(event) => {
        const el = event.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 2;
      }}
    >
      {lines.length === 0 ? <div className="kv-live-empty faint">No lines match.</div> : null}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => (
          <MonitorRow key={item.key} line={lines[item.index]!} top={item.start} />
        ))}
      </div>
    </div>
  );
}

const MonitorRow = memo(function MonitorRow({ line, top }: { line: KeptLine; top: number }) {
  return (
    <div
      className={`kv-live-row${line.own ? ' is-own' : ''}`}
      role="listitem"
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
    >
      {/* formatClock, not toLocaleTimeString: Intl formatting of every visible row on every frame was a
          third of the tab's script time at 20,000 lines/s. */}
      <span className="kv-live-time">{formatClock(line.at)}</span>
      <span className="kv-live-client-cell" title={`${line.client} · db ${line.db}`}>
        {line.client}
      </span>
      <span className="kv-live-command">{line.args[0]?.toUpperCase()}</span>
      <span className="kv-live-args">{line.args.slice(1).map(display).join(' ')}</span>
      {line.own ? <Badge tone="info">console</Badge> : null}
    </div>
  );
});

/** An argument as one readable token: quoted when it has spaces or is empty, control characters escaped. */
function display(arg: string): string {
  const shown = arg.length > 200 ? `${arg.slice(0, 200)}…` : arg;
  const escaped = shown.replace(/[\n\r\t]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
  return /[\s"]/.test(escaped) || escaped === '' ? JSON.stringify(escaped) : escaped;
}
