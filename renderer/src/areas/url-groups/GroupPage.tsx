// One URL group: its endpoints (add by pasting, remove), its default headers (edit with a diff before
// applying), publish to it, delete it.
import { useState } from 'react';
import type { UrlGroup, UrlGroupEndpoint } from '../../../../shared/messages/types';
import type { ProfileView } from '../../../../shared/profiles';
import { errorMessage } from '../../bridge/client';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/react';
import { useNav } from '../../shell/nav';
import { PageHeader } from '../../shell/PageHeader';
import { confirmDanger } from '../../ui/confirm-danger';
import { formatRelative, formatTime, plural } from '../../ui/format';
import { HeadersView } from '../../ui/HeadersView';
import { PlusIcon, SendIcon, TrashIcon } from '../../ui/icons';
import { InAppLink } from '../../ui/InAppLink';
import { QueryView } from '../../ui/QueryView';
import { RemoveRowButton } from '../../ui/RemoveRowButton';
import { TableHead } from '../../ui/TableHead';
import { toast } from '../../ui/toast';
import { WriteButton } from '../../ui/WriteButton';
import { AddEndpointsDialog } from './AddEndpointsDialog';
import { HeadersDialog } from './HeadersDialog';

export function GroupPage({ profile, name }: { profile: ProfileView; name: string }) {
  const navigate = useNav((state) => state.navigate);
  const group = useBridgeQuery('messages.urlGroups.get', { profileId: profile.id, name }, { retry: false });
  const [adding, setAdding] = useState(false);
  const [editingHeaders, setEditingHeaders] = useState(false);
  const remove = useBridgeMutation('messages.urlGroups.removeEndpoints', {
    onSuccess: ({ group: after }) => {
      if (after)
        toast.success('Endpoint removed', `${plural(after.endpoints.length, 'endpoint')} left in ${name}.`);
      else {
        toast.success(`Deleted ${name}`, 'Its last endpoint was removed, so the group is gone.');
        navigate('url-groups');
      }
    },
    onError: (error) => toast.error('Could not remove the endpoint', errorMessage(error)),
  });
  const deleteGroup = useBridgeMutation('messages.urlGroups.delete', {
    onSuccess: () => {
      toast.success(`Deleted ${name}`);
      navigate('url-groups');
    },
    onError: (error) => toast.error('Could not delete the group', errorMessage(error)),
  });

  const askRemove = async (current: UrlGroup, endpoint: UrlGroupEndpoint) => {
    const last = current.endpoints.length === 1;
    const label = endpoint.name ? `${endpoint.name} (${endpoint.url})` : endpoint.url;
    const ok = await confirmDanger(profile, {
      title: last ? `Remove the last endpoint and delete ${name}?` : `Remove this endpoint from ${name}?`,
      body: last ? (
        <>
          <strong>{label}</strong> is the group’s only endpoint. Removing it{' '}
          <strong>deletes the group</strong> {name}: publishing to it will fail until you create it again.
          Messages already on their way are still delivered.
        </>
      ) : (
        <>
          <strong>{label}</strong> stops receiving messages published to {name} from now on. Messages already
          on their way are still delivered.
        </>
      ),
      confirmLabel: last ? 'Remove and delete group' : 'Remove endpoint',
      typeOnProd: name,
    });
    if (ok)
      remove.mutate({
        profileId: profile.id,
        name,
        endpoints: [endpoint.name ? { name: endpoint.name, url: endpoint.url } : { url: endpoint.url }],
      });
  };

  const askDelete = async (current: UrlGroup) => {
    const ok = await confirmDanger(profile, {
      title: `Delete URL group ${name}?`,
      body: (
        <>
          The group and its {plural(current.endpoints.length, 'endpoint')} are removed. Publishing to {name}{' '}
          fails afterwards; schedules that publish to it should be deleted first. Messages already on their
          way are still delivered.
        </>
      ),
      confirmLabel: 'Delete group',
      typeOnProd: name,
    });
    if (ok) deleteGroup.mutate({ profileId: profile.id, name });
  };

  const current = group.data;
  return (
    <>
      <PageHeader
        title={
          <span className="row">
            <InAppLink href="#/url-groups" className="crumb" onOpen={() => navigate('url-groups')}>
              URL groups
            </InAppLink>
            <span className="faint">/</span>
            <span className="mono">{name}</span>
          </span>
        }
        subtitle={
          current
            ? `${plural(current.endpoints.length, 'endpoint')} · updated ${formatRelative(current.updatedAt)} · created ${formatTime(current.createdAt)}`
            : undefined
        }
        actions={
          current ? (
            <>
              <WriteButton
                profile={profile}
                icon={<SendIcon />}
                onClick={() => navigate('messages', 'compose', 'group', name)}
              >
                Publish to this group
              </WriteButton>
              <WriteButton
                profile={profile}
                variant="danger"
                icon={<TrashIcon />}
                busy={deleteGroup.isPending}
                onClick={() => void askDelete(current)}
              >
                Delete group
              </WriteButton>
            </>
          ) : null
        }
      />
      <div className="page-body">
        <QueryView query={group} failure={`Could not load ${name}.`}>
          {(current) => (
            <div className="group-grid">
              <section className="card" aria-label="Endpoints">
                <div className="card-header">
                  <h2>Endpoints</h2>
                  <span className="muted">{current.endpoints.length}</span>
                  <span className="spacer" />
                  <WriteButton
                    profile={profile}
                    size="sm"
                    icon={<PlusIcon />}
                    onClick={() => setAdding(true)}
                  >
                    Add endpoints
                  </WriteButton>
                </div>
                <table className="table">
                  <TableHead columns={['Name', 'URL']} actions />
                  <tbody>
                    {current.endpoints.map((endpoint) => (
                      <tr key={endpoint.url}>
                        <td className="mono">{endpoint.name ?? <span className="faint">—</span>}</td>
                        <td className="mono cell-wrap">{endpoint.url}</td>
                        <td className="cell-actions">
                          <RemoveRowButton
                            profile={profile}
                            label={`Remove ${endpoint.name ?? endpoint.url}`}
                            title="Remove endpoint"
                            disabled={remove.isPending}
                            onClick={() => void askRemove(current, endpoint)}
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {current.endpoints.length === 1 ? (
                  <div className="card-body">
                    <p className="faint">Removing the only endpoint deletes the group.</p>
                  </div>
                ) : null}
              </section>
              <section className="card" aria-label="Default headers">
                <div className="card-header">
                  <h2>Default headers</h2>
                  <span className="spacer" />
                  <WriteButton profile={profile} size="sm" onClick={() => setEditingHeaders(true)}>
                    Edit
                  </WriteButton>
                </div>
                <div className="card-body stack">
                  <p className="muted">
                    Applied to every message published to this group; the publish request’s own headers win.
                    Use <code>Upstash-Forward-*</code> for headers the endpoints receive and{' '}
                    <code>Upstash-*</code> for delivery settings such as retries.
                  </p>
                  <HeadersView headers={current.headers} empty="No default headers" />
                </div>
              </section>
            </div>
          )}
        </QueryView>
      </div>
      {adding && current ? (
        <AddEndpointsDialog profile={profile} group={current} onClose={() => setAdding(false)} />
      ) : null}
      {editingHeaders && current ? (
        <HeadersDialog profile={profile} group={current} onClose={() => setEditingHeaders(false)} />
      ) : null}
    </>
  );
}
