import { useRef } from 'react';
import { LOCAL_PROFILE_ID, type ProfileView } from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridge, useBridgeMutation } from '../../bridge/react';
import { useProfiles } from '../../shell/data';
import { useNav } from '../../shell/nav';
import { PageHeader } from '../../shell/PageHeader';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { CopyIcon, DownloadIcon, PlusIcon, TrashIcon, UploadIcon } from '../../ui/icons';
import { Badge, EnvBadge, Spinner } from '../../ui/misc';
import { toast } from '../../ui/toast';
import { ConnectionTests } from './ConnectionTests';
import { LocalProfileCard } from './LocalProfileCard';
import { ProfileEditor } from './ProfileEditor';

export default function ProfilesArea({ params }: { params: string[] }) {
  const { data, error } = useProfiles();
  const navigate = useNav((state) => state.navigate);
  const selectedId = params[0] ?? data?.activeId;
  const selected = data?.profiles.find((profile) => profile.id === selectedId);

  return (
    <>
      <PageHeader
        title="Profiles"
        subtitle="Where Switchyard connects, and with which tokens"
        actions={
          <>
            <ImportExport />
            <Button variant="primary" icon={<PlusIcon />} onClick={() => navigate('profiles', 'new')}>
              New profile
            </Button>
          </>
        }
      />
      <div className="page-body">
        {error ? <p className="field-error">{errorMessage(error)}</p> : null}
        {!data ? (
          <Spinner />
        ) : (
          <div className="split">
            <nav className="profile-list" aria-label="Profiles">
              {data.profiles.map((profile) => (
                <ProfileCard
                  key={profile.id}
                  profile={profile}
                  active={profile.id === data.activeId}
                  selected={profile.id === selectedId}
                  onSelect={() => navigate('profiles', profile.id)}
                />
              ))}
            </nav>
            <div>
              {selectedId === 'new' ? (
                <ProfileEditor
                  key="new"
                  onSaved={(saved) => navigate('profiles', saved.id)}
                  onCancel={() => navigate('profiles')}
                />
              ) : selected ? (
                <ProfileDetail key={selected.id} profile={selected} active={selected.id === data.activeId} />
              ) : (
                <p className="muted">This profile no longer exists.</p>
              )}
            </div>
          </div>
        )}
      </div>
    </>
  );
}

function ProfileCard({
  profile,
  active,
  selected,
  onSelect,
}: {
  profile: ProfileView;
  active: boolean;
  selected: boolean;
  onSelect: () => void;
}) {
  return (
    <button type="button" className="profile-card" aria-current={selected} onClick={onSelect}>
      <span className="title">
        {profile.name}
        <EnvBadge env={profile.env} />
        {profile.readOnly ? <Badge>Read-only</Badge> : null}
        <span className="spacer" />
        {active ? <Badge tone="success">Active</Badge> : null}
      </span>
      <span className="url">{profile.messagesUrl || 'no message API URL'}</span>
      <span className="url">{profile.kvUrl || 'no KV URL'}</span>
    </button>
  );
}

function ProfileDetail({ profile, active }: { profile: ProfileView; active: boolean }) {
  const navigate = useNav((state) => state.navigate);
  const activate = useBridgeMutation('profiles.activate', {
    onSuccess: () => toast.success('Profile switched', profile.name),
    onError: (error) => toast.error('Could not switch profile', errorMessage(error)),
  });
  const duplicate = useBridgeMutation('profiles.duplicate', {
    onSuccess: (copy) => {
      toast.success('Profile duplicated', copy.name);
      navigate('profiles', copy.id);
    },
    onError: (error) => toast.error('Could not duplicate', errorMessage(error)),
  });
  const remove = useBridgeMutation('profiles.delete', {
    onSuccess: () => {
      toast.success('Profile deleted', profile.name);
      navigate('profiles');
    },
    onError: (error) => toast.error('Could not delete', errorMessage(error)),
  });

  const askDelete = async () => {
    const ok = await confirm({
      title: `Delete profile “${profile.name}”?`,
      body: 'Its settings and the tokens stored for it are removed from this machine. Nothing changes at the services.',
      confirmLabel: 'Delete profile',
      danger: true,
      typeToConfirm: profile.env === 'prod' ? profile.name : undefined,
    });
    if (ok) remove.mutate({ id: profile.id });
  };

  return (
    <div className="stack" style={{ gap: 16 }}>
      <div className="row row-wrap">
        <h2 style={{ fontSize: 17 }}>{profile.name}</h2>
        <EnvBadge env={profile.env} />
        <span className="spacer" />
        {active ? (
          <Badge tone="success">Active profile</Badge>
        ) : (
          <Button
            variant="primary"
            busy={activate.isPending}
            onClick={() => activate.mutate({ id: profile.id })}
          >
            Use this profile
          </Button>
        )}
        <Button
          icon={<CopyIcon />}
          busy={duplicate.isPending}
          onClick={() => duplicate.mutate({ id: profile.id })}
        >
          Duplicate
        </Button>
        {!profile.builtIn ? (
          <Button icon={<TrashIcon />} busy={remove.isPending} onClick={() => void askDelete()}>
            Delete
          </Button>
        ) : null}
      </div>
      <ConnectionTests profileId={profile.id} />
      {profile.id === LOCAL_PROFILE_ID ? (
        <LocalProfileCard profile={profile} />
      ) : (
        <ProfileEditor profile={profile} onSaved={() => {}} />
      )}
    </div>
  );
}

/** Profiles travel as JSON files without any secret. */
function ImportExport() {
  const bridge = useBridge();
  const fileInput = useRef<HTMLInputElement>(null);
  const importProfiles = useBridgeMutation('profiles.import', {
    onSuccess: ({ imported }) =>
      toast.success(
        `Imported ${imported.length} profile${imported.length === 1 ? '' : 's'}`,
        'Add their tokens before using them: exports never contain secrets.',
      ),
    onError: (error) => toast.error('Import failed', errorMessage(error)),
  });

  const exportAll = async () => {
    try {
      const data = await bridge.call('profiles.export', {});
      const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = 'switchyard-profiles.json';
      link.click();
      URL.revokeObjectURL(link.href);
      toast.success(`Exported ${data.profiles.length} profiles`, 'Settings only — no tokens.');
    } catch (error) {
      toast.error('Export failed', errorMessage(error));
    }
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    let data: unknown;
    try {
      data = JSON.parse(await file.text());
    } catch {
      toast.error('Import failed', `${file.name} is not JSON.`);
      return;
    }
    importProfiles.mutate({ data });
  };

  return (
    <>
      <input
        ref={fileInput}
        type="file"
        accept="application/json,.json"
        hidden
        data-testid="import-file"
        onChange={(event) => {
          void onFile(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <Button
        icon={<UploadIcon />}
        busy={importProfiles.isPending}
        onClick={() => fileInput.current?.click()}
      >
        Import
      </Button>
      <Button icon={<DownloadIcon />} onClick={() => void exportAll()}>
        Export
      </Button>
    </>
  );
}
