// URL groups: the list (#/url-groups) and one group's page (#/url-groups/<name>).
import { useState } from 'react';
import type { ProfileView } from '../../../../shared/profiles';
import { useBridgeQuery } from '../../bridge/react';
import { ActiveService } from '../../shell/ActiveService';
import { useNav } from '../../shell/nav';
import { PageHeader } from '../../shell/PageHeader';
import { formatRelative, formatTime, plural } from '../../ui/format';
import { GroupIcon, PlusIcon } from '../../ui/icons';
import { InAppLink } from '../../ui/InAppLink';
import { EmptyState } from '../../ui/misc';
import { QueryView, RefreshButton } from '../../ui/QueryView';
import { TableCard } from '../../ui/TableCard';
import { WriteButton } from '../../ui/WriteButton';
import { AddEndpointsDialog } from './AddEndpointsDialog';
import { GroupPage } from './GroupPage';
import '../../ui/tables.css';
import './url-groups.css';

export default function UrlGroupsArea({ params }: { params: string[] }) {
  const [name] = params;
  return (
    <ActiveService
      header={<PageHeader title="URL groups" subtitle="Fan out one message to many endpoints" />}
    >
      {(profile) =>
        name ? <GroupPage key={name} profile={profile} name={name} /> : <GroupList profile={profile} />
      }
    </ActiveService>
  );
}

function GroupList({ profile }: { profile: ProfileView }) {
  const navigate = useNav((state) => state.navigate);
  const [creating, setCreating] = useState(false);
  const groups = useBridgeQuery('messages.urlGroups.list', { profileId: profile.id });
  const newGroup = (
    <WriteButton profile={profile} variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
      New URL group
    </WriteButton>
  );
  return (
    <>
      <PageHeader
        title="URL groups"
        subtitle="Fan out one message to many endpoints"
        actions={
          <>
            <RefreshButton query={groups} />
            {newGroup}
          </>
        }
      />
      <div className="page-body">
        <QueryView query={groups} failure="Could not load URL groups.">
          {(list) =>
            list.length === 0 ? (
              <EmptyState icon={<GroupIcon />} title="No URL groups yet" actions={newGroup}>
                <p>
                  A URL group delivers each message published to it to every endpoint, with one message id per
                  endpoint. Create one and paste its endpoints.
                </p>
              </EmptyState>
            ) : (
              <TableCard
                label="URL groups"
                columns={['Name', 'Endpoints', 'Default headers', 'Updated', 'Created']}
              >
                {list.map((group) => (
                  <tr
                    key={group.name}
                    className="clickable-row"
                    onClick={() => navigate('url-groups', group.name)}
                  >
                    <td>
                      <InAppLink
                        href={`#/url-groups/${encodeURIComponent(group.name)}`}
                        className="row-link mono"
                        onOpen={() => navigate('url-groups', group.name)}
                      >
                        {group.name}
                      </InAppLink>
                    </td>
                    <td className="num">{plural(group.endpoints.length, 'endpoint')}</td>
                    <td className="muted">
                      {group.headers && Object.keys(group.headers).length > 0
                        ? plural(Object.keys(group.headers).length, 'header')
                        : '—'}
                    </td>
                    <td title={formatTime(group.updatedAt)}>{formatRelative(group.updatedAt)}</td>
                    <td className="muted">{formatTime(group.createdAt)}</td>
                  </tr>
                ))}
              </TableCard>
            )
          }
        </QueryView>
      </div>
      {creating ? (
        <AddEndpointsDialog
          profile={profile}
          onClose={() => setCreating(false)}
          onDone={(group) => navigate('url-groups', group.name)}
        />
      ) : null}
    </>
  );
}
