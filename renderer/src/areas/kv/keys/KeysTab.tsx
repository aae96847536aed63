// The key browser: a progressive SCAN with MATCH / TYPE filters and a visible COUNT, paused at a cap with
// "continue"; a tree by delimiter with counts (or a flat list) built as keys arrive; type and TTL fetched in
// pipelined batches only for the rows on screen (none for types where the server answers WITHTYPE); the
// selected key's viewer and editor beside it; exact-key lookup (the only mode for a read-only token).
// TTLs count down live; a key whose count runs out is asked about again and leaves the view once gone.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  KV_SCAN_FIRST_COUNT,
  KV_TYPES,
  type KvType,
} from '../../../../../shared/bridge/procedures/kv/key-browser';
import type { ProfileView } from '../../../../../shared/profiles';
import { useBridge, useBridgeQuery } from '../../../bridge/react';
import { ActiveService } from '../../../shell/ActiveService';
import { useScreenRoute } from '../../../shell/screen-route';
import { useNow } from '../../../ui/use-now';
import { Button } from '../../../ui/Button';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { Segmented } from '../../../ui/fields';
import { SearchIcon, TrashIcon } from '../../../ui/icons';
import { useJobDialog } from '../../../ui/job/useJobDialog';
import { Badge, Callout, EmptyState, Spinner } from '../../../ui/misc';
import '../kv.css';
import { ToolbarSearch } from '../../../ui/ToolbarInput';
import { WriteButton } from '../../../ui/WriteButton';
import { KeyDeleteJobDialog } from './KeyDeleteJobDialog';
import { KeyDetail } from './KeyDetail';
import { KeyList } from './KeyList';
import { anyCountingDown, countedOut, stampExpiry, type TimedKeyMeta } from './ttl-countdown';
import { type ScanFilter, SCAN_LIMIT, useKeyScan } from './use-key-scan';
import { plural } from '../../../ui/format';

export default function KeysTab({ params }: { params: string[] }) {
  return (
    <ActiveService service="kv">
      {(profile) => <KeyBrowser profile={profile} selectedFromRoute={params[0]} />}
    </ActiveService>
  );
}

function KeyBrowser({ profile, selectedFromRoute }: { profile: ProfileView; selectedFromRoute?: string }) {
  const info = useBridgeQuery('kv.info', { profileId: profile.id });
  if (info.isPending)
    return (
      <div className="page-body">
        <Spinner />
      </div>
    );
  if (info.data?.access === 'readOnly') return <LookupOnly profile={profile} initial={selectedFromRoute} />;
  return <ScanBrowser profile={profile} selectedFromRoute={selectedFromRoute} />;
}

function ScanBrowser({ profile, selectedFromRoute }: { profile: ProfileView; selectedFromRoute?: string }) {
  const bridge = useBridge();
  const screen = useScreenRoute();
  const [draftMatch, setDraftMatch] = useState('');
  const [filter, setFilter] = useState<ScanFilter>({ match: '*', count: 500, delimiter: ':' });
  const [view, setView] = useState<'tree' | 'list'>('tree');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [meta, setMeta] = useState<ReadonlyMap<string, TimedKeyMeta>>(new Map());
  const [lookup, setLookup] = useState('');
  const selected = selectedFromRoute;
  const { scan, continueScan, cancel, forget, remember } = useKeyScan(profile.id, filter, true);

  // A new walk starts with an empty tree: folders opened and rows known for the old one mean nothing now.
  const changeFilter = (change: (old: ScanFilter) => ScanFilter) => {
    setFilter(change);
    setExpanded(new Set());
    setMeta(new Map());
  };
  // Keys the job deleted (or began to) may be anywhere in the walk: start it again.
  const [deleteDialog, openDelete] = useJobDialog(KeyDeleteJobDialog, profile, () =>
    changeFilter((f) => ({ ...f, epoch: (f.epoch ?? 0) + 1 })),
  );

  const metaRef = useRef(meta);
  useEffect(() => {
    metaRef.current = meta;
  }, [meta]);
  // Rows read with PTTL: stamped with the time their TTL ends; a key already gone leaves the view.
  const forgetRef = useRef(forget);
  useEffect(() => {
    forgetRef.current = forget;
  });
  const takeMeta = useCallback((rows: { key: string; type: string; ttlMs: number }[]) => {
    const receivedAt = Date.now();
    const gone = rows.filter((row) => row.ttlMs === -2).map((row) => row.key);
    setMeta((old) => {
      const next = new Map(old);
      for (const row of rows) {
        if (row.ttlMs === -2) next.delete(row.key);
        // A recheck asks without the type: keep the one already known.
        else
          next.set(
            row.key,
            stampExpiry({ ...row, type: row.type || (old.get(row.key)?.type ?? '') }, receivedAt),
          );
      }
      return next;
    });
    if (gone.length > 0) forgetRef.current(gone);
  }, []);

  // Tick each second only while a shown key counts down (the scan re-renders often; the map changes rarely).
  const counting = useMemo(() => anyCountingDown(meta), [meta]);
  const now = useNow(counting ? 1_000 : 60_000);
  const rechecking = useRef(new Set<string>());
  useEffect(() => {
    const due = countedOut(metaRef.current, now).filter((key) => !rechecking.current.has(key));
    if (due.length === 0) return;
    for (const key of due) rechecking.current.add(key);
    void bridge
      .call('kv.keys.meta', { profileId: profile.id, keys: due.slice(0, 200), withType: false })
      .then(takeMeta)
      .catch(() => undefined)
      .finally(() => {
        for (const key of due) rechecking.current.delete(key);
      });
  }, [now, bridge, profile.id, takeMeta]);

  const pending = useRef<number | undefined>(undefined);
  const onVisibleKeys = useCallback(
    (keys: string[]) => {
      window.clearTimeout(pending.current);
      // Wait for scrolling to settle, then ask only for rows not yet known: one pipelined request.
      pending.current = window.setTimeout(() => {
        const missing = keys.filter((key) => !metaRef.current.has(key)).slice(0, 200);
        if (missing.length === 0) return;
        const withType = !scan.withType && !filter.type;
        void bridge
          .call('kv.keys.meta', { profileId: profile.id, keys: missing, withType })
          .then(takeMeta)
          .catch(() => undefined);
      }, 80);
    },
    [bridge, profile.id, scan.withType, filter.type, takeMeta],
  );

  const applyMatch = () => changeFilter((f) => ({ ...f, match: draftMatch.trim() || '*' }));
  const select = screen.open;

  return (
    <div className="page-body kv-keys">
      <div className="toolbar kv-keys-toolbar">
        <ToolbarSearch
          label="Match pattern"
          placeholder="MATCH pattern, e.g. user:*"
          value={draftMatch}
          onChange={setDraftMatch}
          onEnter={applyMatch}
          onBlur={applyMatch}
        />
        <select
          className="select"
          aria-label="Type filter"
          value={filter.type ?? ''}
          onChange={(event) =>
            changeFilter((f) => ({ ...f, type: (event.target.value || undefined) as KvType | undefined }))
          }
        >
          <option value="">All types</option>
          {KV_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
        <label className="kv-inline-field">
          COUNT
          <input
            className="input kv-count-input"
            type="number"
            min={10}
            max={10000}
            aria-label="SCAN COUNT"
            value={filter.count}
            onChange={(event) => {
              const count = Math.max(10, Math.min(10000, Number(event.target.value) || 500));
              changeFilter((f) => ({ ...f, count }));
            }}
          />
        </label>
        <Segmented label="View" value={view} onChange={setView} options={{ tree: 'Tree', list: 'List' }} />
        {/* Shown in both views (off in the list, which has no folders) so the toolbar keeps its layout. */}
        <label
          className="kv-inline-field"
          title={view === 'list' ? 'The delimiter folds keys into folders in the tree view' : undefined}
        >
          Delimiter
          <input
            className="input input-mono kv-delim-input"
            aria-label="Delimiter"
            value={filter.delimiter}
            maxLength={3}
            disabled={view === 'list'}
            onChange={(event) => changeFilter((f) => ({ ...f, delimiter: event.target.value }))}
          />
        </label>
        <span className="spacer" />
        <WriteButton
          profile={profile}
          icon={<TrashIcon />}
          variant="danger"
          onClick={() => openDelete({ pattern: filter.match === '*' ? '' : filter.match, type: filter.type })}
        >
          Delete by pattern…
        </WriteButton>
      </div>
      <div className="kv-scan-status" data-testid="scan-status" data-status={scan.status}>
        {scan.status === 'error' ? (
          // A failed scan counted nothing: "0 keys loaded" would read as an empty database.
          <span data-testid="scanned-count">Not loaded</span>
        ) : (
          <>
            <span data-testid="scanned-count">{plural(scan.tree.size, 'key')} loaded</span>
            <span
              className="muted"
              title={`Each walk's first SCAN asks for COUNT ${Math.min(filter.count, KV_SCAN_FIRST_COUNT)}, so the first keys show at once; the next ones for COUNT ${filter.count}.`}
            >
              · {scan.calls.toLocaleString()} SCAN calls of COUNT {filter.count}
              {scan.dbsize !== undefined ? ` · ${plural(scan.dbsize, 'key')} in the database` : ''}
              {scan.withType ? ' · types from WITHTYPE' : ''}
            </span>
          </>
        )}
        {scan.status === 'scanning' ? (
          <>
            <Spinner label="Scanning" />
            <Button size="sm" variant="ghost" onClick={cancel}>
              Stop
            </Button>
          </>
        ) : null}
        {scan.status === 'capped' || scan.status === 'stopped' ? (
          <>
            <Badge tone="info">paused after {plural(SCAN_LIMIT, 'key')} per walk</Badge>
            <Button size="sm" onClick={continueScan}>
              Continue scanning
            </Button>
          </>
        ) : null}
        {scan.status === 'done' ? <Badge tone="success">scan complete</Badge> : null}
        <span className="spacer" />
        <ToolbarSearch
          icon={false}
          label="Open exact key"
          placeholder="Open exact key…"
          value={lookup}
          onChange={setLookup}
          onEnter={(key) => key && select(key)}
        />
      </div>
      {scan.status === 'error' ? (
        // The error alone (with what to do): no "No keys match" beside it.
        <ErrorCallout error={scan.error ?? 'The scan failed.'} title="The scan failed." />
      ) : (
        <div className="kv-keys-split">
          <div className="kv-keys-left">
            {scan.tree.size === 0 && scan.status !== 'scanning' ? (
              <EmptyState icon={<SearchIcon />} title="No keys match">
                Nothing matches <code>{filter.match}</code>
                {filter.type ? ` of type ${filter.type}` : ''}.
              </EmptyState>
            ) : (
              <KeyList
                scan={scan}
                view={view}
                expanded={expanded}
                onToggle={(path) =>
                  setExpanded((old) => {
                    const next = new Set(old);
                    if (next.has(path)) next.delete(path);
                    else next.add(path);
                    return next;
                  })
                }
                selected={selected}
                onSelect={select}
                meta={meta}
                now={now}
                onVisibleKeys={onVisibleKeys}
              />
            )}
          </div>
          <div className="kv-keys-right">
            {selected ? (
              <KeyDetail
                key={selected}
                profile={profile}
                keyName={selected}
                onDeleted={(key) => {
                  forget([key]);
                  screen.close();
                }}
                onCreated={(key, type) => remember([key], type)}
                onRenamed={(from, to, type) => {
                  forget([from]);
                  remember([to], type);
                  screen.open(to);
                }}
              />
            ) : (
              <EmptyState icon={<SearchIcon />} title="Select a key">
                Pick a key on the left, or open one by its exact name.
              </EmptyState>
            )}
          </div>
        </div>
      )}
      {deleteDialog}
    </div>
  );
}

/** A read-only token cannot SCAN: open keys by exact name only. */
function LookupOnly({ profile, initial }: { profile: ProfileView; initial?: string }) {
  const screen = useScreenRoute();
  const [draft, setDraft] = useState(initial ?? '');
  return (
    <div className="page-body kv-keys">
      <Callout tone="info" title="This profile uses its read-only token, which the server refuses SCAN to.">
        Open keys by their exact name; values can be viewed, not changed.
      </Callout>
      <div className="toolbar">
        <ToolbarSearch
          className="kv-lookup-only"
          label="Open exact key"
          placeholder="Exact key name"
          value={draft}
          onChange={setDraft}
          onEnter={(key) => key && screen.open(key)}
        />
        <Button variant="primary" disabled={!draft} onClick={() => screen.open(draft)}>
          Open
        </Button>
      </div>
      {initial ? (
        <KeyDetail
          key={initial}
          profile={profile}
          keyName={initial}
          readOnly
          onDeleted={() => {}}
          onCreated={() => {}}
          onRenamed={() => {}}
        />
      ) : null}
    </div>
  );
}
