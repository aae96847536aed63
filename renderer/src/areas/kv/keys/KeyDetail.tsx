// One key: type, TTL (view and edit), size, MEMORY USAGE; rename, duplicate, delete (each asks first);
// and the type-aware viewer/editor of its value. Reload reads both again; one refresh line speaks for both.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../../../../shared/profiles';
import { errorMessage } from '../../../bridge/client';
import { bridgeKey, useBridge, useBridgeQuery } from '../../../bridge/react';
import { Button } from '../../../ui/Button';
import { confirmDanger } from '../../../ui/confirm-danger';
import { FormDialog } from '../../../ui/FormDialog';
import { TextField } from '../../../ui/fields';
import { CopyIcon, RefreshIcon, TrashIcon } from '../../../ui/icons';
import { Badge, Callout } from '../../../ui/misc';
import { ErrorCallout } from '../../../ui/ErrorCallout';
import { failureOf, RefreshStatus, Waiting } from '../../../ui/Waiting';
import { toast } from '../../../ui/toast';
import { useAsyncSave } from '../../../ui/use-async-save';
import { formatTtl } from './format-ttl';
import { useNow } from '../../../ui/use-now';
import { typeClass, typeLabel } from './KeyList';
import { TtlDialog } from './TtlDialog';
import { useValueQuery, ValueView } from './ValueView';
import { plural } from '../../../ui/format';

export function KeyDetail({
  profile,
  keyName,
  readOnly = false,
  onDeleted,
  onCreated,
  onRenamed,
}: {
  profile: ProfileView;
  keyName: string;
  readOnly?: boolean;
  onDeleted: (key: string) => void;
  onCreated: (key: string, type: string) => void;
  onRenamed: (from: string, to: string, type: string) => void;
}) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const input = { profileId: profile.id, key: keyName };
  const info = useBridgeQuery('kv.keys.lookup', input);
  const value = useValueQuery(profile.id, keyName, info.data?.exists ? info.data.type : '');
  const [naming, setNaming] = useState<'rename' | 'duplicate' | null>(null);
  const [editingTtl, setEditingTtl] = useState(false);
  const canWrite = !readOnly && !profile.readOnly;
  const refresh = () => queryClient.invalidateQueries({ queryKey: bridgeKey('kv.keys.lookup', input) });

  // A refused token says what to do (ErrorCallout), as everywhere; a key that keeps it waiting can be left.
  if (failureOf(info.error)) return <ErrorCallout error={info.error} title="Could not read the key." />;
  if (info.data === undefined) return <Waiting query={info} />;
  const data = info.data;
  if (!data.exists) {
    return (
      <Callout tone="warning" title={`No key named “${keyName}”.`}>
        It may have expired or been deleted.
      </Callout>
    );
  }

  const remove = async () => {
    const ok = await confirmDanger(profile, {
      title: `Delete ${keyName}?`,
      body: `The ${data.type === 'ReJSON-RL' ? 'JSON document' : data.type} is removed with UNLINK; this cannot be undone.`,
      confirmLabel: 'Delete key',
    });
    if (!ok) return;
    try {
      await bridge.call('kv.keys.delete', { profileId: profile.id, keys: [keyName] });
      toast.success(`Deleted ${keyName}`);
      onDeleted(keyName);
    } catch (error) {
      toast.error('Could not delete the key', errorMessage(error));
    }
  };

  return (
    <div className="kv-detail" data-testid="key-detail">
      <div className="kv-detail-head">
        <span className={typeClass(data.type)}>{typeLabel(data.type)}</span>
        <h2 className="kv-detail-key" title={keyName}>
          {keyName}
        </h2>
        <span className="spacer" />
        <Button
          size="sm"
          variant="ghost"
          icon={<RefreshIcon />}
          aria-label="Reload"
          onClick={() => {
            void refresh();
            void value.refetch();
          }}
        />
        {canWrite ? (
          <>
            <Button size="sm" onClick={() => setNaming('rename')}>
              Rename
            </Button>
            <Button size="sm" icon={<CopyIcon />} onClick={() => setNaming('duplicate')}>
              Duplicate
            </Button>
            <Button size="sm" variant="danger" icon={<TrashIcon />} onClick={() => void remove()}>
              Delete
            </Button>
          </>
        ) : null}
      </div>
      {/* A value not shown yet has its own waiting state, in its place (ValueView). */}
      <RefreshStatus query={value.data === undefined ? info : [info, value]} />
      <dl className="kv-facts">
        <div>
          <dt>TTL</dt>
          <dd data-testid="key-ttl">
            <LiveTtl ttlMs={data.ttlMs} readAt={info.dataUpdatedAt} onCountedOut={() => void refresh()} />{' '}
            {canWrite ? (
              <Button size="sm" variant="ghost" onClick={() => setEditingTtl(true)}>
                Edit
              </Button>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>{sizeLabel(data.type)}</dt>
          <dd>{data.size?.toLocaleString() ?? '—'}</dd>
        </div>
        <div>
          <dt>Memory</dt>
          <dd data-testid="key-memory">
            {data.memory === null ? 'not answered' : plural(data.memory, 'byte')}
          </dd>
        </div>
      </dl>
      <ValueView
        profile={profile}
        keyName={keyName}
        type={data.type}
        firstQuery={value}
        canWrite={canWrite}
        onChanged={() => void refresh()}
      />
      {editingTtl ? (
        <TtlDialog
          ttlMs={data.ttlMs}
          onClose={() => setEditingTtl(false)}
          onSave={async (ttlSeconds) => {
            await bridge.call('kv.keys.expire', { profileId: profile.id, key: keyName, ttlSeconds });
            setEditingTtl(false);
            await refresh();
          }}
        />
      ) : null}
      {naming ? (
        <NameDialog
          mode={naming}
          from={keyName}
          onClose={() => setNaming(null)}
          onSave={async (to) => {
            if (naming === 'rename') {
              await bridge.call('kv.keys.rename', { profileId: profile.id, key: keyName, to });
              toast.success(`Renamed to ${to}`);
              onRenamed(keyName, to, data.type);
            } else {
              await bridge.call('kv.keys.duplicate', { profileId: profile.id, key: keyName, to });
              toast.success(`Copied to ${to}`);
              onCreated(to, data.type);
            }
            setNaming(null);
          }}
        />
      ) : null}
    </div>
  );
}

function sizeLabel(type: string): string {
  return type === 'string'
    ? 'Length'
    : type === 'ReJSON-RL'
      ? 'Top-level size'
      : type === 'hash'
        ? 'Fields'
        : type === 'stream'
          ? 'Entries'
          : type === 'list'
            ? 'Items'
            : 'Members';
}

/**
 * The key's TTL counting down from the moment it was read. At zero the key is read again: it is gone (the
 * detail then says so) or another client gave it a new TTL.
 */
function LiveTtl({
  ttlMs,
  readAt,
  onCountedOut,
}: {
  ttlMs: number;
  readAt: number;
  onCountedOut: () => void;
}) {
  const now = useNow(ttlMs >= 0 ? 1_000 : 3_600_000);
  const left = ttlMs >= 0 ? Math.max(0, ttlMs - (Math.max(now, readAt) - readAt)) : ttlMs;
  const countedOut = ttlMs >= 0 && left === 0;
  const onCountedOutRef = useRef(onCountedOut);
  useEffect(() => {
    onCountedOutRef.current = onCountedOut;
  });
  useEffect(() => {
    if (countedOut) onCountedOutRef.current();
  }, [countedOut, readAt]);
  return <>{formatTtl(left)}</>;
}

function NameDialog({
  mode,
  from,
  onClose,
  onSave,
}: {
  mode: 'rename' | 'duplicate';
  from: string;
  onClose: () => void;
  onSave: (to: string) => Promise<void>;
}) {
  const [to, setTo] = useState(mode === 'duplicate' ? `${from}:copy` : from);
  const { busy, error, run } = useAsyncSave(onSave);
  const save = () => run(to);
  return (
    <FormDialog
      onClose={onClose}
      title={mode === 'rename' ? `Rename ${from}` : `Duplicate ${from}`}
      submitLabel={mode === 'rename' ? 'Rename' : 'Duplicate'}
      busy={busy}
      disabled={!to || to === from}
      onSubmit={() => void save()}
    >
      <TextField
        label="New key name"
        mono
        value={to}
        autoFocus
        error={error}
        hint={
          mode === 'rename'
            ? 'RENAMENX: an existing key is never overwritten.'
            : 'COPY: an existing key is never overwritten.'
        }
        onChange={(event) => setTo(event.target.value)}
        onKeyDown={(event) => event.key === 'Enter' && to && to !== from && void save()}
      />
      <Badge>{mode === 'rename' ? 'keeps the TTL' : 'copies the TTL'}</Badge>
    </FormDialog>
  );
}
